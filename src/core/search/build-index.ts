/**
 * Build side of site search: turns the searchable documents into the search index file
 * (docs/reference/search.md §4; layout in index-data.ts). Runs during the site build.
 * @module
 */
import { byNewest, duplicateSlugs, type Document } from '../content/catalog.ts';
import { ContentHash } from '../kernel/content-hash.ts';
import { ByteWriter } from './codec.ts';
import {
  MAX_INLINE_BODY_TF,
  POSTING_GAP_MULTIPLIER,
  SEARCH_INDEX_MAGIC,
  SEARCH_INDEX_MODE,
  SEARCH_INDEX_PREAMBLE_BYTES,
  SEARCH_INDEX_VERSION,
  type ByteRange,
  type DocumentType,
  type SearchIndexHead,
  type SearchIndexSections,
  type StringBlocksHead,
} from './index-data.ts';
import { markdownToSearchText } from './markdown-text.ts';
import { forEachToken, type TokenKind } from './tokenize.ts';

/**
 * Terms per dictionary block: a term lookup reads one block (≈ 0.8 KB at 10,000 articles) and the
 * head keeps one first term per block. Smaller blocks grow the head, larger ones every lookup.
 */
export const TERMS_PER_BLOCK = 64;
/** Lexicon words per block: a prefix expansion reads the blocks its prefix spans (as {@link TERMS_PER_BLOCK}). */
export const LEX_WORDS_PER_BLOCK = 64;

/** Block sizes of the index file (tests use tiny ones to cross every block boundary), and the terms cache. */
export interface SearchIndexOptions {
  termsPerBlock?: number;
  lexWordsPerBlock?: number;
  /**
   * Each document's terms from an earlier build, by {@link documentTermsKey}: tokenizing is most of the
   * index's build time, and an edit changes one document's terms (src/astro/search-index.ts keeps them
   * between builds). A document it does not hold is tokenized and `set`.
   */
  termsCache?: DocumentTermsCache;
}

/** One document's terms as the index counts them (the title's and the body's, each with its count) and its words. */
export interface DocumentTerms {
  title: string[];
  titleCounts: number[];
  body: string[];
  bodyCounts: number[];
  /** The surface words the prefix lexicon gets from the document. */
  words: string[];
}

/** Where {@link buildSearchIndex} finds and leaves {@link DocumentTerms}. */
export interface DocumentTermsCache {
  get(key: string): DocumentTerms | undefined;
  set(key: string, terms: DocumentTerms): void;
  /**
   * A key the caller already has for everything `doc`'s terms are counted from (its source file's digest, say), or
   * undefined: then {@link documentTermsKey} hashes the fields, which is most of an edit's index time.
   */
  keyOf?(doc: Document): string | undefined;
}

/** The key of a document's {@link DocumentTerms}: a hash of every field they are counted from. */
export function documentTermsKey(doc: Pick<Document, 'title' | 'excerpt' | 'tags' | 'markdown'>): string {
  const hash = new ContentHash().field(doc.title).field(doc.excerpt).field(String(doc.tags.length));
  for (const tag of doc.tags) hash.field(tag);
  return hash.field(doc.markdown).hex();
}

/** A document's terms from `cache`, or counted (and left in `cache`). */
function cachedTerms(doc: Document, cache: DocumentTermsCache | undefined): DocumentTerms {
  if (!cache) return countDocumentTerms(doc);
  const key = cache.keyOf?.(doc) ?? documentTermsKey(doc);
  const known = cache.get(key);
  if (known) return known;
  const counted = countDocumentTerms(doc);
  cache.set(key, counted);
  return counted;
}

/** Tokenizes a document's title and searchable body into {@link DocumentTerms}. */
export function countDocumentTerms(doc: Document): DocumentTerms {
  const words = new Set<string>();
  const counter =
    (into: Map<string, number>) =>
    (term: string, _kind: TokenKind, word: string | null): void => {
      into.set(term, (into.get(term) ?? 0) + 1);
      if (word !== null) words.add(word);
    };
  const title = new Map<string, number>();
  const body = new Map<string, number>();
  forEachToken(doc.title, counter(title));
  forEachToken(searchableBody(doc), counter(body));
  return {
    title: [...title.keys()],
    titleCounts: [...title.values()],
    body: [...body.keys()],
    bodyCounts: [...body.values()],
    words: [...words],
  };
}

/** Per-term postings while building: flat (docId, tfBody, tfTitle) triples in ascending doc order. */
type PostingsBuilder = number[];

/**
 * Builds the search index file over `docs` (articles and solutions).
 *
 * Indexed fields: the title, and a body made of the excerpt, the tags and the markdown text (code
 * included, URLs and markup dropped). Stored fields: slug, title, category, date, excerpt, type,
 * path, lang. Documents are ordered newest first (then by slug), which is also the tie-break order
 * of equal scores at query time. Deterministic: the same documents in any order give the same
 * bytes. Throws if two documents share a slug.
 *
 * @example
 * await writeFile('generated/data/search/index.bin', buildSearchIndex(documentsOf(catalog)));
 */
export function buildSearchIndex(docs: readonly Document[], options: SearchIndexOptions = {}): Uint8Array {
  const dupes = duplicateSlugs(docs);
  if (dupes.length > 0) throw new Error(`search index: duplicate slugs: ${dupes.join(', ')}`);
  const sorted = [...docs].sort(byNewest);
  const count = sorted.length;

  const termIds = new Map<string, number>();
  const postings: PostingsBuilder[] = [];
  const lexicon = new Set<string>();
  const lenB = new Uint32Array(count);
  const lenT = new Uint32Array(count);
  const tfBody = new Map<number, number>();
  const tfTitle = new Map<number, number>();

  const termId = (term: string): number => {
    let id = termIds.get(term);
    if (id === undefined) {
      id = postings.length;
      termIds.set(term, id);
      postings.push([]);
    }
    return id;
  };
  const cache = options.termsCache;
  for (let doc = 0; doc < count; doc++) {
    const d = sorted[doc]!;
    const counted = cachedTerms(d, cache);
    tfBody.clear();
    tfTitle.clear();
    for (let i = 0; i < counted.title.length; i++) tfTitle.set(termId(counted.title[i]!), counted.titleCounts[i]!);
    for (let i = 0; i < counted.body.length; i++) tfBody.set(termId(counted.body[i]!), counted.bodyCounts[i]!);
    for (const word of counted.words) lexicon.add(word);
    for (const n of tfTitle.values()) lenT[doc]! += n;
    for (const n of tfBody.values()) lenB[doc]! += n;
    for (const [id, tb] of tfBody) postings[id]!.push(doc, tb, tfTitle.get(id) ?? 0);
    for (const [id, tt] of tfTitle) if (!tfBody.has(id)) postings[id]!.push(doc, 0, tt);
  }

  const terms = [...termIds.keys()].sort(compareCodeUnits);
  const postingsWriter = new ByteWriter();
  const postingsStart = new Uint32Array(terms.length + 1);
  terms.forEach((term, i) => {
    postingsStart[i] = postingsWriter.length;
    writePostings(postingsWriter, postings[termIds.get(term)!]!);
  });
  postingsStart[terms.length] = postingsWriter.length;

  const tables = {
    category: [...new Set(sorted.map((d) => d.category))].sort(compareCodeUnits),
    type: ['article', 'solution'] as DocumentType[],
    lang: ['zh', 'en'] as SearchIndexHead['tables']['lang'],
  };
  const sum = (values: Uint32Array): number => values.reduce((a, b) => a + b, 0);

  const lengths = new ByteWriter();
  for (const n of lenB) lengths.writeVarint(n);
  for (const n of lenT) lengths.writeVarint(n);
  const category = new ByteWriter();
  for (const d of sorted) category.writeVarint(tables.category.indexOf(d.category));
  const lang = new ByteWriter();
  for (const d of sorted) lang.writeVarint(tables.lang.indexOf(d.lang));

  const termsPerBlock = options.termsPerBlock ?? TERMS_PER_BLOCK;
  const termBlocks = writeStringBlocks(terms, termsPerBlock, (writer, id) => {
    writer.writeVarint(postings[termIds.get(terms[id]!)!]!.length / 3);
    writer.writeVarint(postingsStart[id + 1]! - postingsStart[id]!);
  });
  const postingsAt = termBlocks.head.first.map((_, k) => postingsStart[k * termsPerBlock]!);
  const lex = [...lexicon].sort(compareCodeUnits);
  const lexBlocks = writeStringBlocks(lex, options.lexWordsPerBlock ?? LEX_WORDS_PER_BLOCK);

  const stored = new ByteWriter();
  const storedAt = new Uint8Array(4 * (count + 1));
  const storedAtView = new DataView(storedAt.buffer);
  sorted.forEach((d, doc) => {
    storedAtView.setUint32(4 * doc, stored.length, true);
    const fields = [
      d.slug,
      d.title,
      d.date,
      d.excerpt,
      d.path,
      tables.category.indexOf(d.category),
      tables.type.indexOf(d.type),
      tables.lang.indexOf(d.lang),
    ];
    stored.writeBytes(UTF8.encode(JSON.stringify(fields)));
  });
  storedAtView.setUint32(4 * count, stored.length, true);

  // Sections in this order; each range is relative to the first byte after the head.
  const parts: [keyof SearchIndexSections, Uint8Array][] = [
    ['lengths', lengths.toBytes()],
    ['category', category.toBytes()],
    ['lang', lang.toBytes()],
    ['terms', termBlocks.bytes],
    ['lex', lexBlocks.bytes],
    ['postings', postingsWriter.toBytes()],
    ['storedAt', storedAt],
    ['stored', stored.toBytes()],
  ];
  const sections = {} as SearchIndexSections;
  let at = 0;
  for (const [name, bytes] of parts) {
    sections[name] = [at, at + bytes.length] as ByteRange;
    at += bytes.length;
  }

  const head: SearchIndexHead = {
    mode: SEARCH_INDEX_MODE,
    hash: contentHash(sorted, `${termsPerBlock}:${lexBlocks.head.blockSize}`),
    N: count,
    avgB: count === 0 ? 0 : sum(lenB) / count,
    avgT: count === 0 ? 0 : sum(lenT) / count,
    tables,
    sections,
    terms: termBlocks.head,
    postingsAt,
    lex: lexBlocks.head,
  };
  const headBytes = UTF8.encode(JSON.stringify(head));
  const file = new Uint8Array(SEARCH_INDEX_PREAMBLE_BYTES + headBytes.length + at);
  const view = new DataView(file.buffer);
  for (let i = 0; i < SEARCH_INDEX_MAGIC.length; i++) file[i] = SEARCH_INDEX_MAGIC.charCodeAt(i);
  view.setUint32(4, SEARCH_INDEX_VERSION, true);
  view.setUint32(8, headBytes.length, true);
  file.set(headBytes, SEARCH_INDEX_PREAMBLE_BYTES);
  let offset = SEARCH_INDEX_PREAMBLE_BYTES + headBytes.length;
  for (const [, bytes] of parts) {
    file.set(bytes, offset);
    offset += bytes.length;
  }
  return file;
}

const UTF8 = new TextEncoder();

/** One term's postings: df, then per document its gap and term frequencies ({@link POSTING_GAP_MULTIPLIER}). */
function writePostings(writer: ByteWriter, list: PostingsBuilder): void {
  writer.writeVarint(list.length / 3);
  let previous = 0;
  for (let p = 0; p < list.length; p += 3) {
    const gap = list[p]! - previous;
    const tfBody = list[p + 1]!;
    const tfTitle = list[p + 2]!;
    if (tfTitle === 0 && tfBody >= 1 && tfBody <= MAX_INLINE_BODY_TF) {
      writer.writeVarint(gap * POSTING_GAP_MULTIPLIER + tfBody);
    } else {
      writer.writeVarint(gap * POSTING_GAP_MULTIPLIER);
      writer.writeVarint(tfBody);
      writer.writeVarint(tfTitle);
    }
    previous = list[p]!;
  }
}

/**
 * Sorted strings in blocks of `blockSize` (layout: {@link StringBlocksHead}): per string its UTF-8
 * length and bytes, then what `payload` writes for it. Throws on a string that UTF-8 cannot carry
 * (a lone surrogate): it would not read back as itself.
 */
function writeStringBlocks(
  strings: readonly string[],
  blockSize: number,
  payload?: (writer: ByteWriter, index: number) => void,
): { bytes: Uint8Array; head: StringBlocksHead } {
  if (!Number.isInteger(blockSize) || blockSize < 1) throw new Error(`search index: block size ${blockSize}`);
  const writer = new ByteWriter();
  const head: StringBlocksHead = { count: strings.length, blockSize, first: [], at: [] };
  strings.forEach((string, i) => {
    if (i % blockSize === 0) {
      head.first.push(string);
      head.at.push(writer.length);
    }
    if (!string.isWellFormed()) throw new Error(`search index: ${JSON.stringify(string)} is not well-formed UTF-16`);
    const bytes = UTF8.encode(string);
    writer.writeVarint(bytes.length);
    writer.writeBytes(bytes);
    payload?.(writer, i);
  });
  head.at.push(writer.length);
  return { bytes: writer.toBytes(), head };
}

/** The indexed body text: excerpt, tags and the markdown with markup stripped. */
function searchableBody(doc: Document): string {
  return `${doc.excerpt}\n${doc.tags.join('\n')}\n${markdownToSearchText(doc.markdown)}`;
}

/** Plain UTF-16 code-unit order: the order binary search at query time relies on (not locale order). */
function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The content hash ({@link ContentHash}) of the file: the format version, the block sizes and every
 * indexed or stored field, as 16 hex digits. It names the file (the /search page's copy is served
 * as immutable under it), so anything that changes the bytes is in it.
 */
function contentHash(docs: readonly Document[], blockSizes: string): string {
  // Every body is hashed, even where the terms cache has a key for it: the file must be the one any build of the same
  // catalogue writes (tests/integration/search-answers.test.ts), whatever cache it had.
  const hash = new ContentHash().field(`v${SEARCH_INDEX_VERSION}:${SEARCH_INDEX_MODE}:${blockSizes}`);
  for (const d of docs) {
    for (const field of [d.type, d.slug, d.title, d.category, d.date, d.excerpt, d.lang, d.path, d.tags.join('\n'), d.markdown])
      hash.field(field);
  }
  return hash.hex();
}
