import { describe, expect, it } from 'vitest';
import { negotiatePage } from './page-negotiation.ts';

const ORIGIN = 'https://site.example';
/** A static build with one page and its twin; anything else is the CDN's 404 page. */
const FILES: Record<string, [string, string]> = {
  '/about': ['text/html; charset=utf-8', '<!doctype html><title>About</title>'],
  '/about.md': ['text/markdown; charset=utf-8', '# About\n'],
};
const fetchPath = async (path: string) => {
  const file = FILES[path];
  return file
    ? new Response(file[1], { headers: { 'content-type': file[0] } })
    : new Response('<!doctype html><title>Not found</title>', { status: 404, headers: { 'content-type': 'text/html' } });
};
const get = (path: string, accept?: string) => new Request(ORIGIN + path, { headers: accept ? { accept } : {} });

describe('404 for markdown clients', () => {
  it.each<[string, string | undefined, string]>([
    ['/nope', 'text/markdown', 'text/markdown; charset=utf-8'],
    ['/nope', 'text/plain', 'text/plain; charset=utf-8'],
    ['/blog/nope.md', undefined, 'text/markdown; charset=utf-8'],
    ['/blog/nope.md', '*/*', 'text/markdown; charset=utf-8'],
    ['/blog/nope.md', 'text/markdown', 'text/markdown; charset=utf-8'],
  ])('%s with Accept %s is a markdown 404', async (path, accept, type) => {
    const res = (await negotiatePage(get(path, accept), fetchPath))!;
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe(type);
    expect(res.headers.get('vary')).toBe('Accept');
    const body = await res.text();
    expect(body).toMatch(/^# Not found\n/);
    expect(body).toContain('(/llms.txt)');
    expect(body).toContain('(/en/llms.txt)');
    expect(body).toContain('(/zh/llms.txt)');
    expect(body).toContain('(/sitemap.xml)');
    expect(body).toContain('`GET /api/search?q=<words>`');
    expect(body).toContain(`\`${path}\``);
  });

  it.each<[string, string | undefined]>([
    ['/zh/no-such-page.md', undefined],
    ['/zh/no-such-page', 'text/markdown'],
    ['/zh/blog/nope', 'text/plain'],
    ['/zh', 'text/markdown'],
  ])('%s with Accept %s: the Chinese 404 twin, as the HTML 404 page there is Chinese (stranger s10b)', async (path, accept) => {
    const res = (await negotiatePage(get(path, accept), () => fetchPath('/none')))!;
    expect(res.status).toBe(404);
    expect(res.headers.get('content-language')).toBe('zh-CN');
    const body = await res.text();
    expect(body).toMatch(/^# 页面不存在\n\n本站没有 `[^`]+` 这个页面。\n/);
    expect(body).toContain(`\`${path}\``);
    expect(body).not.toContain('Not found');
    // The same places to look, in Chinese; the index links stay the same addresses.
    expect(body).toContain('(/zh/llms.txt)');
    expect(body).toContain('(/sitemap.xml)');
    expect(body).toContain('`GET /api/search?q=<关键词>`');
    expect(body).toContain('[中文首页](/zh)');
  });

  it('an English address keeps the English twin, and says its language', async () => {
    const res = (await negotiatePage(get('/nope', 'text/markdown'), fetchPath))!;
    expect(res.headers.get('content-language')).toBe('en');
    expect(await res.text()).toContain('- [Home](/)');
  });

  it("suggests a search made of the missing path's words", async () => {
    const body = await (await negotiatePage(get('/blog/vllm-on-k8s.md', 'text/markdown'), fetchPath))!.text();
    expect(body).toContain('(/api/search?q=vllm%20on%20k8s)');
    const chinese = await (await negotiatePage(get(`/blog/${encodeURIComponent('私有化部署')}`, 'text/markdown'), fetchPath))!.text();
    expect(chinese).toContain(`(/api/search?q=${encodeURIComponent('私有化部署')})`);
    expect(await (await negotiatePage(get('/%E0%A4%A', 'text/plain'), fetchPath))!.text()).toContain('(/api/search?q=E0%20A4%20A)');
    expect(await (await negotiatePage(get('/', 'text/markdown'), () => fetchPath('/none')))!.text()).toContain('(/api/search?q=agents)');
  });

  it.each<[string, string | undefined]>([
    ['/nope', undefined],
    ['/nope', 'text/html,*/*;q=0.8'],
    ['/blog/nope.md', 'text/html,application/xhtml+xml,*/*;q=0.8'],
  ])('%s with Accept %s keeps the HTML 404 page', async (path, accept) => {
    const res = (await negotiatePage(get(path, accept), fetchPath))!;
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('text/html');
  });

  it('still serves existing pages and twins', async () => {
    expect((await negotiatePage(get('/about', 'text/markdown'), fetchPath))!.status).toBe(200);
    expect((await negotiatePage(get('/about.md'), fetchPath))!.status).toBe(200);
  });
});

/** The Accept headers agents send as they ship (as observed from the clients, late 2026; acceptmarkdown.com/status.md). */
const AGENT_ACCEPT = {
  'Claude Code': 'text/markdown, text/html, */*',
  Cursor: 'text/markdown, text/plain;q=0.9, */*;q=0.8',
} as const;

describe('what coding agents get, with the Accept headers they ship', () => {
  it.each(Object.entries(AGENT_ACCEPT))(
    '%s gets the twin of a page as markdown, and a markdown 404 for a missing one',
    async (_agent, accept) => {
      const page = (await negotiatePage(get('/about', accept), fetchPath))!;
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
      expect(page.headers.get('vary')).toContain('Accept');
      expect(await page.text()).toBe('# About\n');
      const missing = (await negotiatePage(get('/nope', accept), fetchPath))!;
      expect(missing.status).toBe(404);
      expect(missing.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
      expect(await missing.text()).toContain('(/llms.txt)');
      const twin = (await negotiatePage(get('/about.md', accept), fetchPath))!;
      expect(twin.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    },
  );
});
