/**
 * The MCP server over the sharded catalogue (the files the build writes: shardCatalog) answers
 * exactly as over the same catalogue in memory, byte for byte, and a cold answer reads only the
 * files it needs: a resources/list page its documents file, get_article and resources/read one slug
 * file and one documents file (the reason for the shards: BENCHMARKS.md, "Cold start and bundle sizes").
 */
import { describe, expect, it } from 'vitest';
import { bodiesOf, catalogIndex } from '../content/catalog.ts';
import { inMemoryCatalog, loadShardedCatalog, type CatalogReader } from '../content/catalog-reader.ts';
import { CATALOG_HEAD_FILE, catalogDocumentsFile, shardCatalog } from '../content/catalog-shards.ts';
import { encodeCursor } from '../kernel/cursor.ts';
import { FIXTURE_DEPS, largeCatalog, mcpRequest } from '../../../tests/support/core-fixtures.ts';
import { handleMcp, type McpDeps } from './server.ts';

// 1,050 documents, 2 products, 2 categories: 11 pages of resources/list, 6 documents files, 3 slug files.
const CATALOG = largeCatalog(1_050);
const INDEX = catalogIndex(CATALOG);
const FILES = shardCatalog(INDEX);
const SLUGS = [...INDEX.articles, ...INDEX.solutions].map((d) => d.slug);
const ORIGIN = INDEX.origin;
const encoder = new TextEncoder();

const inMemory: McpDeps = { ...FIXTURE_DEPS, catalog: inMemoryCatalog(INDEX), bodies: bodiesOf(CATALOG), authorize: async () => null };
/** Slugs by position in newest-first order: the 701st document is in documents file 3 (600–799), the 31st in file 0. */
const NEWEST_FIRST = inMemory.catalog.documents(0, 1_050);

/** Deps over the files, the catalogue loaded on first read as the MCP function does; `read` lists the files read. */
function sharded(): { deps: McpDeps; read: string[]; bytes: () => number } {
  const read: string[] = [];
  let bytes = 0;
  let catalog: CatalogReader | undefined;
  const load = (file: string): Uint8Array => {
    const data = encoder.encode(FILES.get(file) ?? '');
    if (!FILES.has(file)) throw new Error(`no file ${file}`);
    read.push(file);
    bytes += data.length;
    return data;
  };
  const deps: McpDeps = {
    ...inMemory,
    get catalog() {
      catalog ??= loadShardedCatalog(load);
      return catalog;
    },
  };
  return { deps, read, bytes: () => bytes };
}

/** Status and body of one handshake-era request. */
async function answer(deps: McpDeps, method: string, params?: unknown): Promise<string> {
  const res = await handleMcp(
    mcpRequest({ jsonrpc: '2.0', id: 1, method, ...(params === undefined ? {} : { params }) }, { 'mcp-protocol-version': '2025-11-25' }),
    deps,
  );
  return `${res.status} ${await res.text()}`;
}

const result = (text: string): Record<string, unknown> => JSON.parse(text.slice(text.indexOf(' ') + 1)).result;

describe('over the sharded catalogue, the same answers as in memory', () => {
  const files = sharded().deps;

  it('every resources/list page, and cursors the server did not issue', async () => {
    const uris: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const params = cursor === undefined ? {} : { cursor };
      const text = await answer(files, 'resources/list', params);
      expect(text, `page ${pages}`).toBe(await answer(inMemory, 'resources/list', params));
      const page = result(text) as { resources: { uri: string }[]; nextCursor?: string };
      uris.push(...page.resources.map((r) => r.uri));
      cursor = page.nextCursor;
      pages++;
    } while (cursor !== undefined);
    expect(pages).toBe(11);
    expect(new Set(uris).size).toBe(1_054);
    for (const foreign of [
      encodeCursor(150),
      encodeCursor(1_049),
      encodeCursor(1_053),
      encodeCursor(1_054),
      encodeCursor(99_999),
      'nope',
      '',
      7,
    ]) {
      expect(await answer(files, 'resources/list', { cursor: foreign }), String(foreign)).toBe(
        await answer(inMemory, 'resources/list', { cursor: foreign }),
      );
    }
    expect(
      (result(await answer(files, 'resources/list', { cursor: encodeCursor(150) })) as { resources: unknown[] }).resources,
    ).toHaveLength(100);
  });

  it('resources/read of every resource, and of URIs no resource has', async () => {
    const listing = [0, ...Array.from({ length: 10 }, (_, i) => 100 * (i + 1))].map((at) =>
      answer(inMemory, 'resources/list', at ? { cursor: encodeCursor(at) } : {}),
    );
    const uris = (await Promise.all(listing)).flatMap((text) =>
      (result(text) as { resources: { uri: string }[] }).resources.map((r) => r.uri),
    );
    const solution = INDEX.solutions[0]!.slug;
    const unknown = [
      `${ORIGIN}/blog/nope.md`,
      `${ORIGIN}/blog/${solution}.md`,
      `${ORIGIN}/solutions/${SLUGS[0]}.md`,
      `${ORIGIN}/blog/category/${SLUGS[0]}.md`,
      `${ORIGIN}/blog/${SLUGS[0]}`,
      `${ORIGIN}/blog/${SLUGS[0]!.replace('-', '%2D')}.md`,
      `${ORIGIN}/blog/%E4%B8%AD.md`,
      `${ORIGIN}/blog/%.md`,
      `${ORIGIN}/products/.md`,
      'https://other.example/blog/doc-00001.md',
      'doc-00001',
    ];
    for (const uri of [...uris, ...unknown])
      expect(await answer(files, 'resources/read', { uri }), uri).toBe(await answer(inMemory, 'resources/read', { uri }));
    expect(uris).toHaveLength(1_054);
  });

  it('get_article of every slug, and of slugs no document has', async () => {
    for (const slug of [...SLUGS, 'nope', '__proto__', ` ${SLUGS[3]} `]) {
      const params = { name: 'get_article', arguments: { slug } };
      expect(await answer(files, 'tools/call', params), slug).toBe(await answer(inMemory, 'tools/call', params));
    }
  });

  it('export_article_index page by page, resources/templates/list and completion/complete', async () => {
    let cursor: string | undefined;
    do {
      const params = { name: 'export_article_index', arguments: { limit: 300, ...(cursor ? { cursor } : {}) } };
      const text = await answer(files, 'tools/call', params);
      expect(text).toBe(await answer(inMemory, 'tools/call', params));
      cursor = (result(text) as { structuredContent: { next_cursor?: string } }).structuredContent.next_cursor;
    } while (cursor !== undefined);
    expect(await answer(files, 'resources/templates/list')).toBe(await answer(inMemory, 'resources/templates/list'));
    for (const [uri, name, value] of [
      [`${ORIGIN}/blog/{slug}.md`, 'slug', 'doc-001'],
      [`${ORIGIN}/solutions/{slug}.md`, 'slug', ''],
      [`${ORIGIN}/blog/category/{category}.md`, 'category', 'a'],
    ] as const) {
      const params = { ref: { type: 'ref/resource', uri }, argument: { name, value } };
      expect(await answer(files, 'completion/complete', params)).toBe(await answer(inMemory, 'completion/complete', params));
    }
  });
});

describe('a cold answer reads only its files', () => {
  const total = [...FILES.values()].reduce((sum, text) => sum + encoder.encode(text).length, 0);
  const slugFile = /^slugs-\d\.json$/;

  it.each([
    ['initialize', 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } }, []],
    ['resources/templates/list', 'resources/templates/list', undefined, [CATALOG_HEAD_FILE]],
    ['resources/list, first page', 'resources/list', {}, [CATALOG_HEAD_FILE, catalogDocumentsFile(0)]],
    ['resources/list, page 6', 'resources/list', { cursor: encodeCursor(500) }, [CATALOG_HEAD_FILE, catalogDocumentsFile(2)]],
    ['resources/list, last page', 'resources/list', { cursor: encodeCursor(1_000) }, [CATALOG_HEAD_FILE, catalogDocumentsFile(5)]],
    ['resources/read of a product', 'resources/read', { uri: `${ORIGIN}/products/gateway.md` }, [CATALOG_HEAD_FILE]],
    [
      'get_article',
      'tools/call',
      { name: 'get_article', arguments: { slug: NEWEST_FIRST[700]!.slug } },
      [CATALOG_HEAD_FILE, slugFile, catalogDocumentsFile(3)],
    ],
    [
      'resources/read of an article',
      'resources/read',
      { uri: `${ORIGIN}${NEWEST_FIRST[30]!.path}.md` },
      [CATALOG_HEAD_FILE, slugFile, catalogDocumentsFile(0)],
    ],
    ['get_article of an unknown slug', 'tools/call', { name: 'get_article', arguments: { slug: 'nope' } }, [CATALOG_HEAD_FILE, slugFile]],
  ])('%s', async (_name, method, params, expected) => {
    const { deps, read, bytes } = sharded();
    expect((await answer(deps, method, params)).startsWith('200 ')).toBe(true);
    expect(read).toHaveLength(expected.length);
    for (const [i, file] of expected.entries()) {
      if (typeof file === 'string') expect(read[i]).toBe(file);
      else expect(read[i]).toMatch(file);
    }
    expect(bytes()).toBeLessThan(total / 4); // of 10 files
  });

  it('a category listing reads every documents file (its articles), once', async () => {
    const { deps, read } = sharded();
    await answer(deps, 'resources/read', { uri: `${ORIGIN}/blog/category/rag.md` });
    await answer(deps, 'resources/read', { uri: `${ORIGIN}/blog/category/ai-agents.md` });
    expect(read).toEqual([CATALOG_HEAD_FILE, ...Array.from({ length: 6 }, (_, k) => catalogDocumentsFile(k))]);
  });
});
