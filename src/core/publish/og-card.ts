/**
 * Open Graph cards (1200×630): what each page's card says, the card's layout as an element tree
 * (satori's input), the file of every page's card text the build writes for the function, and the
 * function's answer to `GET /og/<page>.png`. Rasterising (satori, sharp, the fonts) is not here: it
 * needs Node (src/astro/og-image.ts, used by the build and by netlify/functions/og-image.mts).
 *
 * Cards are drawn on first request, behind the CDN, not in every cold build: a card costs tens of
 * CPU-ms, most of a cold build's CPU when every page has one (BENCHMARKS.md, "Build"). The CDN keeps
 * an answer until the next deploy, which purges it (docs/build-cache.md, "Open Graph images").
 * @module
 */
import { type Catalog, documentsOf, type Lang } from '../content/catalog.ts';
import { messages } from '../content/i18n.ts';
import { base64url, sha256 } from '../kernel/crypto.ts';
import { noneMatch } from '../kernel/document.ts';
import { paths } from '../kernel/paths.ts';
import type { EdgeOptions } from '../kernel/handler.ts';
import { HttpProblem, notFound, PROBLEM_ERRORS } from '../kernel/problem.ts';
import { requireMethod } from '../kernel/respond.ts';
import { categoryName, type SitePage } from './pages.ts';

export const OG_WIDTH_PX = 1200;
export const OG_HEIGHT_PX = 630;
/** Longer titles are cut with an ellipsis: at the smallest title size three lines hold about this many. */
export const OG_TITLE_MAX_CHARS = 140;

/** A page's own text on its card. */
export interface OgCardText {
  title: string;
  /** The line above the title: a category, "Product", "Blog". */
  kicker: string;
  lang: Lang;
}

/** Everything a card shows. */
export interface OgCard extends OgCardText {
  /** Brand name shown in the corner. */
  brand: string;
  /** Host shown at the bottom, e.g. acme-ai.example. */
  host: string;
}

/** What a card reads from the catalogue besides its page. */
export type OgSiteFacts = Pick<Catalog, 'origin' | 'company'>;

/**
 * The card text of every page, by its image's path ({@link paths.ogImage}). The home page's title is
 * the company's tagline; a document's kicker is its category.
 */
export function ogCardTexts(catalog: Catalog, pages: readonly SitePage[]): Map<string, OgCardText> {
  const docs = new Map(documentsOf(catalog).map((d) => [d.path, d]));
  const kicker = (page: SitePage): string => {
    const t = messages(page.lang);
    const doc = docs.get(page.path);
    if (doc) return categoryName(catalog.categories, doc.category, doc.lang);
    if (page.kind === 'product') return t.navProducts;
    if (page.kind === 'home') return t.home;
    if (page.path.startsWith('/blog/tag/')) return t.tags;
    if (page.path.startsWith('/blog/category/')) return t.category;
    if (page.path === paths.apiDocs || page.path.startsWith(`${paths.apiDocs}/`)) return t.navDevelopers;
    if (page.kind === 'list') return page.path.includes('/blog') ? t.navBlog : page.title;
    return page.lang === 'zh' ? catalog.company.name_zh : catalog.company.name;
  };
  const title = (page: SitePage): string =>
    page.kind !== 'home'
      ? page.title
      : page.lang === 'zh'
        ? (catalog.company.tagline_zh ?? catalog.company.tagline)
        : catalog.company.tagline;
  return new Map(pages.map((page) => [paths.ogImage(page.path), { title: title(page), kicker: kicker(page), lang: page.lang }]));
}

/** The card of a page's text on this site: its brand (both names in Chinese) and host. */
export function ogCardOf(text: OgCardText, site: OgSiteFacts): OgCard {
  const brand = text.lang === 'zh' ? `${site.company.name_zh} · ${site.company.name}` : site.company.name;
  return { ...text, brand, host: new URL(site.origin).host };
}

// ---- Layout -------------------------------------------------------------------------------------------------------

/** satori's element: a type and props with a style and children. */
export interface OgNode {
  type: string;
  props: { style: Record<string, unknown>; children?: unknown };
}
const el = (type: string, style: Record<string, unknown>, children?: unknown): OgNode => ({ type, props: { style, children } });

/** The title as drawn: at most {@link OG_TITLE_MAX_CHARS} characters (code points), else cut with an ellipsis. */
export function ogTitle(title: string): string {
  const chars = [...title];
  return chars.length > OG_TITLE_MAX_CHARS ? `${chars.slice(0, OG_TITLE_MAX_CHARS - 2).join('')}…` : title;
}

/** Title size in px that keeps long titles within three lines (a CJK character counts as two units). */
export function ogTitleSizePx(title: string, lang: Lang): number {
  const units = [...title].reduce((n, c) => n + (c.codePointAt(0)! > 0x2e80 ? 2 : 1), 0);
  if (units <= 40) return 68;
  if (units <= 70) return 58;
  if (units <= 100) return 50;
  return lang === 'zh' ? 44 : 42;
}

/** Heights of the card's top row (the brand mark) and bottom row (host, language): fixed, so the frame and the text layer line up. */
const TOP_ROW_PX = 56;
/**
 * Where the frame leaves room for the logo (public/favicon.svg), which the rasteriser lays over it (src/astro/og-image.ts):
 * the top-left square of the top row, inside the card's padding.
 */
export const OG_LOGO_BOX = { left: 72, top: 64, size: TOP_ROW_PX } as const;
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

/**
 * The card without its kicker and title: background (its gradient ends in the theme colour, `accent`), the room for
 * the logo ({@link OG_LOGO_BOX}), brand, host and language, the same for every page of a language.
 */
export function ogFrameTree(card: Pick<OgCard, 'brand' | 'host' | 'lang'>, accent: string): OgNode {
  return el(
    'div',
    { ...CARD_STYLE, backgroundColor: '#0f172a', backgroundImage: `linear-gradient(135deg, #0f172a 0%, #172554 60%, ${accent} 130%)` },
    [
      el('div', { display: 'flex', alignItems: 'center', gap: '18px', height: `${TOP_ROW_PX}px` }, [
        el('div', { display: 'flex', width: `${OG_LOGO_BOX.size}px`, height: `${OG_LOGO_BOX.size}px` }),
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

/** Every character the frame draws (the fonts it needs). */
export const ogFrameText = (card: Pick<OgCard, 'brand' | 'host'>): string => `${card.brand}${card.host}中文English`;

/**
 * The page's own part of the card, on a transparent canvas laid out like {@link ogFrameTree}: the
 * kicker and the title (already cut by {@link ogTitle}).
 */
export function ogTextTree(card: OgCardText): OgNode {
  const title = ogTitle(card.title);
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
          fontSize: `${ogTitleSizePx(title, card.lang)}px`,
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

/** Every character the text layer draws (the fonts it needs). */
export const ogTextText = (card: OgCardText): string => `${ogTitle(card.title)}${card.kicker}`;

// ---- The build's card file ----------------------------------------------------------------------------------------

/** The file (in generated/data/og/) with every page's card text, which the function reads on its first request. */
export const OG_CARDS_FILE = 'cards.json';

/** The file (in generated/data/og/) with the logo and the theme colour the function draws every card with. */
export const OG_BRAND_FILE = 'brand.json';

/** What every card is drawn with besides its text: the logo's SVG (public/favicon.svg) and the theme colour. */
export interface OgBrand {
  logoSvg: string;
  accent: string;
}

/** The brand file read back. @throws Error when it is not one (a broken build must fail loudly). */
export function parseOgBrand(text: string): OgBrand {
  const brand = JSON.parse(text) as Partial<OgBrand> | null;
  if (typeof brand?.logoSvg !== 'string' || typeof brand.accent !== 'string') throw new Error('og brand: expected {logoSvg, accent}');
  return { logoSvg: brand.logoSvg, accent: brand.accent };
}

/** The card file's contents: `[image path, title, kicker, lang]` per page (arrays: a third of the bytes of objects). */
export function serializeOgCards(cards: ReadonlyMap<string, OgCardText>): string {
  return JSON.stringify([...cards].map(([image, c]) => [image, c.title, c.kicker, c.lang]));
}

/**
 * The card file read back, keyed by the path as a request spells it: the canonical percent-encoded
 * form a browser sends for the og:image URL (a tag page's image may have a Chinese name).
 * @throws Error when the file is not a card file (a broken build must fail loudly, not answer 404).
 */
export function parseOgCards(text: string): Map<string, OgCardText> {
  const rows = JSON.parse(text) as unknown;
  if (!Array.isArray(rows)) throw new Error('og cards: expected an array of [image, title, kicker, lang]');
  const cards = new Map<string, OgCardText>();
  for (const row of rows) {
    if (!Array.isArray(row) || row.length !== 4 || !row.every((v) => typeof v === 'string') || (row[3] !== 'en' && row[3] !== 'zh'))
      throw new Error(`og cards: bad row ${JSON.stringify(row).slice(0, 200)}`);
    const [image, title, kicker, lang] = row as [string, string, string, Lang];
    cards.set(new URL(image, 'http://og.invalid').pathname, { title, kicker, lang });
  }
  return cards;
}

// ---- The function's answer ----------------------------------------------------------------------------------------

/** Browsers keep a card an hour, as the static files under /og/ (netlify.toml), then revalidate with its ETag. */
export const OG_BROWSER_MAX_AGE_SECONDS = 3600;
/**
 * The CDN keeps a card a year, in the durable cache shared by its edge nodes: a deploy purges
 * it, so a changed title is drawn again after the deploy that changed it (docs/build-cache.md).
 */
export const OG_CDN_MAX_AGE_SECONDS = 31_536_000;
/**
 * At most this many different cards are drawn at once by one instance; the next ones wait for a
 * turn, up to {@link OG_MAX_DRAWS_WAITING}, and past that get 503 with Retry-After. A Netlify
 * instance serves one request at a time; the local runtime serves many (a link checker asks for
 * every card of a listing at once, and must not see them refused).
 */
export const OG_MAX_DRAWS_IN_FLIGHT = 4;
/** Different cards that may wait for a turn to be drawn, per instance (bounded memory and delay). */
export const OG_MAX_DRAWS_WAITING = 64;
const RETRY_AFTER_SECONDS = 1;

/** What the answer needs: the card texts, the site, the rasteriser, and what else makes an image differ. */
export interface OgImageDeps {
  /** Every page's card text by request path ({@link parseOgCards}); read once per instance by the adapter. */
  cards: () => ReadonlyMap<string, OgCardText>;
  site: OgSiteFacts;
  /** Draws a card as a PNG. */
  draw: (card: OgCard) => Promise<Uint8Array>;
  /**
   * Names the code and fonts that draw: the deploy's commit. Part of every ETag, so a browser's copy
   * from before a layout change is not revalidated as current.
   */
  buildId: string;
}

const CACHE_HEADERS = {
  'cache-control': `public, max-age=${OG_BROWSER_MAX_AGE_SECONDS}`,
  'netlify-cdn-cache-control': `public, durable, max-age=${OG_CDN_MAX_AGE_SECONDS}`,
} as const;

/** The og-image function's edge: GET and HEAD, problem details, no CORS (a card is fetched by crawlers, not scripts). */
export const OG_IMAGE_EDGE: EdgeOptions = { methods: ['GET'], errors: PROBLEM_ERRORS };

/**
 * `GET /og/<page>.png` (HEAD arrives as GET: kernel/handler.ts): the page's card, drawn on the
 * first request an instance gets for it; the same card drawn once however many ask at once. Costs
 * nothing but a lookup unless the path is exactly a page's image path: an unknown page is 404, a
 * query string a 301 to the path without it, any other method 405; a matching `If-None-Match` is
 * 304 without drawing. Errors are RFC 9457 problems (thrown {@link HttpProblem}s).
 */
export function ogImageHandler(deps: OgImageDeps): (req: Request) => Promise<Response> {
  const drawing = new Map<string, Promise<Uint8Array>>();
  let running = 0;
  const waiting: (() => void)[] = [];
  /** Runs `work` when one of the instance's drawing turns is free (first come, first served). */
  const inTurn = async <T>(work: () => Promise<T>): Promise<T> => {
    if (running < OG_MAX_DRAWS_IN_FLIGHT) running++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await work();
    } finally {
      // The turn passes to the next in line, or is given back.
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
  return async (req) => {
    requireMethod(req, ['GET']);
    const url = new URL(req.url);
    const text = deps.cards().get(url.pathname);
    if (!text) throw notFound(`No page has an Open Graph image at ${url.pathname}.`);
    // An empty query ("x.png?") too: the CDN keys on the URL as sent.
    if (req.url.includes('?')) return new Response(null, { status: 301, headers: { location: url.pathname, ...CACHE_HEADERS } });
    const card = ogCardOf(text, deps.site);
    const etag = `"${base64url((await sha256(JSON.stringify([deps.buildId, card]))).subarray(0, 16))}"`;
    const headers = { ...CACHE_HEADERS, etag };
    if (noneMatch(req.headers.get('if-none-match'), etag)) return new Response(null, { status: 304, headers });
    let png = drawing.get(url.pathname);
    if (!png) {
      if (running >= OG_MAX_DRAWS_IN_FLIGHT && waiting.length >= OG_MAX_DRAWS_WAITING)
        throw new HttpProblem(503, 'Service Unavailable', 'Too many Open Graph images are being drawn; try again shortly.', {
          headers: { 'retry-after': String(RETRY_AFTER_SECONDS) },
        });
      png = inTurn(() => deps.draw(card)).finally(() => drawing.delete(url.pathname));
      drawing.set(url.pathname, png);
    }
    const body = await png;
    return new Response(body as Uint8Array<ArrayBuffer>, { status: 200, headers: { ...headers, 'content-type': 'image/png' } });
  };
}
