/**
 * Open Graph images (1200×630 PNG) drawn at build time: satori lays out the card and turns every
 * glyph into an SVG path, sharp (already Astro's image library) rasterises it. Glyphs come from
 * Noto Sans SC in @fontsource/noto-sans-sc: only the unicode-range subsets a card's text needs are
 * read, so a card costs a few font files, not the whole CJK font; no system font is involved, so a
 * build machine without Chinese fonts draws the same image.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import satori from 'satori';
import sharp from 'sharp';
import { parseBuildConfig } from '../core/config.ts';

/** OG_IMAGES=off draws only the site-wide image (for very large corpora: about 0.1 s per image). */
export const OG_IMAGES_ENABLED = parseBuildConfig(process.env).ogImages;
export const OG_WIDTH = 1200;
export const OG_HEIGHT = 630;

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

/** The font subsets (both weights) that cover every character of `text`; Latin always. */
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
  const fonts = [];
  // One family name per subset: satori looks a glyph up along the font-family list, not among
  // same-named fonts, so the card's fontFamily lists every subset.
  for (const key of needed)
    for (const weight of WEIGHTS)
      fonts.push({ name: `Noto Sans SC ${key}`, data: await fontFile(key, weight), weight, style: 'normal' as const });
  return fonts;
}

export interface OgCard {
  title: string;
  /** The line above the title: a category, "Product", "Blog". */
  kicker: string;
  /** Brand name shown in the corner. */
  brand: string;
  /** Host shown at the bottom, e.g. acme-ai.example. */
  host: string;
  lang: 'zh' | 'en';
}

type Node = { type: string; props: Record<string, unknown> };
const el = (type: string, style: Record<string, unknown>, children?: unknown): Node => ({ type, props: { style, children } });

/** Title size that keeps long titles within three lines. */
function titleSize(title: string, lang: 'zh' | 'en'): number {
  const units = [...title].reduce((n, c) => n + (c.codePointAt(0)! > 0x2e80 ? 2 : 1), 0);
  if (units <= 40) return 68;
  if (units <= 70) return 58;
  if (units <= 100) return 50;
  return lang === 'zh' ? 44 : 42;
}

/** The card as a PNG. */
export async function renderOgImage(card: OgCard): Promise<Buffer> {
  const title = [...card.title].length > 140 ? `${[...card.title].slice(0, 138).join('')}…` : card.title;
  const tree = el(
    'div',
    {
      width: '100%',
      height: '100%',
      display: 'flex',
      flexDirection: 'column',
      justifyContent: 'space-between',
      padding: '64px 72px',
      color: '#f4f6fb',
      backgroundColor: '#0f172a',
      backgroundImage: 'linear-gradient(135deg, #0f172a 0%, #172554 60%, #1d4ed8 130%)',
      fontFamily: 'Noto Sans SC',
    },
    [
      el('div', { display: 'flex', alignItems: 'center', gap: '18px' }, [
        el(
          'div',
          {
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'center',
            width: '56px',
            height: '56px',
            borderRadius: '12px',
            backgroundColor: '#1d4ed8',
            border: '2px solid #3b82f6',
            fontSize: '34px',
            fontWeight: 700,
          },
          'A',
        ),
        el('div', { fontSize: '34px', fontWeight: 700, letterSpacing: '-0.01em' }, card.brand),
      ]),
      el('div', { display: 'flex', flexDirection: 'column', gap: '22px' }, [
        el('div', { display: 'flex' }, [
          el(
            'div',
            {
              fontSize: '26px',
              fontWeight: 700,
              color: '#bfdbfe',
              backgroundColor: 'rgba(59,130,246,0.25)',
              border: '1px solid rgba(147,197,253,0.5)',
              borderRadius: '999px',
              padding: '6px 20px',
            },
            card.kicker,
          ),
        ]),
        el(
          'div',
          {
            fontSize: `${titleSize(title, card.lang)}px`,
            fontWeight: 700,
            lineHeight: 1.25,
            letterSpacing: card.lang === 'zh' ? '0' : '-0.02em',
            maxWidth: '1050px',
          },
          title,
        ),
      ]),
      el('div', { display: 'flex', justifyContent: 'space-between', fontSize: '24px', color: '#94a3b8' }, [
        el('div', {}, card.host),
        el('div', {}, card.lang === 'zh' ? '中文' : 'English'),
      ]),
    ],
  );
  const fonts = await fontsFor(`${card.title}${card.kicker}${card.brand}${card.host}中文English`);
  (tree.props.style as Record<string, unknown>).fontFamily = [...new Set(fonts.map((f) => `"${f.name}"`))].join(', ');
  const svg = await satori(tree as Parameters<typeof satori>[0], { width: OG_WIDTH, height: OG_HEIGHT, fonts });
  return sharp(Buffer.from(svg)).png({ compressionLevel: 9, palette: false }).toBuffer();
}
