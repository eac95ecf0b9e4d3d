/**
 * Rasterises Open Graph cards (1200×630 PNG), for the build (src/pages/og/[...slug].png.ts) and
 * the function that draws them on demand (netlify/functions/og-image.mts); the layout is
 * src/core/publish/og-card.ts. satori lays out the card and turns every glyph into an SVG path,
 * sharp (already Astro's image library) rasterises it. Glyphs come from Noto Sans SC in
 * @fontsource/noto-sans-sc: only the unicode-range subsets a card's text needs are read, so a card
 * costs a few font files, not the whole CJK font; no system font is involved, so a machine without
 * Chinese fonts draws the same image. The function ships the 400 and 700 files beside it
 * (netlify.toml `included_files`) and finds them, as here, by module resolution.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import satori from 'satori';
import sharp from 'sharp';
import { checkLogo } from './brand.ts';
import {
  OG_HEIGHT_PX,
  OG_LOGO_BOX,
  OG_WIDTH_PX,
  type OgBrand,
  type OgCard,
  type OgNode,
  ogFrameText,
  ogFrameTree,
  ogTextText,
  ogTextTree,
} from '../core/publish/og-card.ts';

const require = createRequire(import.meta.url);
const FONT_DIR = path.dirname(require.resolve('@fontsource/noto-sans-sc/package.json'));
const WEIGHTS = [400, 700] as const;

/** Each subset of the font and the code points it covers, from the package's unicode.json. */
let subsets: Promise<{ key: string; ranges: [number, number][] }[]> | undefined;
function loadSubsets(): Promise<{ key: string; ranges: [number, number][] }[]> {
  subsets ??= readFile(path.join(FONT_DIR, 'unicode.json'), 'utf8').then((text) =>
    Object.entries(JSON.parse(text) as Record<string, string>).map(([key, value]) => ({
      key: key.replace(/^\[(\d+)\]$/, '$1'),
      ranges: value.split(',').map((r) => {
        const [from, to] = r.trim().replace(/^U\+/i, '').split('-');
        const start = Number.parseInt(from!, 16);
        return [start, to ? Number.parseInt(to, 16) : start] as [number, number];
      }),
    })),
  );
  return subsets;
}

const fontFiles = new Map<string, Promise<Buffer>>();
function fontFile(key: string, weight: number): Promise<Buffer> {
  const file = `noto-sans-sc-${key}-${weight}-normal.woff`;
  let data = fontFiles.get(file);
  if (!data) {
    data = readFile(path.join(FONT_DIR, 'files', file));
    fontFiles.set(file, data);
  }
  return data;
}

/**
 * The font subsets (both weights) that cover every character of `text`; Latin always. The same
 * list (the same array) for the same subsets: satori parses a font list once and keeps it by
 * identity, so a new array per card would parse the fonts again for every card.
 */
const fontLists = new Map<string, Promise<{ name: string; data: Buffer; weight: 400 | 700; style: 'normal' }[]>>();
async function fontsFor(text: string): Promise<{ name: string; data: Buffer; weight: 400 | 700; style: 'normal' }[]> {
  // Latin first: it is the family satori measures spaces and digits with.
  const all = await loadSubsets();
  const needed = new Set<string>(['latin']);
  for (const char of new Set(text)) {
    const code = char.codePointAt(0)!;
    if (code < 0x80) continue;
    const subset = all.find((s) => s.ranges.some(([a, b]) => code >= a && code <= b));
    if (subset) needed.add(subset.key);
  }
  const key = [...needed].join(',');
  let list = fontLists.get(key);
  if (!list) {
    // One family name per subset: satori looks a glyph up along the font-family list, not among
    // same-named fonts, so the card's fontFamily lists every subset.
    list = Promise.all(
      [...needed].flatMap((subset) =>
        WEIGHTS.map(async (weight) => ({
          name: `Noto Sans SC ${subset}`,
          data: await fontFile(subset, weight),
          weight,
          style: 'normal' as const,
        })),
      ),
    );
    fontLists.set(key, list);
  }
  return list;
}

/** Lays out `tree` with satori: every glyph becomes an SVG path, from fonts covering `text`. */
async function drawSvg(tree: OgNode, text: string): Promise<string> {
  const fonts = await fontsFor(text);
  tree.props.style.fontFamily = [...new Set(fonts.map((f) => `"${f.name}"`))].join(', ');
  return satori(tree as Parameters<typeof satori>[0], { width: OG_WIDTH_PX, height: OG_HEIGHT_PX, fonts });
}

/** An RGB raster of the card's size. */
interface Raster {
  data: Buffer;
  width: number;
  height: number;
}

/**
 * The frame of each language, brand and host, rasterised once per process: its gradient alone costs
 * as much to rasterise as a whole card's text (BENCHMARKS.md, "Build"). The logo (public/favicon.svg)
 * is laid over the room the frame leaves for it.
 */
const frames = new Map<string, Promise<Raster>>();
function frameOf(card: OgCard, brand: OgBrand): Promise<Raster> {
  const key = JSON.stringify([card.lang, card.brand, card.host, brand.accent, brand.logoSvg]);
  let frame = frames.get(key);
  if (!frame) {
    const { left, top, size } = OG_LOGO_BOX;
    const logo = checkLogo(brand.logoSvg).then(() =>
      sharp(Buffer.from(brand.logoSvg), { density: 72 * Math.ceil(size / 16) })
        .resize(size, size)
        .png()
        .toBuffer(),
    );
    frame = Promise.all([drawSvg(ogFrameTree(card, brand.accent), ogFrameText(card)), logo])
      .then(([svg, input]) =>
        sharp(Buffer.from(svg)).composite([{ input, left, top }]).removeAlpha().raw().toBuffer({ resolveWithObject: true }),
      )
      .then(({ data, info }) => ({ data, width: info.width, height: info.height }));
    frames.set(key, frame);
  }
  return frame;
}

/**
 * `layer` (RGBA, not premultiplied, as librsvg's output comes from sharp) over a copy of `frame`
 * (RGB). Blending here costs a third of libvips' composite, which converts both images to a
 * linear float space first (BENCHMARKS.md, "Build").
 */
function over(frame: Raster, layer: Buffer): Buffer {
  const out = Buffer.from(frame.data);
  for (let p = 0, q = 0; p < layer.length; p += 4, q += 3) {
    const alpha = layer[p + 3]!;
    if (alpha === 0) continue;
    const rest = 255 - alpha;
    out[q] = (layer[p]! * alpha + out[q]! * rest + 127) / 255;
    out[q + 1] = (layer[p + 1]! * alpha + out[q + 1]! * rest + 127) / 255;
    out[q + 2] = (layer[p + 2]! * alpha + out[q + 2]! * rest + 127) / 255;
  }
  return out;
}

/**
 * zlib level of the card PNGs: level 9 took twice the CPU of level 6 for ≈ 35 % smaller files
 * (BENCHMARKS.md, "Build").
 */
const PNG_COMPRESSION_LEVEL = 6;

/** The card as a PNG: the page's kicker and title drawn over its language's frame, with the site's logo and colour. */
export async function renderOgImage(card: OgCard, brand: OgBrand): Promise<Buffer> {
  const [frame, text] = await Promise.all([frameOf(card, brand), drawSvg(ogTextTree(card), ogTextText(card))]);
  const layer = await sharp(Buffer.from(text)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  if (layer.info.width !== frame.width || layer.info.height !== frame.height || layer.info.channels !== 4)
    throw new Error(
      `og-image: text layer ${layer.info.width}×${layer.info.height}×${layer.info.channels}, frame ${frame.width}×${frame.height}`,
    );
  return sharp(over(frame, layer.data), { raw: { width: frame.width, height: frame.height, channels: 3 } })
    .png({ compressionLevel: PNG_COMPRESSION_LEVEL, palette: false })
    .toBuffer();
}
