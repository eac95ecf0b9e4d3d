/** The edge function's routing (page-edge.ts), in-process over a small static build: path × method × Accept → answer. */
import { describe, expect, it } from 'vitest';
import { strongEtag } from '../kernel/document.ts';
import { answerAtEdge } from './page-edge.ts';

const ORIGIN = 'https://site.example';
/** A static build: a page with its twin, a page without one, a discovery document, an asset; anything else is the CDN's 404 page. */
const FILES: Record<string, [string, string]> = {
  '/about': ['text/html; charset=utf-8', '<!doctype html><title>About</title>'],
  '/about.md': ['text/markdown; charset=utf-8', '# About\n'],
  '/contact': ['text/html; charset=utf-8', '<!doctype html><title>Contact</title>'],
  '/llms.txt': ['text/plain; charset=utf-8', '# Site\n'],
  '/favicon.svg': ['image/svg+xml', '<svg/>'],
  '/404': ['text/html; charset=utf-8', '<!doctype html><title>Page not found</title>'],
  '/zh/404': ['text/html; charset=utf-8', '<!doctype html><title>找不到页面</title>'],
};
const reads: string[] = [];
const readStatic = async (path: string): Promise<Response> => {
  reads.push(path);
  const file = FILES[path];
  return file
    ? new Response(file[1], { headers: { 'content-type': file[0] } })
    : new Response('<!doctype html><title>Not found</title>', { status: 404, headers: { 'content-type': 'text/html' } });
};
const answer = (path: string, method = 'GET', headers: Record<string, string> = {}) =>
  answerAtEdge(new Request(ORIGIN + path, { method, headers, body: ['POST', 'PUT', 'PATCH'].includes(method) ? 'x=1' : null }), readStatic);

const HTML = 'text/html; charset=utf-8';
const MARKDOWN = 'text/markdown; charset=utf-8';
const PROBLEM = 'application/problem+json';
/** A negotiated page's 200 and 304: it varies by Accept, and the CDN compresses it (kernel/document.ts). */
const ACCEPT_AND_CODING = 'Accept, Accept-Encoding';

describe('answerAtEdge', () => {
  it.each<[string, string, string | null, number | 'passed on', string | null, string | null]>([
    // path, method, Accept → status, content type, Vary
    ['/about', 'GET', null, 200, HTML, ACCEPT_AND_CODING],
    ['/about', 'GET', 'text/html,*/*;q=0.8', 200, HTML, ACCEPT_AND_CODING],
    ['/about', 'GET', 'text/markdown', 200, MARKDOWN, ACCEPT_AND_CODING],
    ['/about', 'GET', 'text/plain', 200, 'text/plain; charset=utf-8', ACCEPT_AND_CODING],
    ['/about', 'GET', 'image/png', 406, PROBLEM, 'Accept'],
    ['/about', 'HEAD', 'text/markdown', 200, MARKDOWN, ACCEPT_AND_CODING],
    ['/about.md', 'GET', null, 200, MARKDOWN, 'Accept-Encoding'],
    ['/contact', 'GET', 'text/markdown', 406, PROBLEM, 'Accept'],
    ['/nope', 'GET', null, 404, 'text/html', 'Accept'],
    ['/nope', 'GET', 'text/markdown', 404, MARKDOWN, 'Accept'],
    ['/nope.md', 'GET', null, 404, MARKDOWN, 'Accept'],
    ['/llms.txt', 'GET', null, 200, 'text/plain; charset=utf-8', 'Accept-Encoding'],
    ['/llms.txt', 'HEAD', null, 200, 'text/plain; charset=utf-8', 'Accept-Encoding'],
    ['/favicon.svg', 'GET', null, 'passed on', null, null],
    ['/favicon.svg', 'HEAD', null, 200, 'image/svg+xml', null],
    ['/about', 'OPTIONS', null, 204, null, null],
    ['/favicon.svg', 'OPTIONS', null, 204, null, null],
    ['/llms.txt', 'OPTIONS', null, 204, null, null],
    ['/about', 'POST', null, 405, PROBLEM, null],
    ['/favicon.svg', 'PUT', null, 405, PROBLEM, null],
    ['/llms.txt', 'DELETE', null, 405, PROBLEM, null],
    ['/llms.txt', 'PATCH', null, 405, PROBLEM, null],
    ['/blog/%ZZ', 'GET', null, 400, HTML, 'Accept'],
    ['/blog/%ZZ', 'GET', 'text/html,*/*;q=0.8', 400, HTML, 'Accept'],
    ['/blog/%ZZ', 'GET', 'text/markdown', 400, MARKDOWN, 'Accept'],
    ['/blog/%ZZ', 'GET', 'text/plain', 400, 'text/plain; charset=utf-8', 'Accept'],
    ['/blog/%ZZ.md', 'GET', null, 400, MARKDOWN, 'Accept'],
    ['/%E0%A4%A', 'HEAD', null, 400, HTML, 'Accept'],
    ['/blog/%ZZ', 'POST', null, 405, PROBLEM, null],
  ])('%s %s (Accept %s) → %s %s, Vary %s', async (path, method, accept, status, type, vary) => {
    const res = await answer(path, method, accept ? { accept } : {});
    if (status === 'passed on') return expect(res).toBeUndefined();
    expect(res?.status).toBe(status);
    expect(res?.headers.get('content-type')).toBe(type);
    expect(res?.headers.get('vary')).toBe(vary);
    if (status === 204 || status === 405) expect(res?.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });

  it('a page in every variant, its twin, its 304 and its 404 are readable from any origin, as the text files are', async () => {
    const origin = { origin: 'https://agent.example' };
    const twin = await answer('/about.md', 'GET', origin);
    const answers = [
      twin,
      await answer('/about', 'GET', { ...origin, accept: 'text/markdown' }),
      await answer('/about', 'GET', { ...origin, accept: 'text/plain' }),
      await answer('/about', 'GET', origin),
      await answer('/about', 'HEAD', { ...origin, accept: 'text/markdown' }),
      await answer('/about.md', 'GET', { ...origin, 'if-none-match': twin!.headers.get('etag')! }),
      await answer('/nope.md', 'GET', origin),
      await answer('/blog/%ZZ.md', 'GET', origin),
    ];
    expect(answers.map((res) => res?.status)).toEqual([200, 200, 200, 200, 200, 304, 404, 400]);
    for (const res of answers) {
      expect(res?.headers.get('access-control-allow-origin')).toBe('*');
      expect(res?.headers.get('access-control-expose-headers')).toContain('ETag');
    }
    // The HTML error pages are for browsers (the CDN's own 404 page): no CORS.
    for (const path of ['/nope', '/blog/%ZZ']) {
      const page = await answer(path, 'GET', origin);
      expect([page?.status, page?.headers.get('access-control-allow-origin')], path).toEqual([path === '/nope' ? 404 : 400, null]);
    }
    // If-None-Match is not CORS-safelisted: the preflight allows it, as for /llms.txt.
    const pre = await answer('/about.md', 'OPTIONS', {
      ...origin,
      'access-control-request-method': 'GET',
      'access-control-request-headers': 'if-none-match',
    });
    expect([pre?.status, pre?.headers.get('access-control-allow-origin')]).toEqual([204, '*']);
    expect(pre?.headers.get('access-control-allow-headers')).toContain('If-None-Match');
  });

  it('HTML pages link their twin and the discovery documents', async () => {
    const link = (await answer('/about'))?.headers.get('link') ?? '';
    expect(link).toContain('</about.md>; rel="alternate"; type="text/markdown"');
    expect(link).toContain('</llms.txt>');
  });

  it('a static discovery document: a CORS preflight for If-None-Match, CORS on its answers, an ETag and 304', async () => {
    const pre = await answer('/llms.txt', 'OPTIONS', {
      origin: 'https://agent.example',
      'access-control-request-method': 'GET',
      'access-control-request-headers': 'if-none-match',
    });
    expect(pre?.headers.get('access-control-allow-origin')).toBe('*');
    expect(pre?.headers.get('access-control-allow-headers')).toContain('If-None-Match');
    const res = await answer('/llms.txt');
    const etag = await strongEtag('# Site\n');
    expect(res?.headers.get('etag')).toBe(etag);
    expect(res?.headers.get('access-control-allow-origin')).toBe('*');
    const again = await answer('/llms.txt', 'GET', { 'if-none-match': etag });
    expect(again?.status).toBe(304);
    expect([res?.headers.get('vary'), again?.headers.get('vary')]).toEqual(['Accept-Encoding', 'Accept-Encoding']);
    expect(await again?.text()).toBe('');
  });

  it('a page: an ETag per variant (HTML, markdown, plain text) and a 304 when the client holds that variant', async () => {
    const tags = new Map<string, string>();
    for (const accept of ['text/html', 'text/markdown', 'text/plain']) {
      const res = await answer('/about', 'GET', { accept });
      const etag = res?.headers.get('etag');
      expect(etag, accept).toMatch(/^"[^"]+"$/);
      tags.set(accept, etag!);
      const again = await answer('/about', 'GET', { accept, 'if-none-match': etag! });
      expect(again?.status, accept).toBe(304);
      expect(await again?.text()).toBe('');
      // RFC 9110 §15.4.5: the 304 carries the Vary the 200 has.
      expect(res?.headers.get('vary')).toBe(ACCEPT_AND_CODING);
      expect(again?.headers.get('vary')).toBe(res?.headers.get('vary'));
      // A weak copy (a compressing CDN's) revalidates too; another variant's tag does not.
      expect((await answer('/about', 'GET', { accept, 'if-none-match': `W/${etag}` }))?.status).toBe(304);
    }
    expect(new Set(tags.values()).size).toBe(3);
    expect((await answer('/about', 'GET', { accept: 'text/html', 'if-none-match': tags.get('text/markdown')! }))?.status).toBe(200);
    // A missing page is never a 304.
    expect((await answer('/nope', 'GET', { 'if-none-match': '*' }))?.status).toBe(404);
  });

  it('a preflight or a write never reads the build', async () => {
    reads.length = 0;
    await answer('/about', 'OPTIONS');
    await answer('/about', 'POST');
    await answer('/llms.txt', 'PUT');
    expect(reads).toEqual([]);
  });

  it('an address with a malformed percent-escape: 400 in the site’s error page of its chrome, or text for an agent, never cached', async () => {
    const en = await answer('/blog/%ZZ');
    expect(en?.status).toBe(400);
    expect(await en?.text()).toContain('<title>Page not found</title>');
    expect(en?.headers.get('cache-control')).toBe('no-store');
    const zh = await answer('/zh/blog/%E7%A7');
    expect(zh?.status).toBe(400);
    expect(await zh?.text()).toContain('<title>找不到页面</title>');
    const md = await answer('/blog/%ZZ', 'GET', { accept: 'text/markdown' });
    expect(await md?.text()).toMatch(/^# Bad request\n\nThe address `\/blog\/%ZZ` is not a valid URL/);
    const zhMd = await answer('/zh/blog/%E7%A7', 'GET', { accept: 'text/markdown' });
    expect(await zhMd?.text()).toMatch(/^# 请求有误\n\n地址 `\/zh\/blog\/%E7%A7` 不是有效的 URL/);
    expect(md?.headers.get('cache-control')).toBe('no-store');
    // A validator never turns the error into a 304.
    expect((await answer('/blog/%ZZ', 'GET', { 'if-none-match': '*' }))?.status).toBe(400);
  });
});
