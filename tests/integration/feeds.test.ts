/** robots.txt, sitemap.xml, llms.txt, llms-full.txt and rss.xml through the real pipeline. */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { TEST_ORIGIN } from '../support/origin.ts';
import { useRuntime } from '../support/runtime.ts';

const site = useRuntime();
const text = async (path: string): Promise<{ res: Response; body: string }> => {
  const res = await site.fetchPath(path);
  return { res, body: await res.text() };
};
const local = (url: string): string => {
  expect(url.startsWith(TEST_ORIGIN), url).toBe(true);
  return url.slice(TEST_ORIGIN.length) || '/';
};

describe('robots.txt', () => {
  it('grants Content Signals, names AI crawlers, states attribution and points at the sitemap', async () => {
    const { res, body } = await text('/robots.txt');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const groups = body.split(/\n\s*\n/).filter((g) => /^User-agent:/m.test(g));
    const wildcard = groups.find((g) => /^User-agent: \*$/m.test(g))!;
    expect(wildcard).toMatch(/^Content-Signal: ai-train=yes, search=yes, ai-input=yes$/m);
    expect(wildcard).toMatch(/^Allow: \/$/m);
    const named = groups.find((g) => /^User-agent: GPTBot$/m.test(g))!;
    for (const bot of ['ClaudeBot', 'Google-Extended', 'PerplexityBot', 'CCBot', 'anthropic-ai', 'Applebot-Extended'])
      expect(named).toMatch(new RegExp(`^User-agent: ${bot}$`, 'm'));
    expect(named).toMatch(/^Content-Signal: ai-train=yes, search=yes, ai-input=yes$/m);
    expect(body).toMatch(/^# Attribution: .*Acme AI/m);
    expect(body).not.toMatch(/^Disallow: \/api/m);
    const sitemap = /^Sitemap: (.+)$/m.exec(body)![1]!;
    expect((await site.fetchPath(local(sitemap))).status).toBe(200);
  });
});

describe('sitemap.xml', () => {
  it('is a valid urlset with lastmod, and every URL answers 200', async () => {
    const { res, body } = await text('/sitemap.xml');
    expect(res.headers.get('content-type')).toMatch(/^application\/xml/);
    expect(XMLValidator.validate(body)).toBe(true);
    const doc = new XMLParser({ ignoreAttributes: false }).parse(body);
    expect(doc.urlset['@_xmlns']).toBe('http://www.sitemaps.org/schemas/sitemap/0.9');
    const urls = doc.urlset.url as { loc: string; lastmod: string }[];
    expect(urls.length).toBeGreaterThan(30);
    for (const url of urls) {
      expect(url.lastmod).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect((await site.fetchPath(local(url.loc))).status, url.loc).toBe(200);
    }
    expect(urls.map((u) => u.loc)).not.toContain(`${TEST_ORIGIN}/contact/thanks`);
  });
});

describe('llms.txt and llms-full.txt', () => {
  it('follows llmstxt.org: H1, summary, sections of links to markdown twins that resolve', async () => {
    const { res, body } = await text('/llms.txt');
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const lines = body.split('\n').filter(Boolean);
    expect(lines[0]).toBe('# Acme AI');
    expect(lines[1]).toMatch(/^> \S/);
    for (const section of ['## Docs', '## Products', '## Solutions', '## Articles', '## Pages', '## Optional'])
      expect(body).toContain(`\n${section}\n`);
    const links = [...body.matchAll(/^- \[([^\]]+)\]\(([^)]+)\)(: .+)?$/gm)].map((m) => m[2]!);
    expect(links.length).toBeGreaterThan(25);
    // Every link a markdown document that answers GET 200; endpoints and other files are code spans.
    expect(links.filter((l) => !l.endsWith('.md'))).toEqual([]);
    expect(body).toContain('\n## For agents\n');
    for (const link of links) expect((await site.fetchPath(local(link))).status, link).toBe(200);
    expect(body).toContain(`- Full text (llms-full.txt): \`${TEST_ORIGIN}/llms-full.txt\`.`);
    expect(body).toContain(`- MCP server: \`${TEST_ORIGIN}/mcp\`.`);
    // Every page of the sitemap is linked, by its twin (AFDocs llms-txt-coverage).
    const sitemap = await (await site.fetchPath('/sitemap.xml')).text();
    for (const [, loc] of sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)) {
      const path = decodeURIComponent(new URL(loc!).pathname);
      expect(
        links.map((l) => decodeURIComponent(l)),
        path,
      ).toContain(`${TEST_ORIGIN}${path === '/' ? '/index' : path}.md`);
    }
  });

  it('llms-full.txt holds every published article and product in one markdown file with one H1', async () => {
    const { body } = await text('/llms-full.txt');
    const catalog = (await import('../../generated/data/catalog.json', { with: { type: 'json' } })).default as {
      articles: { title: string }[];
      products: { name: string }[];
    };
    for (const article of catalog.articles) expect(body).toContain(`## ${article.title}`);
    for (const product of catalog.products) expect(body).toContain(`## ${product.name}`);
    const prose = body.replace(/^(```|~~~)[\s\S]*?^\1/gm, '');
    expect(prose.match(/^# /gm)).toHaveLength(1);
    // The twins' opening pointer to llms.txt is named once in the header, not once per document.
    expect(body).not.toContain('Index of this site for agents');
  });
});

describe('rss.xml', () => {
  it('is valid RSS 2.0 with the newest articles first and absolute links', async () => {
    const { res, body } = await text('/rss.xml');
    expect(res.headers.get('content-type')).toBe('application/rss+xml; charset=utf-8');
    expect(XMLValidator.validate(body)).toBe(true);
    const channel = new XMLParser().parse(body).rss.channel;
    const items = channel.item as { title: string; link: string; pubDate: string }[];
    expect(items.length).toBeGreaterThanOrEqual(16);
    const dates = items.map((i) => Date.parse(i.pubDate));
    expect([...dates].sort((a, b) => b - a)).toEqual(dates);
    for (const item of items) expect((await site.fetchPath(local(item.link))).status, item.link).toBe(200);
  });
});
