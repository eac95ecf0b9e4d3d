/**
 * Query side of site search: opens the index file (index-data.ts) and answers queries with
 * per-field BM25+ and a coordination factor (docs/reference/search.md §3), reading the file's
 * ranges as queries need them (index-file.ts).
 *
 * - Han query text → bigrams, exact match only (no fuzzy on CJK: one edit turns 网关 into 网络).
 *   A query whose Han text is a single character (`库`) also matches the bigrams containing it.
 * - Latin words → Porter2 stems; the last word also matches as a prefix (search-as-you-type), and
 *   a word missing from the index is matched with typo tolerance. Both run over the lexicon of
 *   unstemmed surface words, then map the hits to stems.
 * @module
 */
import type { Lang } from '../content/catalog.ts';
import { readVarint } from './codec.ts';
import { POSTING_GAP_MULTIPLIER, type DocumentType } from './index-data.ts';
import { IndexFile, inMemoryIndexFile, type IndexFileReader, type StringBlocks } from './index-file.ts';
import { boundedEditDistance, letterMask, popcount } from './edit-distance.ts';
import { TopK } from './top-k.ts';
import { termOfWord, tokenize, type Token } from './tokenize.ts';

export type { IndexFileReader } from './index-file.ts';

/** Queries are cut to this many UTF-16 code units before tokenizing (callers should reject longer ones). */
export const MAX_QUERY_CHARS = 200;
/** Tokens of a query beyond this count are ignored (bounds the work per query). */
export const MAX_QUERY_TOKENS = 32;
/** Hits returned when `limit` is not given. */
export const DEFAULT_RESULT_LIMIT = 10;
/** Upper bound on `limit`. */
export const MAX_RESULT_LIMIT = 50;

/** BM25 term-frequency saturation. */
const BM25_K1 = 1.2;
/** BM25+ lower bound added to every matching field, so long documents are not pushed to zero. */
const BM25_PLUS_DELTA = 0.5;
/** Length normalisation strength for the body field. */
const BODY_LENGTH_B = 0.75;
/** Length normalisation strength for the title field. */
const TITLE_LENGTH_B = 0.5;
/** Multiplier of the title field's BM25+ score relative to the body's. */
const TITLE_WEIGHT = 3;

/** The last query word matches words it is a prefix of when it has at least this many characters. */
const MIN_PREFIX_CHARS = 3;
/** Score multiplier for terms reached by prefix expansion (an exact match counts fully). */
const PREFIX_WEIGHT = 0.5;
/** Lexicon words examined for one prefix expansion (bounds the cost of short prefixes). */
const MAX_PREFIX_SCAN_WORDS = 2_000;
/** Distinct terms kept from one prefix expansion: the most frequent ones. */
const MAX_PREFIX_EXPANSION_TERMS = 12;
/** Typo tolerance applies to unknown words of at least this many letters a–z (one edit). */
const MIN_TYPO_CHARS = 4;
/** Unknown words of at least this many letters may be two edits away. */
const MIN_TWO_EDIT_TYPO_CHARS = 8;
/** Score multiplier for terms reached by typo tolerance. */
const TYPO_WEIGHT = 0.5;
/** Distinct terms kept from one typo expansion: the most frequent ones at the smallest distance. */
const MAX_TYPO_EXPANSION_TERMS = 8;
/** Bigrams kept when a single Han character is expanded: the most frequent ones. */
const MAX_UNIGRAM_EXPANSION_TERMS = 8;
/** Score multiplier for bigrams reached from a single Han character. */
const UNIGRAM_EXPANSION_WEIGHT = 1;
/** Decoded postings (one per document per term) kept in memory across queries. */
const POSTINGS_CACHE_MAX_ENTRIES = 2_000_000;

const TYPO_WORD = /^[a-z]+$/;

/** Options of {@link SearchEngine.search}. */
export interface SearchOptions {
  /** Maximum hits, 1 to {@link MAX_RESULT_LIMIT}; default {@link DEFAULT_RESULT_LIMIT}. */
  limit?: number;
  /** Only return documents of this category slug (an unknown slug gives no hits). */
  category?: string;
  /** Only return documents in this language. */
  lang?: Lang;
}

/** One search result: the stored fields of a document plus its score. */
export interface SearchHit {
  slug: string;
  title: string;
  category: string;
  date: string;
  excerpt: string;
  type: DocumentType;
  path: string;
  lang: Lang;
  /** Relevance score (higher is better); comparable only within one query. */
  score: number;
}

/** A loaded search index. */
export interface SearchEngine {
  /** Number of indexed documents. */
  readonly documentCount: number;
  /** The index's content hash (usable as an ETag component). */
  readonly contentHash: string;
  /**
   * Searches the index. Never throws on any string: a query with nothing searchable in it (empty,
   * punctuation, emoji, only stop words) returns `[]`. Longer queries are cut to
   * {@link MAX_QUERY_CHARS} characters and {@link MAX_QUERY_TOKENS} tokens.
   *
   * @returns hits, best first; equal scores keep index order (newest first, then slug).
   * @example
   * engine.search('私有化部署 LLM', { limit: 10, category: 'private-deployment' });
   */
  search(query: string, options?: SearchOptions): SearchHit[];
}

/** Lexicon words of one length: lexicon indexes and the matching 26-bit letter masks. */
interface TypoBucket {
  words: Uint32Array;
  masks: Int32Array;
}

/** A query token after expansion: the index terms it matches and their weights. */
interface QueryGroup {
  ids: number[];
  weights: number[];
}

/**
 * Opens a search index file built by `buildSearchIndex`: the whole file in memory, or a reader of
 * its byte ranges (the functions read the file beside them by position). Reads the head now and the
 * rest as queries need it. Throws if the file is not a search index of this version; a query throws
 * if a part it reads is missing or corrupt.
 *
 * @example
 * const engine = loadSearchIndex(await readFile('generated/data/search/index.bin'));
 * const hits = engine.search('agent 编排');
 */
export function loadSearchIndex(file: Uint8Array | IndexFileReader): SearchEngine {
  return new BM25Engine(new IndexFile(file instanceof Uint8Array ? inMemoryIndexFile(file) : file));
}

class BM25Engine implements SearchEngine {
  readonly documentCount: number;
  readonly contentHash: string;
  private readonly file: IndexFile;
  private readonly terms: StringBlocks;
  private readonly lex: StringBlocks;
  /** BM25 length norms per document, k1·(1 − b + b·len/avg) for body and title; computed by the first query that scores. */
  private norms: { body: Float64Array; title: Float64Array } | undefined;
  private readonly categoryIds: Map<string, number>;
  /** Decoded postings by term id (flat doc, tfBody, tfTitle triples), bounded by entry count. */
  private readonly postingsCache = new Map<number, Uint32Array>();
  private cachedEntries = 0;
  /** Lexicon indexes of words a–z, by length; built on the first typo lookup. */
  private typoBuckets: Map<number, TypoBucket> | null = null;
  // Per-query scratch buffers, reused (search is synchronous, so there is no interleaving).
  private readonly scores: Float64Array;
  private readonly matched: Uint8Array;
  private readonly groupMark: Uint32Array;
  private readonly touched: Uint32Array;
  private touchedCount = 0;
  private mark = 0;

  constructor(file: IndexFile) {
    this.file = file;
    this.documentCount = file.N;
    this.contentHash = file.hash;
    this.terms = file.terms;
    this.lex = file.lex;
    const n = file.N;
    this.categoryIds = new Map(file.tables.category.map((slug, i) => [slug, i]));
    this.scores = new Float64Array(n);
    this.matched = new Uint8Array(n);
    this.groupMark = new Uint32Array(n);
    this.touched = new Uint32Array(n);
  }

  search(query: string, options?: SearchOptions): SearchHit[] {
    if (typeof query !== 'string' || this.documentCount === 0) return [];
    const limit = resultLimit(options?.limit);
    let categoryId = -1;
    if (typeof options?.category === 'string') {
      categoryId = this.categoryIds.get(options.category) ?? -2;
      if (categoryId === -2) return [];
    }
    const langId = options?.lang === undefined ? -1 : this.file.tables.lang.indexOf(options.lang);
    if (options?.lang !== undefined && langId < 0) return [];
    const groups = this.expandQuery(query.length > MAX_QUERY_CHARS ? query.slice(0, MAX_QUERY_CHARS) : query);
    if (groups.length === 0) return [];
    try {
      this.accumulate(groups);
      return this.topDocuments(limit, categoryId, langId).map(({ doc, score }) => this.hit(doc, score));
    } finally {
      this.reset(); // the scratch buffers must start clean for the next query, whatever happened
    }
  }

  /** Tokenizes the query and expands every token into the index terms it matches. */
  private expandQuery(text: string): QueryGroup[] {
    const tokens = tokenize(text).slice(0, MAX_QUERY_TOKENS);
    let lastWord: Token | undefined;
    let hasBigram = false;
    for (const token of tokens) {
      if (token.kind === 'word') lastWord = token;
      else if (token.kind === 'bigram') hasBigram = true;
    }
    const seen = new Set<string>();
    const groups: QueryGroup[] = [];
    for (const token of tokens) {
      if (seen.has(token.term)) continue;
      seen.add(token.term);
      const group: QueryGroup = { ids: [], weights: [] };
      const exact = this.findTerm(token.term);
      if (exact >= 0) addTerm(group, exact, 1);
      if (token.kind === 'word') {
        const word = token.word!;
        let expanded = false;
        if (lastWord !== undefined && token.term === lastWord.term && lastWord.word!.length >= MIN_PREFIX_CHARS) {
          expanded = this.expandPrefix(lastWord.word!, exact, group);
        }
        if (exact < 0 && !expanded && word.length >= MIN_TYPO_CHARS && TYPO_WORD.test(word)) this.expandTypo(word, group);
      } else if (token.kind === 'unigram' && !hasBigram) {
        this.expandUnigram(token.term, exact, group);
      }
      if (group.ids.length > 0) groups.push(group);
    }
    return groups;
  }

  /** Adds the terms of lexicon words starting with `prefix` (other than `exact`); reports whether any were added. */
  private expandPrefix(prefix: string, exact: number, group: QueryGroup): boolean {
    const candidates = new Set<number>();
    const start = this.lex.lowerBound(prefix);
    const end = Math.min(this.lex.length, start + MAX_PREFIX_SCAN_WORDS);
    for (let i = start; i < end; i++) {
      const word = this.lex.at(i);
      if (!word.startsWith(prefix)) break;
      if (word === prefix) continue;
      const id = this.findTerm(termOfWord(word));
      if (id >= 0 && id !== exact) candidates.add(id);
    }
    const before = group.ids.length;
    for (const id of this.mostFrequent(candidates, MAX_PREFIX_EXPANSION_TERMS)) addTerm(group, id, PREFIX_WEIGHT);
    return group.ids.length > before;
  }

  /** Adds the terms of lexicon words within the allowed edit distance of `word` (the closest ones only). */
  private expandTypo(word: string, group: QueryGroup): void {
    const maxEdits = word.length >= MIN_TWO_EDIT_TYPO_CHARS ? 2 : 1;
    const buckets = this.typoLexicon();
    const mask = letterMask(word);
    let best = maxEdits + 1;
    let candidates = new Set<number>();
    for (let length = word.length - maxEdits; length <= word.length + maxEdits; length++) {
      const bucket = buckets.get(length);
      if (bucket === undefined) continue;
      for (let k = 0; k < bucket.words.length; k++) {
        // One edit adds or removes at most two letters of the alphabet: a cheap, exact pre-filter.
        if (popcount(mask ^ bucket.masks[k]!) > 2 * Math.min(maxEdits, best)) continue;
        const index = bucket.words[k]!;
        const distance = boundedEditDistance(word, this.lex.at(index), Math.min(maxEdits, best));
        if (distance > best || distance > maxEdits) continue;
        const id = this.findTerm(termOfWord(this.lex.at(index)));
        if (id < 0) continue;
        if (distance < best) {
          best = distance;
          candidates = new Set();
        }
        candidates.add(id);
      }
    }
    for (const id of this.mostFrequent(candidates, MAX_TYPO_EXPANSION_TERMS)) addTerm(group, id, TYPO_WEIGHT);
  }

  /** Adds the Han bigrams that contain the single character `char` (at either position). */
  private expandUnigram(char: string, exact: number, group: QueryGroup): void {
    const candidates = new Set<number>();
    const width = char.length; // 2 for astral characters
    // Bigrams ending in `char` are scattered through the sorted terms, so this is one linear scan.
    for (let i = 0; i < this.terms.length; i++) {
      const term = this.terms.at(i);
      if (term.length === width * 2 && i !== exact && (term.startsWith(char) || term.endsWith(char)) && isHanPair(term, width))
        candidates.add(i);
    }
    for (const id of this.mostFrequent(candidates, MAX_UNIGRAM_EXPANSION_TERMS)) addTerm(group, id, UNIGRAM_EXPANSION_WEIGHT);
  }

  /** Scores every group into the scratch buffers and lists the documents touched. */
  private accumulate(groups: QueryGroup[]): void {
    const { scores, matched, groupMark, touched } = this;
    this.norms ??= this.lengthNorms();
    const { body: normBody, title: normTitle } = this.norms;
    const n = this.documentCount;
    for (const group of groups) {
      const mark = this.nextMark();
      for (let t = 0; t < group.ids.length; t++) {
        const postings = this.postings(group.ids[t]!);
        const df = postings.length / 3;
        const idfWeight = Math.log(1 + (n - df + 0.5) / (df + 0.5)) * group.weights[t]!;
        let touchedCount = this.touchedCount;
        for (let p = 0; p < postings.length; p += 3) {
          const doc = postings[p]!;
          if (doc >= n) continue; // corrupt index: ignore rather than write out of bounds
          const tfBody = postings[p + 1]!;
          const tfTitle = postings[p + 2]!;
          let s = 0;
          if (tfBody > 0) s += (tfBody * (BM25_K1 + 1)) / (tfBody + normBody[doc]!) + BM25_PLUS_DELTA;
          if (tfTitle > 0) s += TITLE_WEIGHT * ((tfTitle * (BM25_K1 + 1)) / (tfTitle + normTitle[doc]!) + BM25_PLUS_DELTA);
          if (matched[doc] === 0) touched[touchedCount++] = doc;
          if (groupMark[doc] !== mark) {
            groupMark[doc] = mark;
            matched[doc]!++;
          }
          scores[doc]! += idfWeight * s;
        }
        this.touchedCount = touchedCount;
      }
    }
  }

  /** The best `limit` touched documents (score × matched groups), best first, ties by doc id; -1: no filter. */
  private topDocuments(limit: number, categoryId: number, langId: number): { doc: number; score: number }[] {
    const category = categoryId >= 0 ? this.file.category() : undefined;
    const lang = langId >= 0 ? this.file.lang() : undefined;
    const heap = new TopK(limit);
    for (let i = 0; i < this.touchedCount; i++) {
      const doc = this.touched[i]!;
      if (category !== undefined && category[doc] !== categoryId) continue;
      if (lang !== undefined && lang[doc] !== langId) continue;
      heap.offer(doc, this.scores[doc]! * this.matched[doc]!);
    }
    return heap.sorted();
  }

  private reset(): void {
    for (let i = 0; i < this.touchedCount; i++) {
      const doc = this.touched[i]!;
      this.scores[doc] = 0;
      this.matched[doc] = 0;
    }
    this.touchedCount = 0;
  }

  private nextMark(): number {
    if (this.mark >= 0xfffffffe) {
      this.groupMark.fill(0);
      this.mark = 0;
    }
    return ++this.mark;
  }

  private hit(doc: number, score: number): SearchHit {
    const { tables } = this.file;
    const fields = this.file.storedFields(doc);
    return {
      slug: fields.slug,
      title: fields.title,
      category: tables.category[fields.category]!,
      date: fields.date,
      excerpt: fields.excerpt,
      type: tables.type[fields.type]!,
      path: fields.path,
      lang: tables.lang[fields.lang]!,
      score: Math.round(score * 1000) / 1000,
    };
  }

  /** Term id of `term`, or -1. */
  private findTerm(term: string): number {
    return this.terms.indexOf(term);
  }

  /** Decoded postings of a term: flat (doc, tfBody, tfTitle) triples. */
  private postings(id: number): Uint32Array {
    const cached = this.postingsCache.get(id);
    if (cached !== undefined) return cached;
    const bytes = this.file.postingsBytes(id);
    const reader = { bytes, pos: 0 };
    const df = readVarint(reader);
    const out = new Uint32Array(df * 3);
    let doc = 0;
    for (let p = 0; p < out.length && reader.pos < bytes.length; p += 3) {
      const packed = readVarint(reader);
      const inlineTf = packed % POSTING_GAP_MULTIPLIER;
      doc += (packed - inlineTf) / POSTING_GAP_MULTIPLIER;
      out[p] = doc;
      if (inlineTf > 0) {
        out[p + 1] = inlineTf;
      } else {
        out[p + 1] = readVarint(reader);
        out[p + 2] = readVarint(reader);
      }
    }
    this.cachePostings(id, out);
    return out;
  }

  private cachePostings(id: number, postings: Uint32Array): void {
    const entries = postings.length / 3;
    if (entries > POSTINGS_CACHE_MAX_ENTRIES) return;
    // Evict oldest first (Map keeps insertion order) until the new list fits.
    for (const [oldId, old] of this.postingsCache) {
      if (this.cachedEntries + entries <= POSTINGS_CACHE_MAX_ENTRIES) break;
      this.postingsCache.delete(oldId);
      this.cachedEntries -= old.length / 3;
    }
    this.postingsCache.set(id, postings);
    this.cachedEntries += entries;
  }

  /** BM25 length norms of every document, from the lengths in the file. */
  private lengthNorms(): { body: Float64Array; title: Float64Array } {
    const { body, title } = this.file.lengths();
    return { body: lengthNorms(body, this.file.avgB, BODY_LENGTH_B), title: lengthNorms(title, this.file.avgT, TITLE_LENGTH_B) };
  }

  /** Document frequency of a term, from the dictionary or its decoded postings. */
  private documentFrequency(id: number): number {
    const cached = this.postingsCache.get(id);
    if (cached !== undefined) return cached.length / 3;
    return this.file.documentFrequency(id);
  }

  /** Up to `max` of `ids`, most frequent first (ties by term order). */
  private mostFrequent(ids: Set<number>, max: number): number[] {
    const list = [...ids];
    if (list.length <= max) return list.sort((a, b) => a - b);
    const df = new Map(list.map((id) => [id, this.documentFrequency(id)]));
    return list.sort((a, b) => df.get(b)! - df.get(a)! || a - b).slice(0, max);
  }

  /** Lexicon words a–z grouped by length, with their letter masks; built on the first typo lookup. */
  private typoLexicon(): Map<number, TypoBucket> {
    if (this.typoBuckets === null) {
      const lists = new Map<number, number[]>();
      for (let index = 0; index < this.lex.length; index++) {
        const word = this.lex.at(index);
        if (!TYPO_WORD.test(word)) continue;
        const list = lists.get(word.length);
        if (list === undefined) lists.set(word.length, [index]);
        else list.push(index);
      }
      this.typoBuckets = new Map(
        [...lists].map(([length, indexes]) => [
          length,
          { words: Uint32Array.from(indexes), masks: Int32Array.from(indexes, (i) => letterMask(this.lex.at(i))) },
        ]),
      );
    }
    return this.typoBuckets;
  }
}

function addTerm(group: QueryGroup, id: number, weight: number): void {
  group.ids.push(id);
  group.weights.push(weight);
}

/** Number of queried hits, from the caller's option. */
function resultLimit(limit: unknown): number {
  if (typeof limit !== 'number' || !Number.isFinite(limit)) return DEFAULT_RESULT_LIMIT;
  return Math.min(MAX_RESULT_LIMIT, Math.max(1, Math.floor(limit)));
}

function lengthNorms(lengths: Uint32Array, average: number, b: number): Float64Array {
  const norms = new Float64Array(lengths.length);
  const avg = average > 0 ? average : 1;
  for (let i = 0; i < lengths.length; i++) norms[i] = BM25_K1 * (1 - b + (b * lengths[i]!) / avg);
  return norms;
}

const HAN_CHAR = /^\p{Script=Han}$/u;

/** Whether `term` is two Han characters of `width` code units each. */
function isHanPair(term: string, width: number): boolean {
  return HAN_CHAR.test(term.slice(0, width)) && HAN_CHAR.test(term.slice(width));
}
