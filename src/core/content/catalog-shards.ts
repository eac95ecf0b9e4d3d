/**
 * The catalogue without bodies as files, so that a function reads only what one answer needs
 * (BENCHMARKS.md, "Cold start and bundle sizes"): a small head (origin, company, categories,
 * products, counts), the documents' metadata in files of {@link DOCUMENTS_PER_FILE} consecutive
 * documents in {@link documentsOf} order (newest first: the order of MCP `resources/list` and of
 * the export), and slug files that say where each slug stands in that order, the slugs spread
 * over them by a hash of the slug. Written by the build ({@link shardCatalog}), read by
 * `loadShardedCatalog` (catalog-reader.ts). Every file names the build's hash, so a mix of two
 * builds' files is refused.
 *
 * Each document is stored once. Pages of listing entries beside slug-hashed metadata shards (the
 * first plan) would store every title and excerpt twice: at 10,000 articles that put the MCP
 * function's archive over its 5 MB budget; this layout keeps it under (BENCHMARKS.md, "Cold start and bundle sizes").
 * @module
 */
import { ContentHash } from '../kernel/content-hash.ts';
import { paths } from '../kernel/paths.ts';
import { byNewest, documentsOf, duplicateSlugs, type ArticleMeta, type CatalogIndex, type Lang, type SolutionMeta } from './catalog.ts';

/** Format version; bump it whenever the layout changes. */
export const CATALOG_SHARDS_VERSION = 2;
/**
 * Documents per documents file: two MCP `resources/list` pages of 100, so that a page the server
 * issues is in one file. Not 100: each file deflates on its own in the function's archive, and at
 * 10,000 articles files of 100 documents cost the `mcp` archive more than it has room for
 * (BENCHMARKS.md, "Cold start and bundle sizes").
 */
export const DOCUMENTS_PER_FILE = 200;
/** Slugs per slug file, about: one small file, read by a cold `get_article` before its documents file. */
export const SLUGS_PER_FILE = 500;

/** The head file's name. */
export const CATALOG_HEAD_FILE = 'head.json';
/** File name of documents file `k` (documents `[k·DOCUMENTS_PER_FILE, (k + 1)·DOCUMENTS_PER_FILE)`). */
export const catalogDocumentsFile = (k: number): string => `docs-${k}.json`;
/** File name of slug file `k`. */
export const catalogSlugsFile = (k: number): string => `slugs-${k}.json`;

/** An article or solution without its body, as the catalogue stores it. */
export type CatalogDocument = ArticleMeta | SolutionMeta;

/** What every catalogue file carries: the format version and the build's hash. */
export interface CatalogFileStamp {
  v: number;
  hash: string;
}

/** The head: everything but the documents, and how the documents are split. */
export interface CatalogHead extends CatalogFileStamp, Omit<CatalogIndex, 'articles' | 'solutions'> {
  /** Number of articles and solutions. */
  documents: number;
  /** Of those, how many are in each language (the export's language filter reports its total from it). */
  documentsByLang: Record<Lang, number>;
  documentsPerFile: number;
  /** Number of slug files. */
  slugFiles: number;
}

/**
 * Documents `[first, first + n)`, as columns: one array per metadata field, `null` where a
 * document has no value (columns deflate 10% smaller than one object per document: the titles sit
 * together, the excerpts together).
 */
export interface CatalogDocumentsFile extends CatalogFileStamp {
  first: number;
  columns: Record<string, unknown[]>;
}

/** The slugs of one hash bucket and the position of each in {@link documentsOf} order. */
export interface CatalogSlugsFile extends CatalogFileStamp {
  slugs: string[];
  at: number[];
}

/** The slug file that holds `slug`, of `files`. */
export function slugFileOf(slug: string, files: number): number {
  return new ContentHash().field(slug).uint32() % files;
}

/**
 * The files of the sharded catalogue, name to JSON text. Throws when the catalogue breaks what the
 * readers rely on: unique slugs, each list newest first (the reader rebuilds `articles` and
 * `solutions` from the one newest-first order), each document at its kind's page path (the MCP
 * server and the A2A agent find a document from its URL's last segment).
 *
 * @example
 * for (const [name, text] of shardCatalog(catalogIndex(catalog))) await writeFile(path.join(dir, name), text);
 */
export function shardCatalog(index: CatalogIndex, options: { documentsPerFile?: number; slugsPerFile?: number } = {}): Map<string, string> {
  const documentsPerFile = options.documentsPerFile ?? DOCUMENTS_PER_FILE;
  const docs: CatalogDocument[] = documentsOf(index);
  assertShardable(index, docs);
  const { articles: _articles, solutions: _solutions, ...facts } = index;
  const stamp: CatalogFileStamp = {
    v: CATALOG_SHARDS_VERSION,
    hash: new ContentHash().field(`v${CATALOG_SHARDS_VERSION}`).field(JSON.stringify(index)).hex(),
  };
  const files = new Map<string, string>();

  for (let first = 0, k = 0; first < docs.length; first += documentsPerFile, k++) {
    const slice = docs.slice(first, first + documentsPerFile);
    const fields = [...new Set(slice.flatMap((doc) => Object.keys(doc)))];
    const columns = Object.fromEntries(
      fields.map((field) => [field, slice.map((doc) => (doc as unknown as Record<string, unknown>)[field] ?? null)]),
    );
    files.set(catalogDocumentsFile(k), JSON.stringify({ ...stamp, first, columns } satisfies CatalogDocumentsFile));
  }

  const slugFiles = Math.max(1, Math.ceil(docs.length / (options.slugsPerFile ?? SLUGS_PER_FILE)));
  const buckets = Array.from({ length: slugFiles }, () => ({ slugs: [] as string[], at: [] as number[] }));
  docs.forEach((doc, at) => {
    const bucket = buckets[slugFileOf(doc.slug, slugFiles)]!;
    bucket.slugs.push(doc.slug);
    bucket.at.push(at);
  });
  for (const [k, bucket] of buckets.entries())
    files.set(catalogSlugsFile(k), JSON.stringify({ ...stamp, ...bucket } satisfies CatalogSlugsFile));

  const head: CatalogHead = { ...stamp, ...facts, documents: docs.length, documentsByLang: countByLang(docs), documentsPerFile, slugFiles };
  files.set(CATALOG_HEAD_FILE, JSON.stringify(head));
  return files;
}

/** How many of `docs` are in each language. */
export function countByLang(docs: readonly CatalogDocument[]): Record<Lang, number> {
  const counts: Record<Lang, number> = { zh: 0, en: 0 };
  for (const doc of docs) counts[doc.lang]++;
  return counts;
}

function assertShardable(index: CatalogIndex, docs: readonly CatalogDocument[]): void {
  const dupes = duplicateSlugs(docs);
  if (dupes.length) throw new Error(`catalogue: slugs used more than once: ${dupes.join(', ')}`);
  for (const [name, list] of [
    ['articles', index.articles],
    ['solutions', index.solutions],
  ] as const) {
    const at = list.findIndex((doc, i) => i > 0 && byNewest(list[i - 1]!, doc) > 0);
    if (at > 0) throw new Error(`catalogue: ${name} are not newest first (${list[at - 1]!.slug} before ${list[at]!.slug})`);
  }
  for (const doc of docs) {
    const page = doc.type === 'article' ? paths.article(doc.slug) : paths.solution(doc.slug);
    if (doc.path !== page) throw new Error(`catalogue: ${doc.type} ${doc.slug} has the path ${doc.path}, not ${page}`);
  }
}
