/**
 * A small catalogue, search engine and request builders for the MCP unit tests (not used at runtime).
 * @module
 */
import { byNewest, type Article, type Catalog, type Document, type Solution } from '../../src/core/content/catalog.ts';
import { buildSearchIndex } from '../../src/core/search/build-index.ts';
import { bodiesOf, documentsOf, siteProfile } from '../../src/core/content/catalog.ts';
import { inMemoryCatalog } from '../../src/core/content/catalog-reader.ts';
import { loadSearchIndex } from '../../src/core/search/search-index.ts';
import type { McpDeps } from '../../src/core/mcp/server.ts';
import { AGENT_ENTRY_POINTS } from '../../src/core/publish/entry-points.ts';
import { feedbackSink } from '../../src/core/feedback/feedback.ts';
import type { FeedbackSink } from '../../src/core/agent-tools/submit-feedback.ts';
import { memoryStore } from '../../src/core/kernel/memory-store.ts';
import type { Store } from '../../src/core/kernel/store.ts';

export const FIXTURE_ORIGIN = 'https://acme-ai.example';

/**
 * A maker of search-test documents with defaults: each call gets a distinct, older date unless
 * `extra` gives one, and the language from the title's script.
 */
export function documentMaker(): (slug: string, title: string, markdown: string, extra?: Partial<Document>) => Document {
  let count = 0;
  return (slug, title, markdown, extra = {}) => {
    count++;
    const date = extra.date ?? `2025-${String(12 - (count % 12)).padStart(2, '0')}-${String(1 + (count % 27)).padStart(2, '0')}`;
    return {
      type: 'article',
      slug,
      title,
      category: 'engineering',
      date,
      excerpt: `${title}.`,
      lang: /\p{Script=Han}/u.test(title) ? 'zh' : 'en',
      tags: [],
      path: `/blog/${slug}`,
      markdown,
      readingMinutes: 3,
      ...extra,
    };
  };
}

const article = (slug: string, title: string, date: string, category: string, markdown: string): Article => ({
  type: 'article',
  slug,
  title,
  category,
  date,
  excerpt: `${title}.`,
  lang: /\p{Script=Han}/u.test(title) ? 'zh' : 'en',
  tags: ['t'],
  path: `/blog/${slug}`,
  markdown,
  readingMinutes: 2,
  author: 'Acme AI',
});

const solution: Solution = {
  type: 'solution',
  slug: 'retail-assistant',
  title: 'Retail shopping assistant',
  category: 'ai-agents',
  date: '2026-01-05',
  excerpt: 'An agent for retail stores.',
  lang: 'en',
  tags: [],
  path: '/solutions/retail-assistant',
  markdown: '## Retail\n\nAn agent that answers shoppers.',
  readingMinutes: 1,
  industry: 'Retail',
  products: ['agent-studio'],
};

export const FIXTURE_CATALOG: Catalog = {
  origin: FIXTURE_ORIGIN,
  company: {
    name: 'Acme AI',
    name_zh: '艾克米智能',
    legal_name: 'Acme AI Ltd. (placeholder)',
    tagline: 'Private LLMs.',
    description: 'A placeholder vendor.',
    description_zh: '占位品牌。',
    founded: 2021,
    headquarters: 'Beijing',
    operator_attribution: 'Attribute Acme AI.',
    contact: [
      { kind: 'email', label: 'Sales', value: 'sales@acme-ai.example', url: 'mailto:sales@acme-ai.example' },
      { kind: 'address', label: 'HQ', value: '1 Example Road' },
    ],
    key_resources: [{ title: 'Blog', url: '/blog', description: 'Articles.' }],
  },
  categories: [
    { slug: 'rag', name: 'RAG', name_zh: '检索增强', description: 'RAG.' },
    { slug: 'ai-agents', name: 'Agents', name_zh: '智能体', description: 'Agents.' },
  ],
  articles: [
    article(
      'rag-chunking',
      'RAG chunking strategies',
      '2026-03-01',
      'rag',
      '## Chunking\n\nSplit documents by structure for better recall.',
    ),
    article('agent-tools-zh', '智能体工具调用实践', '2026-02-01', 'ai-agents', '智能体通过工具调用完成任务。'),
    article('vector-search', 'Vector search at scale', '2025-12-01', 'rag', 'Vector databases and recall.'),
  ],
  solutions: [solution],
  products: [
    {
      slug: 'gateway',
      name: 'LLM Gateway',
      summary: 'A gateway.',
      url: `${FIXTURE_ORIGIN}/products/gateway`,
      features: ['Rate limits'],
      order: 2,
      path: '/products/gateway',
      markdown: 'Gateway.',
    },
    {
      slug: 'platform',
      name: 'LLM Platform',
      summary: 'A platform.',
      url: `${FIXTURE_ORIGIN}/products/platform`,
      features: ['Serving'],
      order: 1,
      path: '/products/platform',
      markdown: 'Platform.',
    },
  ],
  glossary: [
    {
      id: 'rag',
      term: { en: 'RAG (retrieval-augmented generation)', zh: 'RAG（检索增强生成）' },
      definition: { en: 'Answering each question from the documents a search finds first.', zh: '先检索文档再据此回答每个问题。' },
    },
    {
      id: 'vector-search',
      term: { en: 'Vector search', zh: '向量检索' },
      definition: { en: 'Finding the texts whose embeddings lie nearest a query.', zh: '查找嵌入向量与查询最接近的文本。' },
    },
  ],
};

/**
 * The fixture catalogue with `n` generated articles and solutions instead of its own, each list
 * newest first as the build orders it: every 25th document a solution; many equal dates (the slug
 * breaks the tie), both languages, and the optional fields (updated, author, translation, cover)
 * on some documents only. For the sharded catalogue's tests, which need documents over many files.
 */
export function largeCatalog(n: number): Catalog {
  const make = documentMaker();
  const two = (k: number): string => String(k).padStart(2, '0');
  const docs = Array.from({ length: n }, (_, i): Article | Solution => {
    const slug = `doc-${String(i).padStart(5, '0')}`;
    const doc = make(slug, i % 3 ? `Title ${i}` : `标题 ${i}`, `Body of ${i}.`, {
      date: `2025-${two(1 + (i % 12))}-${two(1 + (i % 9))}`,
      category: i % 2 ? 'rag' : 'ai-agents',
      tags: i % 4 ? ['vllm', `tag-${i % 7}`] : [],
      ...(i % 5 === 0 ? { updated: '2026-01-02' } : {}),
      ...(i % 11 === 0 ? { translation: `doc-${String(i + 1).padStart(5, '0')}` } : {}),
      ...(i % 13 === 0 ? { cover: { src: `/_astro/c${i}.webp`, alt: `Cover ${i}`, width: 1200, height: 630 } } : {}),
    });
    if (i % 25 === 3) return { ...doc, type: 'solution', path: `/solutions/${slug}`, industry: 'Retail', products: ['gateway'] };
    return { ...doc, type: 'article', ...(i % 3 === 1 ? { author: 'Acme AI' } : {}) };
  });
  return {
    ...FIXTURE_CATALOG,
    articles: docs.filter((d): d is Article => d.type === 'article').sort(byNewest),
    solutions: docs.filter((d): d is Solution => d.type === 'solution').sort(byNewest),
  };
}

export const FIXTURE_DEPS: McpDeps = {
  site: siteProfile(FIXTURE_CATALOG),
  catalog: inMemoryCatalog(FIXTURE_CATALOG),
  bodies: bodiesOf(FIXTURE_CATALOG),
  engine: loadSearchIndex(buildSearchIndex(documentsOf(FIXTURE_CATALOG))),
  origin: FIXTURE_ORIGIN,
  version: '9.9.9',
  entryPoints: AGENT_ENTRY_POINTS,
};

/**
 * A submit_feedback sink over memory stores for the fixture catalogue, one network, a fixed clock;
 * `store` is where the entries land, for the test to read back.
 */
export function memoryFeedbackSink(channel: 'mcp' | 'a2a', store: Store = memoryStore()): FeedbackSink {
  return feedbackSink(channel, {
    feedback: store,
    limits: memoryStore(),
    origin: FIXTURE_ORIGIN,
    pages: FIXTURE_DEPS.catalog,
    clientNetworkDigest: async () => 'net',
    now: () => Date.UTC(2026, 10, 26, 12),
    newId: () => crypto.randomUUID(),
  });
}

/** Headers a well-behaved legacy client sends. */
export const LEGACY_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};

/** A POST to /mcp with a JSON body (a string is sent as is). */
export function mcpRequest(body: unknown, headers: Record<string, string> = {}, method = 'POST'): Request {
  const init: RequestInit = { method, headers: { ...LEGACY_HEADERS, ...headers } };
  if (method !== 'GET' && method !== 'HEAD' && method !== 'DELETE' && method !== 'OPTIONS')
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
  return new Request(`${FIXTURE_ORIGIN}/mcp`, init);
}

/** `_meta` of a 2026-07-28 request. */
export const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1' },
};

/** A 2026-07-28 request with consistent headers and `_meta` (override either to break them). */
export function modernRequest(
  method: string,
  params: Record<string, unknown> = {},
  headers: Record<string, string> = {},
  id: number | string = 1,
): Request {
  const name: Record<string, string> = typeof params.name === 'string' ? { 'mcp-name': params.name } : {};
  return mcpRequest(
    { jsonrpc: '2.0', id, method, params: { ...params, _meta: { ...MODERN_META, ...(params._meta as object | undefined) } } },
    { 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...name, ...headers },
  );
}

/** An A2A 1.0 `SendMessage` to `<origin>/a2a` with one user message of `parts`. */
export function a2aSendMessage(parts: unknown[], origin: string = FIXTURE_ORIGIN, messageId = 'm1'): Request {
  return new Request(`${origin}/a2a`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: { message: { messageId, role: 'ROLE_USER', parts } },
    }),
  });
}
