/** Resources, resource templates, completion and subscriptions/listen through the dispatcher, in both eras. */
import { describe, expect, it } from 'vitest';
import type { Article, Catalog } from '../content/catalog.ts';
import { bodiesOf } from '../content/catalog.ts';
import { inMemoryCatalog } from '../content/catalog-reader.ts';
import { sitePages } from '../publish/pages.ts';
import { encodeCursor } from '../kernel/cursor.ts';
import { RESOURCES_PER_PAGE, MAX_COMPLETION_VALUES } from './resources.ts';
import { handleMcp, type McpDeps } from './server.ts';
import { FIXTURE_CATALOG, FIXTURE_DEPS, FIXTURE_ORIGIN, mcpRequest, modernRequest } from '../../../tests/support/core-fixtures.ts';
import type { ParsedJson } from '../../../tests/support/parsed-json.ts';

const ARTICLE_TEMPLATE = `${FIXTURE_ORIGIN}/blog/{slug}.md`;
const CATEGORY_TEMPLATE = `${FIXTURE_ORIGIN}/blog/category/{category}.md`;
const RAG_URI = `${FIXTURE_ORIGIN}/blog/rag-chunking.md`;

async function modern(
  method: string,
  params: Record<string, unknown> = {},
  headers: Record<string, string> = {},
  deps: McpDeps = FIXTURE_DEPS,
): Promise<{ status: number; text: string; json: ParsedJson }> {
  const res = await handleMcp(
    modernRequest(method, params, { ...(typeof params.uri === 'string' ? { 'mcp-name': params.uri } : {}), ...headers }),
    deps,
  );
  const text = await res.text();
  return { status: res.status, text, json: JSON.parse(text) };
}

async function legacy(method: string, params: Record<string, unknown> = {}): Promise<ParsedJson> {
  const res = await handleMcp(
    mcpRequest({ jsonrpc: '2.0', id: 'l-1', method, params }, { 'mcp-protocol-version': '2025-11-25' }),
    FIXTURE_DEPS,
  );
  expect(res.status).toBe(200);
  return res.json();
}

/** The page's twin without the YAML front matter the served file opens with (a resource carries those fields in its listing). */
const twinOf = (path: string): string => sitePages(FIXTURE_CATALOG).find((p) => p.path === path)!.markdown;

describe('capabilities', () => {
  it('discover declares resources and completions, and nothing that needs a subscription stream', async () => {
    const { capabilities } = (await modern('server/discover')).json.result;
    expect(capabilities).toMatchObject({ resources: {}, completions: {} });
    expect(capabilities.resources.subscribe).toBeFalsy();
    expect(capabilities.resources.listChanged).toBeFalsy();
    expect(capabilities.tools.listChanged).toBeFalsy();
  });
});

describe('subscriptions/listen', () => {
  it('-> 404 -32601 on one line, echoing the id (the runner reads the body line by line)', async () => {
    const { status, text, json } = await modern('subscriptions/listen', { notifications: { toolsListChanged: true } });
    expect(status).toBe(404);
    expect(text).not.toContain('\n');
    expect(json).toMatchObject({ jsonrpc: '2.0', id: 1, error: { code: -32601 } });
  });
});

describe('resources/list (2026-07-28)', () => {
  it('lists every article, solution, product and category as its twin URL, with cache hints', async () => {
    const { status, json } = await modern('resources/list');
    expect(status).toBe(200);
    const { result } = json;
    expect(result).toMatchObject({ resultType: 'complete', cacheScope: 'public' });
    expect(result.ttlMs).toBeGreaterThan(0);
    expect(result._meta['io.modelcontextprotocol/serverInfo'].version).toBe('9.9.9');
    expect(result.nextCursor).toBeUndefined();
    expect(result.resources.map((r: { uri: string }) => r.uri)).toEqual([
      RAG_URI,
      `${FIXTURE_ORIGIN}/blog/agent-tools-zh.md`,
      `${FIXTURE_ORIGIN}/solutions/retail-assistant.md`,
      `${FIXTURE_ORIGIN}/blog/vector-search.md`,
      `${FIXTURE_ORIGIN}/products/platform.md`,
      `${FIXTURE_ORIGIN}/products/gateway.md`,
      `${FIXTURE_ORIGIN}/blog/category/rag.md`,
      `${FIXTURE_ORIGIN}/blog/category/ai-agents.md`,
    ]);
    expect(result.resources[0]).toEqual({
      uri: RAG_URI,
      name: 'article/rag-chunking',
      title: 'RAG chunking strategies',
      description: 'RAG chunking strategies.',
      mimeType: 'text/markdown',
      annotations: { audience: ['user', 'assistant'], lastModified: '2026-03-01T00:00:00Z' },
    });
  });

  it(`pages by ${RESOURCES_PER_PAGE} with an opaque cursor; a cursor we did not issue is -32602`, async () => {
    const many: Article[] = Array.from({ length: RESOURCES_PER_PAGE + 20 }, (_, i) => ({
      ...FIXTURE_CATALOG.articles[0]!,
      slug: `a-${String(i).padStart(3, '0')}`,
      path: `/blog/a-${String(i).padStart(3, '0')}`,
    }));
    const catalog: Catalog = { ...FIXTURE_CATALOG, articles: many };
    const deps = { ...FIXTURE_DEPS, catalog: inMemoryCatalog(catalog) };
    const first = (await modern('resources/list', {}, {}, deps)).json.result;
    expect(first.resources).toHaveLength(RESOURCES_PER_PAGE);
    expect(first.nextCursor).toBe(encodeCursor(RESOURCES_PER_PAGE));
    const second = (await modern('resources/list', { cursor: first.nextCursor }, {}, deps)).json.result;
    expect(second.nextCursor).toBeUndefined();
    expect(first.resources.length + second.resources.length).toBe(many.length + 1 + 2 + 2);
    expect(second.cacheScope).toBe('public');
    const bad = await modern('resources/list', { cursor: 'nope' }, {}, deps);
    expect(bad.json).toMatchObject({ id: 1, error: { code: -32602 } });
  });
});

describe('resources/templates/list (2026-07-28)', () => {
  it('one template per kind, braces unencoded, with cache hints', async () => {
    const { result } = (await modern('resources/templates/list')).json;
    expect(result.resourceTemplates.map((t: { uriTemplate: string }) => t.uriTemplate)).toEqual([
      ARTICLE_TEMPLATE,
      `${FIXTURE_ORIGIN}/solutions/{slug}.md`,
      `${FIXTURE_ORIGIN}/products/{slug}.md`,
      CATEGORY_TEMPLATE,
    ]);
    expect(result.resourceTemplates[0]).toMatchObject({
      name: 'article',
      mimeType: 'text/markdown',
      title: expect.any(String),
      description: expect.any(String),
    });
    expect(result).toMatchObject({ resultType: 'complete', cacheScope: 'public', ttlMs: expect.any(Number) });
  });
});

describe('resources/read (2026-07-28)', () => {
  it.each([
    ['an article', RAG_URI, '/blog/rag-chunking'],
    ['a solution', `${FIXTURE_ORIGIN}/solutions/retail-assistant.md`, '/solutions/retail-assistant'],
    ['a product', `${FIXTURE_ORIGIN}/products/gateway.md`, '/products/gateway'],
    ['a category', `${FIXTURE_ORIGIN}/blog/category/rag.md`, '/blog/category/rag'],
  ])('%s: the same text as its served twin, with cache hints', async (_name, uri, path) => {
    const { status, json } = await modern('resources/read', { uri });
    expect(status).toBe(200);
    expect(json.result.contents).toEqual([{ uri, mimeType: 'text/markdown', text: twinOf(path) }]);
    expect(json.result).toMatchObject({ resultType: 'complete', cacheScope: 'public', ttlMs: expect.any(Number) });
  });

  it('a translated article: the same text as its twin, naming the translation (s8b L5e)', async () => {
    const base = FIXTURE_CATALOG.articles.find((a) => a.slug === 'rag-chunking')!;
    const zh: Article = {
      ...base,
      slug: 'rag-chunking-zh',
      path: '/blog/rag-chunking-zh',
      lang: 'zh',
      title: '文档切分',
      translation: base.slug,
    };
    const catalog: Catalog = {
      ...FIXTURE_CATALOG,
      articles: [zh, ...FIXTURE_CATALOG.articles.map((a) => (a === base ? { ...a, translation: zh.slug } : a))],
    };
    const deps = { ...FIXTURE_DEPS, catalog: inMemoryCatalog(catalog), bodies: bodiesOf(catalog) };
    const { json } = await modern('resources/read', { uri: RAG_URI }, {}, deps);
    const twin = sitePages(catalog).find((p) => p.path === base.path)!.markdown;
    expect(twin).toContain(`- 中文: [文档切分](${FIXTURE_ORIGIN}/blog/rag-chunking-zh.md)`);
    expect(json.result.contents).toEqual([{ uri: RAG_URI, mimeType: 'text/markdown', text: twin }]);
  });

  it.each([
    ['an unknown slug', `${FIXTURE_ORIGIN}/blog/nope.md`],
    ['a solution slug under /blog/', `${FIXTURE_ORIGIN}/blog/retail-assistant.md`],
    ['the HTML page URL', `${FIXTURE_ORIGIN}/blog/rag-chunking`],
    ['another origin', 'https://other.example/blog/rag-chunking.md'],
    ['the runner probe', 'test://nonexistent-resource-for-conformance-testing'],
    ['not a URI', 'rag-chunking'],
  ])('%s -> -32602 with data.uri (SEP-2164), never empty contents', async (_name, uri) => {
    const { status, json } = await modern('resources/read', { uri });
    expect(status).toBe(200);
    expect(json).toMatchObject({ id: 1, error: { code: -32602, data: { uri } } });
    expect(json.result).toBeUndefined();
  });

  it('Mcp-Name must carry the URI (SEP-2243)', async () => {
    const { status, json } = await modern('resources/read', { uri: RAG_URI }, { 'mcp-name': `${FIXTURE_ORIGIN}/blog/vector-search.md` });
    expect(status).toBe(400);
    expect(json.error.code).toBe(-32020);
  });
});

describe('completion/complete (2026-07-28)', () => {
  const complete = (uri: string, name: string, value: string, type = 'ref/resource') =>
    modern('completion/complete', { ref: { type, uri, name: uri }, argument: { name, value } });

  it.each([
    ['article slugs: prefix matches first, then substrings', ARTICLE_TEMPLATE, 'slug', 'r', ['rag-chunking', 'vector-search']],
    ['article slugs by title words, newest first', ARTICLE_TEMPLATE, 'slug', 'SEARCH', ['vector-search']],
    ['every article slug for an empty value', ARTICLE_TEMPLATE, 'slug', '', ['rag-chunking', 'agent-tools-zh', 'vector-search']],
    ['solution slugs', `${FIXTURE_ORIGIN}/solutions/{slug}.md`, 'slug', 'ret', ['retail-assistant']],
    ['product slugs', `${FIXTURE_ORIGIN}/products/{slug}.md`, 'slug', 'g', ['gateway']],
    ['categories by slug prefix', CATEGORY_TEMPLATE, 'category', 'ai', ['ai-agents']],
    ['categories by name', CATEGORY_TEMPLATE, 'category', 'agents', ['ai-agents']],
    ['no match', CATEGORY_TEMPLATE, 'category', 'zzz', []],
  ])('%s', async (_name, uri, argument, value, values) => {
    const { status, json } = await complete(uri, argument, value);
    expect(status).toBe(200);
    expect(json.result.completion).toEqual({ values, total: values.length, hasMore: false });
    expect(json.result.resultType).toBe('complete');
    expect(json.result.ttlMs).toBeUndefined(); // a plain Result, not cacheable
  });

  it(`answers at most ${MAX_COMPLETION_VALUES} values, with the total and hasMore`, async () => {
    const many: Article[] = Array.from({ length: MAX_COMPLETION_VALUES + 5 }, (_, i) => ({
      ...FIXTURE_CATALOG.articles[0]!,
      slug: `s-${i}`,
      path: `/blog/s-${i}`,
    }));
    const res = await handleMcp(
      modernRequest('completion/complete', {
        ref: { type: 'ref/resource', uri: ARTICLE_TEMPLATE },
        argument: { name: 'slug', value: 's-' },
      }),
      { ...FIXTURE_DEPS, catalog: inMemoryCatalog({ ...FIXTURE_CATALOG, articles: many }) },
    );
    const { completion } = (await res.json()).result;
    expect(completion.values).toHaveLength(MAX_COMPLETION_VALUES);
    expect(completion).toMatchObject({ total: MAX_COMPLETION_VALUES + 5, hasMore: true });
  });

  it.each([
    ['an unknown template', `${FIXTURE_ORIGIN}/x/{slug}.md`, 'slug', 'ref/resource'],
    ['a variable the template does not have', ARTICLE_TEMPLATE, 'category', 'ref/resource'],
    ['a prompt (there are none)', 'test_prompt_with_arguments', 'arg1', 'ref/prompt'],
    ['an unknown ref type', ARTICLE_TEMPLATE, 'slug', 'ref/tool'],
  ])('%s -> -32602', async (_name, uri, argument, type) => {
    const { status, json } = await complete(uri, argument, '', type);
    expect(status).toBe(200);
    expect(json.error.code).toBe(-32602);
  });
});

describe('handshake era (2025-11-25 shapes)', () => {
  it('resources/list, templates and read without resultType or cache hints', async () => {
    const list = (await legacy('resources/list')).result;
    expect(list.resources[0].uri).toBe(RAG_URI);
    expect(list).not.toHaveProperty('ttlMs');
    expect(list).not.toHaveProperty('resultType');
    const templates = (await legacy('resources/templates/list')).result;
    expect(templates.resourceTemplates[0].uriTemplate).toBe(ARTICLE_TEMPLATE);
    expect(templates).not.toHaveProperty('cacheScope');
    const read = (await legacy('resources/read', { uri: RAG_URI })).result;
    expect(read).toEqual({ contents: [{ uri: RAG_URI, mimeType: 'text/markdown', text: twinOf('/blog/rag-chunking') }] });
  });

  it('an unknown resource is -32002 with data.uri, as 2025-11-25 specifies', async () => {
    expect(await legacy('resources/read', { uri: `${FIXTURE_ORIGIN}/blog/nope.md` })).toMatchObject({
      id: 'l-1',
      error: { code: -32002, data: { uri: `${FIXTURE_ORIGIN}/blog/nope.md` } },
    });
  });

  it('completion/complete completes a template variable', async () => {
    const { result } = await legacy('completion/complete', {
      ref: { type: 'ref/resource', uri: CATEGORY_TEMPLATE },
      argument: { name: 'category', value: 'r' },
    });
    expect(result).toEqual({ completion: { values: ['rag'], total: 1, hasMore: false } });
  });
});
