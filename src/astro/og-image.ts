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

/** OG_IMAGES=off draws only the site-wide image (for very large corpora: a card's cold cost is in BENCHMARKS.md, "Build"). */
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

/** Heights of the card's top row (the brand mark) and bottom row (host, language): fixed, so the frame and the text layer line up. */
const TOP_ROW_PX = 56;
const BOTTOM_ROW_PX = 34;
const CARD_STYLE = {
  width: '100%',
  height: '100%',
  display: 'flex',
  flexDirection: 'column',
  justifyContent: 'space-between',
  padding: '64px 72px',
  color: '#f4f6fb',
} as const;

/** The card without its kicker and title: background, brand, host and language, the same for every page of a language. */
function frameTree(card: OgCard): Node {
  return el(
    'div',
    { ...CARD_STYLE, backgroundColor: '#0f172a', backgroundImage: 'linear-gradient(135deg, #0f172a 0%, #172554 60%, #1d4ed8 130%)' },
    [
      el('div', { display: 'flex', alignItems: 'center', gap: '18px', height: `${TOP_ROW_PX}px` }, [
        el(
          'div',
          {
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'center',
            width: `${TOP_ROW_PX}px`,
            height: `${TOP_ROW_PX}px`,
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
      el('div', { display: 'flex' }),
      el(
        'div',
        {
          display: 'flex',
          justifyContent: 'space-between',
          alignItems: 'center',
          height: `${BOTTOM_ROW_PX}px`,
          fontSize: '24px',
          color: '#94a3b8',
        },
        [el('div', {}, card.host), el('div', {}, card.lang === 'zh' ? '中文' : 'English')],
      ),
    ],
  );
}

/** The page's own part of the card, on a transparent canvas laid out like {@link frameTree}: the kicker and the title. */
function textTree(card: OgCard, title: string): Node {
  return el('div', CARD_STYLE, [
    el('div', { display: 'flex', height: `${TOP_ROW_PX}px` }),
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
    el('div', { display: 'flex', height: `${BOTTOM_ROW_PX}px` }),
  ]);
}

/** Lays out `tree` with satori: every glyph becomes an SVG path, from fonts covering `text`. */
async function drawSvg(tree: Node, text: string): Promise<string> {
  const fonts = await fontsFor(text);
  (tree.props.style as Record<string, unknown>).fontFamily = [...new Set(fonts.map((f) => `"${f.name}"`))].join(', ');
  return satori(tree as Parameters<typeof satori>[0], { width: OG_WIDTH, height: OG_HEIGHT, fonts });
}

/** An RGB raster of the card's size. */
interface Raster {
  data: Buffer;
  width: number;
  height: number;
}

/**
 * The frame of each language, brand and host, rasterised once per build: its gradient alone costs
 * as much to rasterise as a whole card's text (BENCHMARKS.md, "Build").
 */
const frames = new Map<string, Promise<Raster>>();
function frameOf(card: OgCard): Promise<Raster> {
  const key = JSON.stringify([card.lang, card.brand, card.host]);
  let frame = frames.get(key);
  if (!frame) {
    frame = drawSvg(frameTree(card), `${card.brand}${card.host}中文English`)
      .then((svg) => sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer({ resolveWithObject: true }))
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

/** The card as a PNG: the page's kicker and title drawn over its language's frame. */
export async function renderOgImage(card: OgCard): Promise<Buffer> {
  const title = [...card.title].length > 140 ? `${[...card.title].slice(0, 138).join('')}…` : card.title;
  const [frame, text] = await Promise.all([frameOf(card), drawSvg(textTree(card, title), `${title}${card.kicker}`)]);
  const layer = await sharp(Buffer.from(text)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  if (layer.info.width !== frame.width || layer.info.height !== frame.height || layer.info.channels !== 4)
    throw new Error(
      `og-image: text layer ${layer.info.width}×${layer.info.height}×${layer.info.channels}, frame ${frame.width}×${frame.height}`,
    );
  return sharp(over(frame, layer.data), { raw: { width: frame.width, height: frame.height, channels: 3 } })
    .png({ compressionLevel: PNG_COMPRESSION_LEVEL, palette: false })
    .toBuffer();
}
