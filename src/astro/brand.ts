/**
 * The brand's two drawn facts, each kept in one file a fork edits: the logo is public/favicon.svg (the header, the
 * icons, the Open Graph cards) and the theme colour is the `--accent` token of src/styles/site.css (the pages, the web
 * manifest, the maskable icon, the cards' gradient). docs/forking.md lists them.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

// Resolved from the project root: the build runs this from a bundled chunk under dist/.
export const LOGO_FILE = path.resolve(process.cwd(), 'public', 'favicon.svg');
const STYLES_FILE = path.resolve(process.cwd(), 'src', 'styles', 'site.css');

/** The logo's SVG text. */
export function logoSvg(): string {
  return readFileSync(LOGO_FILE, 'utf8');
}

/** The logo file as the error and warning name it. */
const LOGO_NAME = path.relative(process.cwd(), LOGO_FILE);

/** Each logo text's check, once per process. */
const LOGO_CHECKS = new Map<string, Promise<void>>();

/**
 * Checks that `svg` (the logo) can be drawn, before an icon or a card draws it: a malformed file fails the build naming
 * public/favicon.svg (it named /apple-touch-icon.png and sharp's XML error), and a logo that is not square is drawn
 * cropped to its middle square, which the build says once (recheck N5).
 * @throws Error naming the file when sharp cannot read it.
 */
export function checkLogo(svg: string): Promise<void> {
  let check = LOGO_CHECKS.get(svg);
  if (!check) {
    check = sharp(Buffer.from(svg))
      .metadata()
      .then(
        ({ width, height }) => {
          if (width && height && width !== height)
            console.warn(
              `${LOGO_NAME} is ${width}×${height}: the icons and the Open Graph cards draw it square, cropped to its middle. ` +
                'Give it a square viewBox (docs/forking.md).',
            );
        },
        (error: unknown) => {
          const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
          throw new Error(
            `${LOGO_NAME}, the logo the icons and the Open Graph cards are drawn from, is not an SVG that can be drawn: ${reason}`,
          );
        },
      );
    LOGO_CHECKS.set(svg, check);
  }
  return check;
}

/**
 * The theme colour: the first `--accent` of site.css (the light theme's, in `:root`), a hex colour.
 * @throws Error when site.css declares none, so a renamed token fails the build instead of drawing another colour.
 */
export function themeColor(): string {
  const match = /--accent:\s*(#[0-9a-fA-F]{3,8})\s*;/.exec(readFileSync(STYLES_FILE, 'utf8'));
  if (!match)
    throw new Error(`${path.relative(process.cwd(), STYLES_FILE)} declares no --accent colour (#rgb or #rrggbb): the theme colour`);
  return match[1]!;
}

/** A digest of the logo and the theme colour: part of the cache key of every image drawn from them. */
export function brandDigest(): string {
  return createHash('sha256').update(logoSvg()).update(themeColor()).digest('base64url').slice(0, 16);
}
