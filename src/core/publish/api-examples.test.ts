/**
 * The API description's examples are this site's own: every page path and slug it shows exists in the catalogue it
 * was built from (a fork that deletes every article too), the example search finds what its answer shows, and the
 * tool schemas, which cannot see the catalogue, name no page at all.
 */
import { describe, expect, it } from 'vitest';
import { FIXTURE_CATALOG } from '../../../tests/support/core-fixtures.ts';
import type { Article, Catalog } from '../content/catalog.ts';
import { documentsOf } from '../content/catalog.ts';
import { TOOLS } from '../agent-tools/registry.ts';
import { webMcpListings } from '../agent-tools/webmcp.ts';
import { ContactRequestSchema } from '../contact/contact.ts';
import { jsonSchemaOf } from '../kernel/json-schema.ts';
import { buildSearchIndex } from '../search/build-index.ts';
import { loadSearchIndex } from '../search/search-index.ts';
import { searchResults } from '../search/api.ts';
import { apiExamples, EXAMPLE_SEARCH_LIMIT } from './api-examples.ts';
import { apiDocumentOf } from './openapi.ts';
import { sitePages } from './pages.ts';

/** A fork: none of the fixture's articles, solutions or products, other topics, a Chinese tag. */
const FORK: Catalog = (() => {
  const [en, zh] = [FIXTURE_CATALOG.articles[0]!, FIXTURE_CATALOG.articles[1]!];
  const article = (base: Article, slug: string, title: string, tags: string[], date: string): Article => ({
    ...base,
    slug,
    title,
    tags,
    date,
    path: `/blog/${slug}`,
    category: 'pipelines',
  });
  return {
    ...FIXTURE_CATALOG,
    origin: 'https://www.borealis-data.test',
    company: { ...FIXTURE_CATALOG.company, name: 'Borealis Data', name_zh: '北极光数据' },
    categories: [{ slug: 'pipelines', name: 'Data pipelines', name_zh: '数据管道', description: 'CDC.' }],
    articles: [
      article(en, 'cdc-ordering-guarantees', 'CDC ordering guarantees', ['CDC', 'Kafka'], '2026-10-02'),
      article(zh, 'cdc-ordering-guarantees-zh', '变更数据捕获的顺序保证', ['变更数据捕获'], '2026-10-01'),
      article(zh, 'column-lineage-from-sql-zh', '从 SQL 推导列级血缘', ['变更数据捕获', '血缘'], '2026-09-01'),
    ],
    solutions: [],
    products: [{ ...FIXTURE_CATALOG.products[0]!, slug: 'lineage-catalog', name: 'Lineage Catalog', path: '/products/lineage-catalog' }],
  };
})();

/** Site paths under /blog, /solutions and /products a text names (templates such as `/blog/{slug}` left out). */
const pagePaths = (text: string): string[] =>
  [...new Set([...text.matchAll(/\/(?:blog|solutions|products)\/[^\s"'`)<>\]\\#?,]+/g)].map((m) => m[0].replace(/\.md$/, '')))].filter(
    (path) => !path.includes('{'),
  );

/** The `slug` and `product` values of a JSON text. */
const slugsOf = (text: string): string[] => [...text.matchAll(/"(?:slug|product)":\s*"([^"]*)"/g)].map((m) => m[1]!);

describe.each([
  ['the fixture', FIXTURE_CATALOG],
  ['a fork with none of its content', FORK],
])('the API description of %s', (_name, catalog) => {
  const served = JSON.stringify(apiDocumentOf(catalog));
  const pages = sitePages(catalog);
  const known = new Set(pages.map((p) => p.path));

  it('names only pages and slugs of its own catalogue (/openapi.json, and the twins of /docs/api)', () => {
    const referenceTwins = pages.filter((p) => p.path.startsWith('/docs/api')).map((p) => p.markdown);
    expect(referenceTwins.length).toBeGreaterThan(10);
    for (const text of [served, ...referenceTwins]) for (const path of pagePaths(text)) expect(known, path).toContain(path);
    const slugs = new Set([...documentsOf(catalog), ...catalog.products].map((d) => d.slug));
    expect(slugsOf(served).length).toBeGreaterThan(0);
    for (const slug of slugsOf(served)) expect(slugs, slug).toContain(slug);
  });

  it('its example search finds what its example answer shows, in the language it asks for', () => {
    const { search } = apiExamples(catalog);
    const engine = loadSearchIndex(buildSearchIndex(documentsOf(catalog)));
    const found = searchResults(engine, catalog.origin, search.query, {
      limit: 50,
      ...(search.lang ? { lang: search.lang } : {}),
    });
    expect(search.results.length).toBeGreaterThan(0);
    for (const shown of search.results) expect(found).toContainEqual(shown);
    // The Try it form (the parameters' examples) and the MCP and A2A examples send that query.
    const doc = apiDocumentOf(catalog) as { paths: Record<string, { get?: { parameters: { name: string; example?: unknown }[] } }> };
    const parameters = Object.fromEntries(doc.paths['/api/search']!.get!.parameters.map((p) => [p.name, p.example]));
    expect(parameters).toEqual({ q: search.query, limit: EXAMPLE_SEARCH_LIMIT, lang: search.lang });
    expect(served).toContain(`"arguments":{"query":${JSON.stringify(search.query)},"limit":${EXAMPLE_SEARCH_LIMIT}`);
    expect(served).toContain(`"parts":[{"text":${JSON.stringify(search.query)}}]`);
  });
});

describe("the API description's fixed examples", () => {
  it("name none of the original vendor's subject: the tweet feed's example is neutral (recheck N3)", () => {
    const served = JSON.stringify(apiDocumentOf(FORK));
    for (const word of ['speculative decoding', 'AI Infra', 'tokens/s', 'LLM', '私有化部署']) expect(served).not.toContain(word);
  });
});

describe('the examples of a fork', () => {
  it('search with its own Chinese tag, send feedback about its own article, enquire about its own product', () => {
    const examples = apiExamples(FORK);
    expect(examples.search.query).toBe('变更数据捕获');
    expect(examples.search.results.map((r) => r.slug)).toEqual(['cdc-ordering-guarantees-zh', 'column-lineage-from-sql-zh']);
    expect(examples.feedbackPage).toBe('/blog/cdc-ordering-guarantees');
    expect(examples.product?.slug).toBe('lineage-catalog');
  });

  it('of an empty site: a search with no answer, feedback about the blog, no product', () => {
    const empty = { ...FORK, articles: [], products: [] };
    expect(apiExamples(empty)).toEqual({ search: { query: 'Borealis Data', results: [] }, feedbackPage: '/blog' });
    const served = JSON.stringify(apiDocumentOf(empty));
    expect(pagePaths(served).filter((p) => p !== '/blog')).toEqual([]);
  });
});

describe('the tool schemas, which cannot see the catalogue', () => {
  it('name no page and no slug: the MCP tools, the WebMCP declarations and the enquiry', () => {
    const texts = [
      JSON.stringify(TOOLS.map((t) => t.listing)),
      JSON.stringify(webMcpListings()),
      JSON.stringify(jsonSchemaOf(ContactRequestSchema, 'input')),
    ];
    for (const text of texts) {
      expect(pagePaths(text)).toEqual([]);
      expect(text).not.toMatch(/\be\.g\. [a-z0-9]+-[a-z0-9-]+/);
      expect(text).not.toMatch(/e\.g\. \\?"/);
    }
  });
});
