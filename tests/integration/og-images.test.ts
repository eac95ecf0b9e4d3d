/**
 * Open Graph images through the local runtime over a socket, as `npm start` serves them: a page's
 * og:image names its own card (absolute, with its size), which the og-image function draws on the
 * first request as a 1200×630 PNG (read back with sharp); the site-wide image stays a static file;
 * a revalidation is 304, an unknown page 404 and a query string a redirect, none of them a drawing.
 */
import type { Server } from 'node:http';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve } from '../../scripts/runtime/index.ts';
import { OG_HEIGHT_PX, OG_WIDTH_PX } from '../../src/core/publish/og-card.ts';
import { TEST_ORIGIN } from '../support/origin.ts';
import { sitemapPaths, useRuntime } from '../support/runtime.ts';

const site = useRuntime();

/** The content of `<meta property="…">` in a page. */
const meta = (html: string, property: string): string | undefined =>
  new RegExp(`<meta property="${property}" content="([^"]*)"`).exec(html)?.[1];

describe('Open Graph images on demand', () => {
  let server: Server;
  let base: string;
  let pages: string[];
  beforeAll(async () => {
    ({ server, url: base } = await serve(site.runtime, 0));
    pages = sitemapPaths(await (await site.fetchPath('/sitemap.xml')).text());
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  /** The og:image path of a page, checked to be absolute on the site's origin and to state the card's size. */
  async function ogImageOf(pagePath: string): Promise<string> {
    const html = await (await fetch(new URL(pagePath, base), { headers: { accept: 'text/html' } })).text();
    const image = meta(html, 'og:image');
    expect(image?.startsWith(`${TEST_ORIGIN}/og/`), `${pagePath}: og:image ${image}`).toBe(true);
    expect([meta(html, 'og:image:width'), meta(html, 'og:image:height')]).toEqual([String(OG_WIDTH_PX), String(OG_HEIGHT_PX)]);
    return new URL(image!).pathname;
  }

  it.each([
    ['an English article', (p: string) => /^\/blog\/[^/]+$/.test(p) && !p.endsWith('-zh')],
    ['a Chinese page', (p: string) => p.startsWith('/zh/')],
    ['a tag page', (p: string) => p.includes('/tag/')],
  ])('%s names its own card, which the function draws as a 1200×630 PNG', async (_, pick) => {
    const page = pages.find(pick);
    expect(page).toBeDefined();
    const image = await ogImageOf(page!);
    expect(image).not.toBe('/og/index.png');
    const res = await fetch(new URL(image, base));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('netlify-cdn-cache-control')).toMatch(/^public, durable, max-age=\d{7,}$/);
    const { format, width, height } = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect({ format, width, height }).toEqual({ format: 'png', width: OG_WIDTH_PX, height: OG_HEIGHT_PX });

    const again = await fetch(new URL(image, base), { headers: { 'if-none-match': res.headers.get('etag')! } });
    expect(again.status).toBe(304);
    const head = await fetch(new URL(image, base), { method: 'HEAD' });
    expect([head.status, head.headers.get('content-type')]).toEqual([200, 'image/png']);
  });

  it('serves the site-wide image as the build’s static file', async () => {
    expect(await ogImageOf('/')).toBe('/og/index.png');
    const res = await fetch(new URL('/og/index.png', base));
    expect(res.status).toBe(200);
    expect(res.headers.get('netlify-cdn-cache-control')).toBeNull();
    const { width, height } = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect([width, height]).toEqual([OG_WIDTH_PX, OG_HEIGHT_PX]);
  });

  it('answers an unknown page 404, a query string 301 to the image, a POST 405', async () => {
    const image = await ogImageOf(pages.find((p) => /^\/blog\/[^/]+$/.test(p))!);
    const unknown = await fetch(new URL('/og/blog/no-such-article.png', base));
    expect([unknown.status, unknown.headers.get('content-type')]).toEqual([404, 'application/problem+json']);
    const query = await fetch(new URL(`${image}?v=2`, base), { redirect: 'manual' });
    expect([query.status, query.headers.get('location')]).toEqual([301, image]);
    // The edge function (netlify/edge-functions/negotiate.ts) refuses writes to any non-function path first.
    const post = await fetch(new URL(image, base), { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toMatch(/^GET, HEAD\b/);
  });
});
