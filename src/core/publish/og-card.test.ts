import { describe, expect, it, vi } from 'vitest';
import { FIXTURE_CATALOG } from '../../../tests/support/core-fixtures.ts';
import { httpHandler } from '../kernel/handler.ts';
import { paths } from '../kernel/paths.ts';
import { PROBLEM_ERRORS } from '../kernel/problem.ts';
import {
  OG_CDN_MAX_AGE_SECONDS,
  OG_MAX_DRAWS_IN_FLIGHT,
  OG_MAX_DRAWS_WAITING,
  OG_TITLE_MAX_CHARS,
  type OgCard,
  type OgCardText,
  ogCardTexts,
  ogImageHandler,
  ogTextTree,
  ogTitle,
  parseOgCards,
  serializeOgCards,
} from './og-card.ts';
import { sitePages } from './pages.ts';

const ORIGIN = FIXTURE_CATALOG.origin;
const pages = sitePages(FIXTURE_CATALOG);
const texts = ogCardTexts(FIXTURE_CATALOG, pages);
const article = FIXTURE_CATALOG.articles[0]!;
const articleImage = paths.ogImage(article.path);

/** The function's handler over the fixture's cards, with a stand-in rasteriser that records what it draws. */
function fixture(options: { draw?: (card: OgCard) => Promise<Uint8Array>; buildId?: string; texts?: Map<string, OgCardText> } = {}) {
  const drawn: OgCard[] = [];
  const cards = parseOgCards(serializeOgCards(options.texts ?? texts));
  const handle = ogImageHandler({
    cards: () => cards,
    site: FIXTURE_CATALOG,
    draw:
      options.draw ??
      (async (card) => {
        drawn.push(card);
        return new Uint8Array([0x89, 0x50, 0x4e, 0x47, drawn.length]);
      }),
    buildId: options.buildId ?? 'commit-1',
  });
  const fetch = httpHandler(handle, { errors: PROBLEM_ERRORS });
  return { drawn, fetch: (path: string, init?: RequestInit) => fetch(new Request(new URL(path, ORIGIN), init)) };
}

describe('ogCardTexts', () => {
  it('has a card for every page of the registry, at its image path', () => {
    expect([...texts.keys()].sort()).toEqual(pages.map((p) => paths.ogImage(p.path)).sort());
  });

  it('titles a document with its title and its category as the kicker; the home page with the tagline', () => {
    expect(texts.get(articleImage)).toMatchObject({ title: article.title, lang: article.lang });
    expect(texts.get(articleImage)!.kicker).not.toBe('');
    expect(texts.get(paths.ogImage(paths.home))!.title).toBe(FIXTURE_CATALOG.company.tagline);
  });
});

describe('ogTitle', () => {
  it('keeps a title of the maximum length and cuts a longer one to the maximum with an ellipsis', () => {
    const max = '字'.repeat(OG_TITLE_MAX_CHARS);
    expect(ogTitle(max)).toBe(max);
    const cut = ogTitle(`${max}x`);
    expect([...cut]).toHaveLength(OG_TITLE_MAX_CHARS - 1);
    expect(cut.endsWith('…')).toBe(true);
    expect(JSON.stringify(ogTextTree({ title: `${max}x`, kicker: 'k', lang: 'zh' }))).toContain(cut);
  });
});

describe('parseOgCards', () => {
  it('reads back what serializeOgCards wrote, keyed by the percent-encoded path a browser requests', () => {
    const cards = parseOgCards(serializeOgCards(new Map([['/og/blog/tag/中文.png', { title: 'T', kicker: 'K', lang: 'zh' as const }]])));
    expect([...cards.keys()]).toEqual(['/og/blog/tag/%E4%B8%AD%E6%96%87.png']);
  });

  it.each(['{}', '[["/og/x.png","t","k"]]', '[["/og/x.png","t","k","fr"]]', '[[1,"t","k","en"]]'])('refuses %s', (text) => {
    expect(() => parseOgCards(text)).toThrow(/og cards/);
  });
});

describe('GET /og/<page>.png', () => {
  it('draws the page’s card once per instance, a PNG with long CDN caching and an ETag', async () => {
    const f = fixture();
    const res = await f.fetch(articleImage);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(res.headers.get('netlify-cdn-cache-control')).toBe(`public, durable, max-age=${OG_CDN_MAX_AGE_SECONDS}`);
    expect(res.headers.get('etag')).toMatch(/^"[\w-]{22}"$/);
    expect(f.drawn).toEqual([
      {
        title: article.title,
        kicker: texts.get(articleImage)!.kicker,
        lang: article.lang,
        brand:
          article.lang === 'zh' ? `${FIXTURE_CATALOG.company.name_zh} · ${FIXTURE_CATALOG.company.name}` : FIXTURE_CATALOG.company.name,
        host: new URL(ORIGIN).host,
      },
    ]);
  });

  it('answers HEAD like GET', async () => {
    const res = await fixture().fetch(articleImage, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
  });

  it('answers If-None-Match with 304 without drawing', async () => {
    const f = fixture();
    const etag = (await f.fetch(articleImage)).headers.get('etag')!;
    const again = await f.fetch(articleImage, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    expect(f.drawn).toHaveLength(1);
    expect((await fixture().fetch(articleImage, { headers: { 'if-none-match': `W/${etag}` } })).status).toBe(304);
  });

  it('changes the ETag with the build (the layout is code) and with the card’s text', async () => {
    const etag = async (buildId: string, path: string) => (await fixture({ buildId }).fetch(path)).headers.get('etag');
    expect(await etag('commit-1', articleImage)).toBe(await etag('commit-1', articleImage));
    expect(await etag('commit-1', articleImage)).not.toBe(await etag('commit-2', articleImage));
    expect(await etag('commit-1', articleImage)).not.toBe(await etag('commit-1', paths.ogImage(FIXTURE_CATALOG.articles[1]!.path)));
  });

  it('after a deploy that changed a title, draws the new title under a new ETag (a browser’s old copy is not revalidated)', async () => {
    const before = fixture();
    const oldEtag = (await before.fetch(articleImage)).headers.get('etag')!;
    const renamed = new Map(texts).set(articleImage, { ...texts.get(articleImage)!, title: 'A new title' });
    const after = fixture({ texts: renamed });
    const res = await after.fetch(articleImage, { headers: { 'if-none-match': oldEtag } });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).not.toBe(oldEtag);
    expect(after.drawn.map((card) => card.title)).toEqual(['A new title']);
  });

  it.each([
    ['/og/blog/no-such-article.png', 'an unknown page'],
    [articleImage.toUpperCase(), 'another case'],
    [articleImage.replace('/og/', '/og//'), 'a doubled slash'],
    [`${articleImage}/`, 'a trailing slash'],
    [articleImage.replace(/\.png$/, '.PNG'), 'another extension case'],
    [articleImage.replace(/\.png$/, ''), 'no extension'],
    [articleImage.replace(/^\/og\/(.)/, (_, c: string) => `/og/%${c.charCodeAt(0).toString(16)}`), 'a percent-encoded letter'],
    ['/og/', 'the folder'],
  ])('answers %s (%s) 404 without drawing', async (path) => {
    const f = fixture();
    const res = await f.fetch(path);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(f.drawn).toEqual([]);
  });

  it.each([
    ['a parameter', '?v=2'],
    ['an empty query', '?'],
    ['a long query', `?${'x'.repeat(5000)}`],
  ])('redirects the image with %s to its path without drawing', async (_, query) => {
    const f = fixture();
    const res = await f.fetch(`${articleImage}${query}`);
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe(articleImage);
    expect(f.drawn).toEqual([]);
  });

  it.each(['POST', 'PUT', 'DELETE', 'OPTIONS'])('answers %s with 405 naming GET, HEAD and OPTIONS', async (method) => {
    const f = fixture();
    const res = await f.fetch(articleImage, { method });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(f.drawn).toEqual([]);
  });

  it('draws a card once however many ask at once', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let draws = 0;
    const f = fixture({
      draw: async () => {
        draws++;
        await gate;
        return new Uint8Array([1]);
      },
    });
    const answers = Promise.all(Array.from({ length: 10 }, () => f.fetch(articleImage)));
    // The drawing has started; the other nine reach it while it is held (each hashes its ETag first: give them time).
    await vi.waitFor(() => expect(draws).toBe(1));
    await new Promise((resolve) => setTimeout(resolve, 100));
    release();
    expect((await answers).map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(draws).toBe(1);
  });

  it(`draws at most ${OG_MAX_DRAWS_IN_FLIGHT} different cards at once; the next ${OG_MAX_DRAWS_WAITING} wait their turn, past that 503`, async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let draws = 0;
    let drawingNow = 0;
    let mostAtOnce = 0;
    // One page's text under as many image paths as the test needs.
    const [path0, text0] = [...texts.entries()][0]!;
    const many = new Map(
      Array.from({ length: OG_MAX_DRAWS_IN_FLIGHT + OG_MAX_DRAWS_WAITING + 1 }, (_, i) => [path0.replace(/\.png$/, `-${i}.png`), text0]),
    );
    const f = fixture({
      texts: many,
      draw: async () => {
        draws++;
        mostAtOnce = Math.max(mostAtOnce, ++drawingNow);
        await gate;
        drawingNow--;
        return new Uint8Array([1]);
      },
    });
    const images = [...many.keys()];
    const admitted = images.slice(0, -1).map((image) => f.fetch(image));
    await vi.waitFor(() => expect(draws).toBe(OG_MAX_DRAWS_IN_FLIGHT));
    const refused = await f.fetch(images.at(-1)!);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(draws).toBe(OG_MAX_DRAWS_IN_FLIGHT);
    release();
    expect((await Promise.all(admitted)).map((r) => r.status)).toEqual(Array(images.length - 1).fill(200));
    expect(draws).toBe(images.length - 1);
    expect(mostAtOnce).toBe(OG_MAX_DRAWS_IN_FLIGHT);
    expect((await f.fetch(images.at(-1)!)).status).toBe(200);
  });

  it('a failed draw is a logged 500, and the next request draws again', async () => {
    let calls = 0;
    const f = fixture({
      draw: async () => {
        calls++;
        if (calls === 1) throw new Error('font missing');
        return new Uint8Array([1]);
      },
    });
    const failed = await f.fetch(articleImage);
    expect(failed.status).toBe(500);
    expect((await f.fetch(articleImage)).status).toBe(200);
  });
});
