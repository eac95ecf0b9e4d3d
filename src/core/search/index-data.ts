/**
 * The search index file (docs/reference/search.md §4): one binary file, written at build time
 * (`buildSearchIndex`) and read by byte range (`loadSearchIndex`), so that a cold query reads only
 * what it needs (BENCHMARKS.md, "Search index"): the functions read ranges of the file shipped beside
 * them, the /search page downloads the whole file of a small site and reads the same ranges in memory.
 *
 * Layout: a 12-byte preamble ({@link SEARCH_INDEX_MAGIC}, u32 LE {@link SEARCH_INDEX_VERSION}, u32 LE
 * byte length of the head), the head ({@link SearchIndexHead}, UTF-8 JSON), then the sections the
 * head locates ({@link SearchIndexSections}). Every integer in a section is an unsigned LEB128 varint
 * unless said otherwise.
 * @module
 */
import type { Lang } from '../content/catalog.ts';

/** Format version; bump it whenever the layout, the tokenizer or the term encoding changes. */
export const SEARCH_INDEX_VERSION = 3;

/** The file's first four bytes, ASCII. */
export const SEARCH_INDEX_MAGIC = 'SIDX';
/** Bytes before the head: the magic, the version and the head's length. */
export const SEARCH_INDEX_PREAMBLE_BYTES = 12;

/** Han tokenization mode recorded in the index (bigrams need no ICU data, docs/reference/search.md §6.3). */
export const SEARCH_INDEX_MODE = 'bigram';

/** Name of the index file in the functions' data folder (generated/data/search/). */
export const SEARCH_INDEX_FILE = 'index.bin';

/**
 * Postings pack the doc-id gap and the usual term frequencies into one varint:
 * `gap × POSTING_GAP_MULTIPLIER + tfBody` when the term is not in the title and tfBody is 1 to
 * {@link MAX_INLINE_BODY_TF} (about 95% of postings); otherwise `gap × POSTING_GAP_MULTIPLIER`
 * followed by tfBody and tfTitle varints. Halves the postings bytes against three varints each.
 */
export const POSTING_GAP_MULTIPLIER = 4;
/** Largest body term frequency stored inline with the gap (see {@link POSTING_GAP_MULTIPLIER}). */
export const MAX_INLINE_BODY_TF = POSTING_GAP_MULTIPLIER - 1;

/** Document kinds, as stored in {@link SearchIndexHead.tables}. */
export type DocumentType = 'article' | 'solution';

/** A byte range `[start, end)` of the file. */
export type ByteRange = [start: number, end: number];

/**
 * A sorted list of strings stored in blocks of a fixed number of entries (the last may be shorter),
 * so that a lookup reads one block: the head keeps each block's first string and where it starts.
 */
export interface StringBlocksHead {
  /** Number of strings. */
  count: number;
  /** Strings per block. */
  blockSize: number;
  /** The first string of each block. */
  first: string[];
  /** Byte offset of each block in its section, then the section's length (`first.length + 1` entries). */
  at: number[];
}

/**
 * Where each section lies: byte ranges relative to the first byte after the head. Documents are numbered newest first (then by slug), the
 * tie-break order of equal scores.
 * - `lengths`: body token count of each document, then title token count of each document.
 * - `category`: each document's category, as an index into `tables.category`.
 * - `lang`: each document's language, as an index into `tables.lang` (the language filter).
 * - `terms`: the index terms, sorted by UTF-16 code units (a term's id is its position), in blocks
 *   ({@link SearchIndexHead.terms}); per term: UTF-8 byte length, the UTF-8 bytes, document
 *   frequency, byte length of its postings.
 * - `lex`: the unstemmed non-Han surface words, sorted, for prefix and typo matching, in blocks
 *   ({@link SearchIndexHead.lex}); per word: UTF-8 byte length and bytes.
 * - `postings`: per term in id order: document frequency, then per document in ascending id order
 *   either `docGap·4 + tfBody` or `docGap·4, tfBody, tfTitle` ({@link POSTING_GAP_MULTIPLIER}).
 * - `storedAt`: u32 LE byte offset into `stored` of each document's stored fields, then its end.
 * - `stored`: per document, UTF-8 JSON `[slug, title, date, excerpt, path, category, type, lang]`
 *   (the last three as indexes into `tables`): a hit's category is read with its other fields, so
 *   only a category filter reads the `category` section, and only a language filter the `lang` one.
 */
export interface SearchIndexSections {
  lengths: ByteRange;
  category: ByteRange;
  lang: ByteRange;
  terms: ByteRange;
  lex: ByteRange;
  postings: ByteRange;
  storedAt: ByteRange;
  stored: ByteRange;
}

/** The head: what every query needs before it knows its terms, and where everything else lies. */
export interface SearchIndexHead {
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
  /** Value tables of the small-set stored fields. */
  tables: { category: string[]; type: DocumentType[]; lang: Lang[] };
  sections: SearchIndexSections;
  terms: StringBlocksHead;
  /** Byte offset in `postings` of the first term of each term block. */
  postingsAt: number[];
  lex: StringBlocksHead;
}

/** Length of {@link SearchIndexHead.hash}: 16 hex digits. */
export const SEARCH_INDEX_HASH_CHARS = 16;
