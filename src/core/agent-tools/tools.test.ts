/** The six tools: listings (schemas, annotations), results and tool errors. */
import { describe, expect, it } from 'vitest';
import { bodiesOf, catalogIndex, siteProfile } from '../content/catalog.ts';
import { inMemoryCatalog } from '../content/catalog-reader.ts';
import { FIXTURE_CATALOG, FIXTURE_DEPS, FIXTURE_ORIGIN, largeCatalog } from '../../../tests/support/core-fixtures.ts';
import { decodeCursor, encodeCursor } from '../kernel/cursor.ts';
import { exportArticleIndex, MAX_EXPORT_PAGE_SIZE, MAX_EXPORT_SCAN_DOCUMENTS } from './export-article-index.ts';
import { findTool, TOOLS } from './registry.ts';

// The catalogue without bodies, as the MCP function loads it: bodies come from the body source only.
const ctx = {
  site: siteProfile(FIXTURE_CATALOG),
  catalog: inMemoryCatalog(catalogIndex(FIXTURE_CATALOG)),
  bodies: bodiesOf(FIXTURE_CATALOG),
  engine: FIXTURE_DEPS.engine,
  origin: FIXTURE_ORIGIN,
  entryPoints: FIXTURE_DEPS.entryPoints,
};
const run = (name: string, args: unknown) => findTool(name)!.call(args, ctx);

describe('listings', () => {
  it.each(TOOLS.map((t) => [t.name, t] as const))('%s: name, title, description, object schemas, annotations', (name, tool) => {
    const { listing } = tool;
    expect(name).toMatch(/^[A-Za-z0-9_.-]{1,128}$/);
    expect(listing.title.length).toBeGreaterThan(0);
    expect(listing.description.length).toBeGreaterThan(20);
    expect(listing.inputSchema.type).toBe('object');
    expect(listing.inputSchema.$schema).toBeUndefined();
    expect(listing.inputSchema.additionalProperties).toBe(false);
    expect(listing.outputSchema.type).toBe('object');
    // Every tool reads, but submit_feedback: it stores what it is sent (not idempotent: each call stores one more).
    const stores = name === 'submit_feedback';
    expect(listing.annotations).toEqual({
      title: listing.title,
      readOnlyHint: !stores,
      destructiveHint: false,
      idempotentHint: !stores,
      openWorldHint: false,
    });
    if (stores) expect(listing.description).toContain('Stores what it is sent');
  });

  it('only export_article_index needs a scope, and says so', () => {
    expect(TOOLS.filter((t) => t.requiredScope).map((t) => [t.name, t.requiredScope])).toEqual([
      ['export_article_index', 'content:export'],
    ]);
    expect(exportArticleIndex.listing.description).toContain('content:export');
  });

  it('schemas carry the limits', () => {
    expect(findTool('search_articles')!.listing.inputSchema).toMatchObject({
      required: ['query'],
      properties: { limit: { type: 'integer', minimum: 1, maximum: 50 } },
    });
    expect(exportArticleIndex.listing.inputSchema).toMatchObject({
      properties: { limit: { type: 'integer', maximum: MAX_EXPORT_PAGE_SIZE, default: 100 }, cursor: { type: 'string' } },
    });
  });
});

describe('results', () => {
  it('search_articles: structuredContent plus the same JSON as text, absolute URLs', async () => {
    const result = await run('search_articles', { query: 'chunking', limit: 2 });
    expect(result.isError).toBeUndefined();
    expect(JSON.parse(result.content[0]!.text)).toEqual(result.structuredContent);
    const { results } = result.structuredContent as { results: { slug: string; url: string }[] };
    expect(results[0]).toMatchObject({ slug: 'rag-chunking', url: `${FIXTURE_ORIGIN}/blog/rag-chunking` });
  });

  it('search_articles: category filter, unknown category is a tool error listing the known ones', async () => {
    const filtered = (await run('search_articles', { query: 'recall', category: 'ai-agents' })).structuredContent as { results: unknown[] };
    expect(filtered.results).toEqual([]);
    const bad = await run('search_articles', { query: 'recall', category: 'nope' });
    expect(bad.isError).toBe(true);
    expect(bad.content[0]!.text).toContain('rag, ai-agents');
  });

  it('search_articles: lang keeps one language; an unknown one is a tool error', async () => {
    const slugs = async (args: object) =>
      (
        (await run('search_articles', { query: '智能体 vector', limit: 10, ...args })).structuredContent as {
          results: { slug: string; lang: string }[];
        }
      ).results;
    const both = await slugs({});
    expect(new Set(both.map((r) => r.lang))).toEqual(new Set(['zh', 'en']));
    expect(await slugs({ lang: 'zh' })).toEqual(both.filter((r) => r.lang === 'zh'));
    expect(await slugs({ lang: 'en' })).toEqual(both.filter((r) => r.lang === 'en'));
    const bad = await run('search_articles', { query: 'rag', lang: 'fr' });
    expect(bad.isError).toBe(true);
    expect(bad.content[0]!.text).toContain('lang must be one of en, zh');
  });

  it('export_article_index: lang pages through that language only, total is its count, each call reads a bounded range', async () => {
    const large = inMemoryCatalog(catalogIndex(largeCatalog(2_400)));
    let read = 0;
    const counting = {
      ...large,
      documents(start: number, end: number) {
        read += end - start;
        return large.documents(start, end);
      },
    };
    const everything = large.documents(0, large.documentCount);
    for (const lang of ['zh', 'en'] as const) {
      const seen: string[] = [];
      let cursor: string | undefined;
      let total = 0;
      do {
        read = 0;
        const page = (await exportArticleIndex.call({ lang, limit: 50, ...(cursor ? { cursor } : {}) }, { ...ctx, catalog: counting }))
          .structuredContent as { items: { slug: string; lang: string }[]; total: number; next_cursor?: string };
        expect(read).toBeLessThanOrEqual(MAX_EXPORT_SCAN_DOCUMENTS);
        seen.push(...page.items.map((i) => i.slug));
        total = page.total;
        cursor = page.next_cursor;
      } while (cursor);
      const expected = everything.filter((d) => d.lang === lang).map((d) => d.slug);
      expect(seen).toEqual(expected);
      expect(total).toBe(expected.length);
    }
    // One English document after 1,500 Chinese ones: the first call stops at the scan bound.
    const rare = {
      ...large,
      documents: (start: number, end: number) => large.documents(start, end).map((d) => ({ ...d, lang: 'zh' as const })),
    };
    const first = (await exportArticleIndex.call({ lang: 'en' }, { ...ctx, catalog: rare })).structuredContent as {
      items: unknown[];
      next_cursor?: string;
    };
    expect(first.items).toEqual([]);
    expect(decodeCursor(first.next_cursor!)).toBe(MAX_EXPORT_SCAN_DOCUMENTS);
  });

  it('get_article: article and solution with markdown and metadata', async () => {
    const a = (await run('get_article', { slug: 'agent-tools-zh' })).structuredContent!;
    expect(a).toMatchObject({
      type: 'article',
      lang: 'zh',
      url: `${FIXTURE_ORIGIN}/blog/agent-tools-zh`,
      markdown_url: `${FIXTURE_ORIGIN}/blog/agent-tools-zh.md`,
      author: 'Acme AI',
    });
    expect(a.markdown).toContain('工具调用');
    const s = (await run('get_article', { slug: 'retail-assistant' })).structuredContent!;
    expect(s).toMatchObject({
      type: 'solution',
      industry: 'Retail',
      products: ['agent-studio'],
      url: `${FIXTURE_ORIGIN}/solutions/retail-assistant`,
    });
  });

  it('get_article: the body comes from the body source, read once per call; a missing body is a failure, not a tool result', async () => {
    const asked: string[] = [];
    const bodies = async (slug: string) => {
      asked.push(slug);
      return slug === 'vector-search' ? 'BODY FROM THE STORE' : undefined;
    };
    expect((await findTool('get_article')!.call({ slug: 'vector-search' }, { ...ctx, bodies })).structuredContent).toMatchObject({
      markdown: 'BODY FROM THE STORE',
    });
    expect(asked).toEqual(['vector-search']);
    await expect(findTool('get_article')!.call({ slug: 'rag-chunking' }, { ...ctx, bodies })).rejects.toThrow(
      /body of "rag-chunking" is missing/,
    );
  });

  it('get_article: unknown slug -> tool error suggesting search_articles', async () => {
    const result = await run('get_article', { slug: 'does-not-exist' });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(result.content[0]!.text).toMatch(/does-not-exist.*search_articles/);
  });

  it('list_products: display order, absolute URLs', async () => {
    const { products } = (await run('list_products', {})).structuredContent as { products: { slug: string; url: string }[] };
    expect(products.map((p) => p.url)).toEqual([`${FIXTURE_ORIGIN}/products/platform`, `${FIXTURE_ORIGIN}/products/gateway`]);
  });

  it('get_company_info: profile, contacts and the key resources as absolute URLs', async () => {
    const info = (await run('get_company_info', undefined)).structuredContent as {
      name: string;
      contact: unknown[];
      resources: { url: string }[];
    };
    expect(info.name).toBe('Acme AI');
    expect(info.contact).toHaveLength(2);
    const urls = info.resources.map((r) => r.url);
    for (const path of ['/llms.txt', '/docs/api', '/openapi.json', '/auth.md', '/blog']) expect(urls).toContain(`${FIXTURE_ORIGIN}${path}`);
    expect(new Set(urls).size).toBe(urls.length);
  });

  it('get_company_info: its description names no contact channel the company does not have (a fork with one email address)', async () => {
    const company = { ...FIXTURE_CATALOG.company, contact: [{ kind: 'email' as const, label: 'Enquiries', value: 'hello@x.example' }] };
    const info = (await findTool('get_company_info')!.call(undefined, { ...ctx, site: { ...ctx.site, company } })).structuredContent as {
      contact: { kind: string; label: string }[];
    };
    const has = info.contact.flatMap((c) => [c.kind, c.label.toLowerCase()]);
    const description = findTool('get_company_info')!.listing.description.toLowerCase();
    const channels = ['sales', 'press', 'support', 'phone', 'address', 'contact form', 'wechat', 'social'];
    expect(channels.filter((word) => description.includes(word) && !has.includes(word))).toEqual([]);
  });

  it('export_article_index: pages through every document newest first', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = (await exportArticleIndex.call(cursor ? { limit: 1, cursor } : { limit: 1 }, ctx)).structuredContent as {
        items: { slug: string }[];
        total: number;
        next_cursor?: string;
      };
      seen.push(...page.items.map((i) => i.slug));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toEqual(['rag-chunking', 'agent-tools-zh', 'retail-assistant', 'vector-search']);
    const all = (await exportArticleIndex.call({}, ctx)).structuredContent as { items: unknown[]; next_cursor?: string };
    expect(all.items).toHaveLength(4);
    expect(all.next_cursor).toBeUndefined();
  });

  it.each(['garbage!', encodeCursor(99), btoa('idx1:0'), btoa('other:1'), ''])(
    'export_article_index: invalid cursor %j -> tool error',
    async (cursor) => {
      const result = await exportArticleIndex.call({ cursor }, ctx);
      expect(result.isError).toBe(true);
      expect(result.content[0]!.text).toMatch(/Invalid cursor/);
    },
  );

  it('cursors round-trip and are opaque', () => {
    expect(decodeCursor(encodeCursor(250))).toBe(250);
    expect(encodeCursor(250)).not.toContain('250');
  });
});

describe('invalid arguments are tool errors, not -32602 (SEP-1303)', () => {
  it.each([
    ['search_articles', { query: 5 }, 'query'],
    ['search_articles', {}, 'query'],
    ['search_articles', { query: '   ' }, 'blank'],
    ['search_articles', { query: 'x', limit: 0 }, 'limit'],
    ['search_articles', { query: 'x', limit: 51 }, 'limit'],
    ['search_articles', { query: 'x', limit: 2.5 }, 'limit'],
    ['search_articles', { query: 'x', extra: 1 }, 'extra'],
    ['get_article', {}, 'slug'],
    ['get_article', { slug: 12 }, 'slug'],
    ['list_products', { verbose: true }, 'verbose'],
    ['export_article_index', { limit: 501 }, 'limit must be a whole number from 1 to 500'],
    ['export_article_index', { cursor: 3 }, 'cursor'],
    ['export_article_index', { lang: 'de' }, 'lang must be one of en, zh'],
    ['search_articles', { query: 'x', lang: 'ZH' }, 'lang must be one of en, zh'],
    // A lone surrogate (JSON allows "\ud800"; UTF-8 cannot carry it, so /api/search refuses it as bad encoding): refused, not echoed.
    ['search_articles', { query: '\ud800abc' }, 'query must be valid Unicode text'],
    ['search_articles', { query: 'abc\udfff' }, 'query must be valid Unicode text'],
  ])('%s %j', async (name, args, mention) => {
    const result = await run(name, args);
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toMatch(/^Invalid arguments: /);
    expect(result.content[0]!.text).toContain(mention);
  });
});
