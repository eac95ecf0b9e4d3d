/** The Accept table through the real edge function: which variant each client gets. */
import { describe, expect, it } from 'vitest';
import { TEST_ORIGIN } from '../support/origin.ts';
import { useRuntime } from '../support/runtime.ts';

const site = useRuntime();
const PAGE = '/products';

const CHROME =
  'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7';
const SAFARI = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

const TABLE: [name: string, accept: string | null, status: number, type: string][] = [
  ['no Accept', null, 200, 'text/html; charset=utf-8'],
  ['Chrome', CHROME, 200, 'text/html; charset=utf-8'],
  ['Safari/Firefox', SAFARI, 200, 'text/html; charset=utf-8'],
  ['curl default */*', '*/*', 200, 'text/html; charset=utf-8'],
  ['text/markdown', 'text/markdown', 200, 'text/markdown; charset=utf-8'],
  ['markdown first, html lower', 'text/markdown, text/html;q=0.8', 200, 'text/markdown; charset=utf-8'],
  ['html refused', 'text/html;q=0, text/markdown', 200, 'text/markdown; charset=utf-8'],
  ['html preferred by q', 'text/markdown;q=0.5, text/html', 200, 'text/html; charset=utf-8'],
  ['agent style list', 'text/markdown, text/plain, */*', 200, 'text/markdown; charset=utf-8'],
  ['plain text', 'text/plain', 200, 'text/plain; charset=utf-8'],
  ['application/json', 'application/json', 406, 'application/problem+json'],
  ['everything refused', 'text/html;q=0, text/markdown;q=0, text/plain;q=0, */*;q=0', 406, 'application/problem+json'],
];

describe('Accept negotiation on a page URL', () => {
  it.each(TABLE)('%s', async (_name, accept, status, type) => {
    for (const method of ['GET', 'HEAD'] as const) {
      const res = await site.fetchPath(PAGE, { method, headers: accept === null ? {} : { accept } });
      expect(res.status, method).toBe(status);
      expect(res.headers.get('content-type'), method).toBe(type);
      expect(res.headers.get('vary'), method).toMatch(/\baccept\b/i);
      const body = await res.text();
      if (method === 'HEAD') {
        expect(body).toBe('');
        continue;
      }
      if (type.startsWith('text/markdown') || type.startsWith('text/plain')) {
        expect(body).toMatch(/^---\ntitle: "/);
        expect(body).toContain(`\n---\n\n> Index of this site for agents: ${TEST_ORIGIN}/llms.txt\n\n# Products`);
        expect(Number(res.headers.get('x-markdown-tokens'))).toBe(Math.ceil(body.length / 4));
      } else if (status === 406) {
        expect(JSON.parse(body).available).toEqual(['text/html', 'text/markdown', 'text/plain']);
      } else {
        expect(body.toLowerCase()).toContain('<!doctype html>');
      }
    }
  });

  it('negotiates the home page and trailing-slash paths too', async () => {
    const home = await site.fetchPath('/', { headers: { accept: 'text/markdown' } });
    expect(home.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    const homeLines = (await home.text()).split('\n');
    expect(homeLines[0]).toBe('---');
    const afterFrontMatter = homeLines.indexOf('---', 1) + 2;
    expect(homeLines.slice(afterFrontMatter, afterFrontMatter + 3)).toEqual([
      `> Index of this site for agents: ${TEST_ORIGIN}/llms.txt`,
      '',
      expect.stringMatching(/^# /),
    ]);
    const slash = await site.fetchPath('/blog/', { headers: { accept: 'text/markdown' } });
    expect(slash.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
  });

  it('leaves files alone whatever the Accept header', async () => {
    const res = await site.fetchPath('/robots.txt', { headers: { accept: 'application/json' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
  });
});

describe('behind the edge function', () => {
  it("a redirect rule keeps the request's query (the edge reads the build with it: /en/search?q=… → /search?q=…)", async () => {
    for (const [from, to] of [
      ['/en/search?q=gateway&lang=en', '/search?q=gateway&lang=en'],
      ['/en/products?utm_source=x', '/products?utm_source=x'],
    ] as const) {
      const res = await site.fetchPath(from, { redirect: 'manual' });
      expect(res.status, from).toBe(301);
      const location = new URL(res.headers.get('location')!, TEST_ORIGIN);
      expect(`${location.pathname}${location.search}`, from).toBe(to);
    }
  });

  it('a page answers its revalidation with 304, per variant', async () => {
    for (const accept of ['text/html', 'text/markdown']) {
      const first = await site.fetchPath('/products', { headers: { accept } });
      const etag = first.headers.get('etag');
      expect(etag, accept).toBeTruthy();
      const again = await site.fetchPath('/products', { headers: { accept, 'if-none-match': etag! } });
      expect(again.status, accept).toBe(304);
    }
  });
});
