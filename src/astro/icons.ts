/**
 * The site's raster icons, drawn at build time from public/favicon.svg (so a fork that replaces the
 * SVG gets matching icons): favicon.ico, apple-touch-icon.png and the web manifest's icons.
 */
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { checkLogo, LOGO_FILE as SVG } from './brand.ts';

/** A square PNG of the logo; `padding` (0..1 of the size) leaves room for maskable icons' safe zone. */
export async function iconPng(size: number, options: { padding?: number; background?: string } = {}): Promise<Buffer> {
  const inner = Math.round(size * (1 - 2 * (options.padding ?? 0)));
  const svg = await readFile(SVG);
  await checkLogo(svg.toString('utf8'));
  const logo = await sharp(svg, { density: 72 * Math.ceil(inner / 32) })
    .resize(inner, inner)
    .png()
    .toBuffer();
  if (inner === size && !options.background) return logo;
  return sharp({ create: { width: size, height: size, channels: 4, background: options.background ?? { r: 0, g: 0, b: 0, alpha: 0 } } })
    .composite([{ input: logo, gravity: 'center' }])
    .png()
    .toBuffer();
}

/**
 * favicon.ico holding one 32×32 PNG. Written by hand: the ICO container is a 6-byte header and a
 * 16-byte directory entry before the PNG (PNG payloads are valid since Windows Vista), and sharp
 * does not write ICO.
 */
export async function faviconIco(): Promise<Buffer> {
  const png = await iconPng(32);
  const header = Buffer.alloc(22);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // type: icon
  header.writeUInt16LE(1, 4); // one image
  header.writeUInt8(32, 6); // width
  header.writeUInt8(32, 7); // height
  header.writeUInt8(0, 8); // no palette
  header.writeUInt8(0, 9); // reserved
  header.writeUInt16LE(1, 10); // colour planes
  header.writeUInt16LE(32, 12); // bits per pixel
  header.writeUInt32LE(png.length, 14); // size of the image data
  header.writeUInt32LE(22, 18); // offset of the image data
  return Buffer.concat([header, png]);
}
