/** The sharded catalogue: what the build writes, and that its reader answers as the in-memory one. */
import { describe, expect, it } from 'vitest';
import { catalogIndex, type CatalogIndex } from './catalog.ts';
import { inMemoryCatalog, loadShardedCatalog, type CatalogReader } from './catalog-reader.ts';
import { CATALOG_HEAD_FILE, CATALOG_SHARDS_VERSION, catalogDocumentsFile, shardCatalog, type CatalogHead } from './catalog-shards.ts';
import { FIXTURE_CATALOG, largeCatalog } from '../../../tests/support/core-fixtures.ts';

const encoder = new TextEncoder();
/** A loader over files in memory that records what it read. */
function loaderOver(files: ReadonlyMap<string, string>): { load: (file: string) => Uint8Array; read: string[] } {
  const read: string[] = [];
  const load = (file: string): Uint8Array => {
    const text = files.get(file);
    if (text === undefined) throw new Error(`no file ${file}`);
    read.push(file);
    return encoder.encode(text);
  };
  return { load, read };
}

/** JSON's view of a value: a key with an undefined value and a missing key are the same answer. */
const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value ?? null));

const INDEX: CatalogIndex = catalogIndex(largeCatalog(1_234));
const FILES = shardCatalog(INDEX, { documentsPerFile: 200, slugsPerFile: 300 });
const docs = [...INDEX.articles, ...INDEX.solutions];

describe('shardCatalog', () => {
  it('writes a head, documents files of 200 and slug files, all stamped with one build hash', () => {
    const head = JSON.parse(FILES.get(CATALOG_HEAD_FILE)!) as CatalogHead;
    expect(head).toMatchObject({ v: CATALOG_SHARDS_VERSION, documents: 1_234, documentsPerFile: 200, slugFiles: 5, origin: INDEX.origin });
    expect(head.hash).toMatch(/^[0-9a-f]{16}$/);
    const zh = docs.filter((d) => d.lang === 'zh').length;
    expect(zh).toBeGreaterThan(0);
    expect(head.documentsByLang).toEqual({ zh, en: 1_234 - zh });
    expect([...FILES.keys()].sort()).toEqual(
      [
        CATALOG_HEAD_FILE,
        ...Array.from({ length: 7 }, (_, k) => `docs-${k}.json`),
        ...Array.from({ length: 5 }, (_, k) => `slugs-${k}.json`),
      ].sort(),
    );
    for (const text of FILES.values()) expect(JSON.parse(text)).toMatchObject({ v: CATALOG_SHARDS_VERSION, hash: head.hash });
    // Every slug is in exactly one slug file, and the slugs spread over all of them.
    const perFile = [...FILES]
      .filter(([name]) => name.startsWith('slugs-'))
      .map(([, text]) => (JSON.parse(text) as { slugs: string[] }).slugs);
    expect(perFile.flat().sort()).toEqual(docs.map((d) => d.slug).sort());
    for (const slugs of perFile) expect(slugs.length).toBeGreaterThan(150);
  });

  it('stamps another catalogue with another hash', () => {
    const other = shardCatalog({ ...INDEX, articles: INDEX.articles.slice(1) });
    expect(JSON.parse(other.get(CATALOG_HEAD_FILE)!).hash).not.toBe(JSON.parse(FILES.get(CATALOG_HEAD_FILE)!).hash);
  });

  it.each([
    [
      'a slug used twice',
      { ...INDEX, solutions: [...INDEX.solutions, { ...INDEX.solutions[0]!, slug: INDEX.articles[0]!.slug }] },
      /used more than once/,
    ],
    ['articles not newest first', { ...INDEX, articles: [...INDEX.articles].reverse() }, /articles are not newest first/],
    [
      'a page path that is not its kind’s',
      { ...INDEX, articles: [{ ...INDEX.articles[0]!, path: '/elsewhere/x' }, ...INDEX.articles.slice(1)] },
      /has the path \/elsewhere\/x/,
    ],
  ])('refuses %s', (_name, index, message) => {
    expect(() => shardCatalog(index as CatalogIndex)).toThrow(message);
  });
});

describe('loadShardedCatalog answers as inMemoryCatalog', () => {
  const memory = inMemoryCatalog(INDEX);
  const sharded = loadShardedCatalog(loaderOver(FILES).load);

  it('the head: origin, company, categories, products, document count', () => {
    for (const key of ['origin', 'company', 'categories', 'products', 'documentCount', 'documentCountByLang'] as const)
      expect(sharded[key]).toEqual(memory[key]);
  });

  it('every slug, and slugs it does not have (an object key of JSON is not a slug)', () => {
    for (const { slug } of docs) expect(asJson(sharded.document(slug)), slug).toEqual(asJson(memory.document(slug)));
    for (const slug of ['nope', '', '__proto__', 'constructor', 'toString', `${docs[0]!.slug} `])
      expect(sharded.document(slug), slug).toBeUndefined();
  });

  it.each([
    [0, 1_234],
    [0, 100],
    [150, 450],
    [199, 201],
    [1_200, 1_300],
    [1_234, 1_300],
    [5, 2],
    [-5, 3],
  ])('documents(%i, %i)', (start, end) => {
    expect(asJson(sharded.documents(start, end))).toEqual(asJson(memory.documents(start, end)));
  });

  it('all(): the catalogue index the files were written from, lists in their order', () => {
    expect(asJson(sharded.all())).toEqual(asJson(INDEX));
    expect(sharded.all()).toBe(sharded.all());
  });

  it('the fixture catalogue too (a solution between articles, products out of order)', () => {
    const index = catalogIndex(FIXTURE_CATALOG);
    const reader: CatalogReader = loadShardedCatalog(loaderOver(shardCatalog(index)).load);
    expect(asJson(reader.all())).toEqual(asJson(index));
    expect(asJson(reader.documents(0, 10))).toEqual(asJson(inMemoryCatalog(index).documents(0, 10)));
  });
});

describe('what a reader reads', () => {
  it('the head at load; one slug file and one documents file for a slug; each file once', () => {
    const { load, read } = loaderOver(FILES);
    const reader = loadShardedCatalog(load);
    expect(read).toEqual([CATALOG_HEAD_FILE]);
    const slug = docs[700]!.slug;
    reader.document(slug);
    expect(read).toHaveLength(3);
    expect(read[1]).toMatch(/^slugs-\d\.json$/);
    expect(read[2]).toMatch(/^docs-\d\.json$/);
    reader.document(slug);
    reader.documents(0, 0);
    expect(read).toHaveLength(3);
  });

  it('one documents file for a range inside it, two for one across a boundary, none for an empty one', () => {
    const { load, read } = loaderOver(FILES);
    const reader = loadShardedCatalog(load);
    reader.documents(200, 300);
    expect(read).toEqual([CATALOG_HEAD_FILE, catalogDocumentsFile(1)]);
    reader.documents(350, 450);
    expect(read).toEqual([CATALOG_HEAD_FILE, catalogDocumentsFile(1), catalogDocumentsFile(2)]);
    reader.documents(1_234, 1_300);
    expect(read).toHaveLength(3);
  });
});

describe('a broken deploy is refused, not misread', () => {
  it('a head of another format version', () => {
    const files = new Map(FILES).set(
      CATALOG_HEAD_FILE,
      JSON.stringify({ ...JSON.parse(FILES.get(CATALOG_HEAD_FILE)!), v: CATALOG_SHARDS_VERSION + 1 }),
    );
    expect(() => loadShardedCatalog(loaderOver(files).load)).toThrow(
      new RegExp(`version ${CATALOG_SHARDS_VERSION + 1}, expected ${CATALOG_SHARDS_VERSION}`),
    );
  });

  it("another build's documents file", () => {
    const other = shardCatalog({ ...INDEX, company: { ...INDEX.company, name: 'Other' } }, { documentsPerFile: 200, slugsPerFile: 300 });
    const files = new Map(FILES).set(catalogDocumentsFile(3), other.get(catalogDocumentsFile(3))!);
    const reader = loadShardedCatalog(loaderOver(files).load);
    expect(reader.documents(0, 10)).toHaveLength(10);
    expect(() => reader.documents(600, 610)).toThrow(/docs-3\.json is not from the same build/);
  });

  it('a missing file', () => {
    const files = new Map(FILES);
    files.delete(catalogDocumentsFile(6));
    expect(() => loadShardedCatalog(loaderOver(files).load).all()).toThrow(/no file docs-6\.json/);
  });
});
