/**
 * The serialised search index: a plain JSON object written at build time and loaded by the
 * search function (docs/reference/search.md §4). Columnar, with postings as a base64 varint stream so that a load
 * is one `JSON.parse` plus a few small base64 decodes.
 * @module
 */
import type { Lang } from '../content/catalog.ts';

/** Format version; bump it whenever the layout, the tokenizer or the term encoding changes. */
export const SEARCH_INDEX_VERSION = 1;

/** Han tokenization mode recorded in the index (bigrams need no ICU data, docs/reference/search.md §6.3). */
export const SEARCH_INDEX_MODE = 'bigram';

/**
 * Postings pack the doc-id gap and the usual term frequencies into one varint:
 * `gap × POSTING_GAP_MULTIPLIER + tfBody` when the term is not in the title and tfBody is 1 to
 * {@link MAX_INLINE_BODY_TF} (about 95% of postings); otherwise `gap × POSTING_GAP_MULTIPLIER`
 * followed by tfBody and tfTitle varints. Halves the postings bytes against three varints each.
 */
export const POSTING_GAP_MULTIPLIER = 4;
/** Largest body term frequency stored inline with the gap (see {@link POSTING_GAP_MULTIPLIER}). */
export const MAX_INLINE_BODY_TF = POSTING_GAP_MULTIPLIER - 1;

/** Document kinds, as stored in {@link SearchIndexData.tables}. */
export type DocumentType = 'article' | 'solution';

/**
 * The search index as written to `search-index.json`. Produced by `buildSearchIndex`, consumed by
 * `loadSearchIndex`; treat it as opaque outside those two.
 */
export interface SearchIndexData {
  /** Format version ({@link SEARCH_INDEX_VERSION}). */
  v: number;
  /** Han tokenization mode ({@link SEARCH_INDEX_MODE}). */
  mode: typeof SEARCH_INDEX_MODE;
  /** Hex content hash of the indexed input (non-cryptographic; for ETags and change detection). */
  hash: string;
  /** Number of documents. */
  N: number;
  /** Average body length in tokens. */
  avgB: number;
  /** Average title length in tokens. */
  avgT: number;
  /** Stored fields, one array per field, indexed by document id (documents are newest first). */
  docs: {
    slug: string[];
    title: string[];
    date: string[];
    excerpt: string[];
    path: string[];
    /** Index into `tables.category`. */
    category: number[];
    /** Index into `tables.type`. */
    type: number[];
    /** Index into `tables.lang`. */
    lang: number[];
  };
  /** Value tables for the small-set stored fields. */
  tables: { category: string[]; type: DocumentType[]; lang: Lang[] };
  /** Base64 little-endian Uint32 body token counts per document. */
  lenB: string;
  /** Base64 little-endian Uint32 title token counts per document. */
  lenT: string;
  /** Index terms, sorted by UTF-16 code units. */
  terms: string[];
  /** Base64 little-endian Uint32 byte offsets into `post`; `terms.length + 1` entries (the last one is the end). */
  off: string;
  /**
   * Base64 varint stream; per term: df, then per document in ascending id order either
   * `docGap·4 + tfBody` (no title match, tfBody 1–3) or `docGap·4, tfBody, tfTitle`.
   */
  post: string;
  /** Sorted unstemmed non-Han surface words, for prefix and typo matching. */
  lex: string[];
}

/**
 * The same index split into files so that a cold query reads only what it needs (BENCHMARKS.md,
 * "Search at 100,000 articles"): a head with everything a query needs before it knows its terms'
 * postings and its hits' ids, postings in shards of consecutive terms, stored fields in shards of
 * consecutive document ids. Written by `shardSearchIndex` from a {@link SearchIndexData}, read by
 * `loadShardedSearchIndex` through a loader. The head and stored fields are ASCII JSON; postings
 * shards are binary (the varint bytes as they are: no base64 to decode, and they deflate to 15%
 * less in the function's archive). Every file names the index's `hash`, so a mix of two builds'
 * files is refused.
 */
export const SEARCH_SHARDS_FORMAT = 'shards';

/** The head file's name; shard names come from {@link postingsShardFile} and {@link storedFieldsShardFile}. */
export const SEARCH_HEAD_FILE = 'head.json';
/** File name of postings shard `k`. */
export const postingsShardFile = (k: number): string => `postings-${k}.bin`;
/** File name of stored-fields shard `k`. */
export const storedFieldsShardFile = (k: number): string => `docs-${k}.json`;

/** The head: counts, lengths, the term dictionary and the lexicon (no postings, no stored text). */
export interface SearchIndexHead
  extends Pick<SearchIndexData, 'v' | 'mode' | 'hash' | 'N' | 'avgB' | 'avgT' | 'tables' | 'lenB' | 'lenT' | 'terms' | 'lex'> {
  format: typeof SEARCH_SHARDS_FORMAT;
  /** Category of each document (index into `tables.category`): the category filter runs before any stored field is read. */
  category: number[];
  /** Base64 little-endian Uint32 document frequency per term (what prefix, typo and unigram expansion rank by). */
  df: string;
  /** First term id of each postings shard, ascending, the first one 0: shard k holds terms `[starts[k], starts[k + 1])`. */
  postingShards: number[];
  /** Documents per stored-fields shard: shard k holds ids `[k·size, (k + 1)·size)`. */
  docsPerShard: number;
}

/**
 * Postings shard layout (little-endian): u32 format version, the content hash as 16 ASCII bytes,
 * u32 id of the shard's first term, u32 term count n, n + 1 u32 byte offsets into the stream (the
 * last one is its end), then the varint stream: per term, the same bytes as in
 * {@link SearchIndexData.post}.
 */
export const POSTINGS_SHARD_HEADER_BYTES = 28;
/** Length of {@link SearchIndexData.hash}: 16 hex digits. */
export const SEARCH_INDEX_HASH_CHARS = 16;

/** Stored fields of the documents `[first, first + slug.length)`, columns as in {@link SearchIndexData.docs}. */
export interface StoredFieldsShardData extends Omit<SearchIndexData['docs'], 'category'> {
  v: number;
  hash: string;
  /** Id of the shard's first document. */
  first: number;
}
