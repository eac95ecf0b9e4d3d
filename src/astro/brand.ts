/**
 * The brand's two drawn facts, each kept in one file a fork edits: the logo is public/favicon.svg (the header, the
 * icons, the Open Graph cards) and the theme colour is the `--accent` token of src/styles/site.css (the pages, the web
 * manifest, the maskable icon, the cards' gradient). docs/forking.md lists them.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

// Resolved from the project root: the build runs this from a bundled chunk under dist/.
export const LOGO_FILE = path.resolve(process.cwd(), 'public', 'favicon.svg');
const STYLES_FILE = path.resolve(process.cwd(), 'src', 'styles', 'site.css');

/** The logo's SVG text. */
export function logoSvg(): string {
  return readFileSync(LOGO_FILE, 'utf8');
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
