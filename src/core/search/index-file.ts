/**
 * Read side of the search index file (layout: index-data.ts): the head when the engine is created,
 * then each range a query needs, through an {@link IndexFileReader} the caller gives (a file beside
 * the function read by position, or the whole file in memory). What was read is kept: the
 * dictionary and lexicon blocks and the document lengths for the life of the engine (at most their
 * sections), stored fields in a bounded cache. Every read is checked against the head, so a
 * truncated or corrupt file fails with an error that says what is wrong, never with a wrong answer
 * or an out-of-bounds read.
 * @module
 */
import { readVarint } from './codec.ts';
import {
  SEARCH_INDEX_HASH_CHARS,
  SEARCH_INDEX_MAGIC,
  SEARCH_INDEX_MODE,
  SEARCH_INDEX_PREAMBLE_BYTES,
  SEARCH_INDEX_VERSION,
  type ByteRange,
  type SearchIndexHead,
  type SearchIndexSections,
  type StringBlocksHead,
} from './index-data.ts';

/**
 * Reads the bytes `[start, end)` of the index file and returns exactly `end − start` of them; throws
 * if it cannot (the file is shorter, or gone). Synchronous because search is: the Netlify adapter
 * reads the file shipped beside the function by position (node:fs `readSync`), where a read takes
 * microseconds.
 */
export type IndexFileReader = (start: number, end: number) => Uint8Array;

/** An {@link IndexFileReader} over the whole file in memory (the /search page's download, tests, benchmarks). */
export function inMemoryIndexFile(bytes: Uint8Array): IndexFileReader {
  return (start, end) => {
    if (!(Number.isInteger(start) && Number.isInteger(end) && start >= 0 && start <= end && end <= bytes.length))
      throw new Error(`search index: bytes ${start}–${end} are outside the file (${bytes.length} bytes)`);
    return bytes.subarray(start, end);
  };
}

/** Stored fields of one document as the file keeps them (the small-set fields as table indexes). */
export interface StoredFields {
  slug: string;
  title: string;
  date: string;
  excerpt: string;
  path: string;
  category: number;
  type: number;
  lang: number;
}

/**
 * Documents whose stored fields stay cached between queries (≈ 0.3 KB each as JSON): a warm query
 * returns its hits without reading; the oldest go first beyond this.
 */
const STORED_FIELDS_CACHE_MAX_DOCUMENTS = 10_000;
/** Largest head accepted: far above any real one (a few KB at 10,000 articles), so a corrupt length fails clearly. */
const MAX_HEAD_BYTES = 64_000_000;

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The search index file, read on demand. Throws on construction if the head is not one of this version. */
export class IndexFile {
  readonly hash: string;
  readonly N: number;
  readonly avgB: number;
  readonly avgT: number;
  readonly tables: SearchIndexHead['tables'];
  /** Index terms, sorted by UTF-16 code units (a term's id is its position); per term its df and postings length. */
  readonly terms: StringBlocks;
  /** Sorted unstemmed non-Han surface words. */
  readonly lex: StringBlocks;
  private readonly read: IndexFileReader;
  /** Where each section lies in the file (absolute byte ranges). */
  readonly sections: SearchIndexSections;
  private readonly postingsAt: number[];
  /** Per term block, the byte offset in `postings` of each of its terms and then the block's end. */
  private readonly postingsStarts: (Float64Array | undefined)[];
  private documentLengths: { body: Uint32Array; title: Uint32Array } | undefined;
  private categories: Uint32Array | undefined;
  private languages: Uint32Array | undefined;
  private readonly stored = new Map<number, StoredFields>();

  constructor(read: IndexFileReader) {
    this.read = read;
    const preamble = read(0, SEARCH_INDEX_PREAMBLE_BYTES);
    const view = new DataView(preamble.buffer, preamble.byteOffset, preamble.byteLength);
    if (String.fromCharCode(...preamble.subarray(0, 4)) !== SEARCH_INDEX_MAGIC) throw new Error('search index: not a search index file');
    const version = view.getUint32(4, true);
    if (version !== SEARCH_INDEX_VERSION) throw new Error(`search index: version ${version}, expected ${SEARCH_INDEX_VERSION}`);
    const headBytes = view.getUint32(8, true);
    if (headBytes > MAX_HEAD_BYTES) throw new Error('search index: bad head length');
    const bodyStart = SEARCH_INDEX_PREAMBLE_BYTES + headBytes;
    const head = parseJson(read(SEARCH_INDEX_PREAMBLE_BYTES, bodyStart), 'head') as SearchIndexHead;
    assertHeadShape(head);
    this.hash = head.hash;
    this.N = head.N;
    this.avgB = head.avgB;
    this.avgT = head.avgT;
    this.tables = head.tables;
    this.sections = Object.fromEntries(
      Object.entries(head.sections).map(([name, [start, end]]) => [name, [bodyStart + start, bodyStart + end]]),
    ) as unknown as SearchIndexSections;
    // The file must reach the end of its last section: a file cut short is refused now, not at some later query.
    const fileEnd = Math.max(...Object.values(this.sections).map(([, end]) => end));
    if (fileEnd > bodyStart) read(fileEnd - 1, fileEnd);
    this.postingsAt = head.postingsAt;
    this.postingsStarts = new Array(head.postingsAt.length);
    this.terms = new StringBlocks('terms', read, head.terms, this.sections.terms, 2);
    this.lex = new StringBlocks('lexicon', read, head.lex, this.sections.lex, 0);
  }

  /** Body and title token counts per document, read on first use. */
  lengths(): { body: Uint32Array; title: Uint32Array } {
    if (this.documentLengths === undefined) {
      const values = this.varints('lengths', 2 * this.N);
      this.documentLengths = { body: values.subarray(0, this.N), title: values.subarray(this.N) };
    }
    return this.documentLengths;
  }

  /** Each document's category (index into `tables.category`), read on first use: only a category filter needs them all. */
  category(): Uint32Array {
    if (this.categories === undefined) {
      const values = this.varints('category', this.N);
      if (values.some((c) => c >= this.tables.category.length)) throw new Error('search index: category out of range');
      this.categories = values;
    }
    return this.categories;
  }

  /** Each document's language (index into `tables.lang`), read on first use: only a language filter needs them all. */
  lang(): Uint32Array {
    if (this.languages === undefined) {
      const values = this.varints('lang', this.N);
      if (values.some((l) => l >= this.tables.lang.length)) throw new Error('search index: lang out of range');
      this.languages = values;
    }
    return this.languages;
  }

  /** Document frequency of term `id`, from the dictionary (no postings read). */
  documentFrequency(id: number): number {
    return this.terms.payload(id, 0);
  }

  /** The varint postings of term `id`: df, then its entries (layout: index-data.ts, `postings`). */
  postingsBytes(id: number): Uint8Array {
    const k = this.terms.blockOf(id);
    let starts = this.postingsStarts[k];
    if (starts === undefined) {
      const first = k * this.terms.blockSize;
      const count = this.terms.blockLength(k);
      starts = new Float64Array(count + 1);
      starts[0] = this.postingsAt[k]!;
      for (let i = 0; i < count; i++) starts[i + 1] = starts[i]! + this.terms.payload(first + i, 1);
      const next = this.postingsAt[k + 1];
      const [sectionStart, sectionEnd] = this.sections.postings;
      if ((next !== undefined && starts[count] !== next) || sectionStart + starts[count]! > sectionEnd)
        throw new Error(`search index: postings of term block ${k} do not match the dictionary`);
      this.postingsStarts[k] = starts;
    }
    const at = id - k * this.terms.blockSize;
    const base = this.sections.postings[0];
    return this.read(base + starts[at]!, base + starts[at + 1]!);
  }

  /** Stored fields of document `doc` (0 ≤ doc < N), cached. */
  storedFields(doc: number): StoredFields {
    const cached = this.stored.get(doc);
    if (cached !== undefined) return cached;
    const atBytes = this.read(this.sections.storedAt[0] + 4 * doc, this.sections.storedAt[0] + 4 * doc + 8);
    const at = new DataView(atBytes.buffer, atBytes.byteOffset, 8);
    const start = at.getUint32(0, true);
    const end = at.getUint32(4, true);
    const [base, limit] = this.sections.stored;
    if (start > end || base + end > limit) throw new Error(`search index: stored fields of document ${doc} are outside their section`);
    const row = parseJson(this.read(base + start, base + end), `stored fields of document ${doc}`);
    const fields = storedFieldsOf(row, this.tables);
    if (fields === undefined) throw new Error(`search index: stored fields of document ${doc} are malformed`);
    if (this.stored.size >= STORED_FIELDS_CACHE_MAX_DOCUMENTS) this.stored.delete(this.stored.keys().next().value!);
    this.stored.set(doc, fields);
    return fields;
  }

  /** Exactly `count` varints filling the section `name`; throws otherwise. */
  private varints(name: 'lengths' | 'category' | 'lang', count: number): Uint32Array {
    const [start, end] = this.sections[name];
    const reader = { bytes: this.read(start, end), pos: 0 };
    const values = new Uint32Array(count);
    let read = 0;
    for (; read < count && reader.pos < reader.bytes.length; read++) values[read] = readVarint(reader);
    if (read !== count || reader.pos !== reader.bytes.length || (count > 0 && reader.bytes[reader.bytes.length - 1]! >= 0x80))
      throw new Error(`search index: the ${name} section does not hold ${count} values`);
    return values;
  }
}

/**
 * A sorted string list stored in blocks (layout: {@link StringBlocksHead}), each block read and
 * decoded on first use, with `payloadVarints` numbers per string.
 */
export class StringBlocks {
  readonly length: number;
  readonly blockSize: number;
  private readonly name: string;
  private readonly read: IndexFileReader;
  private readonly head: StringBlocksHead;
  private readonly section: ByteRange;
  private readonly payloadVarints: number;
  private readonly strings: (string[] | undefined)[];
  private readonly payloads: (Float64Array | undefined)[];

  constructor(name: string, read: IndexFileReader, head: StringBlocksHead, section: ByteRange, payloadVarints: number) {
    this.name = name;
    this.read = read;
    this.head = head;
    this.section = section;
    this.payloadVarints = payloadVarints;
    this.length = head.count;
    this.blockSize = head.blockSize;
    this.strings = new Array(head.first.length);
    this.payloads = new Array(head.first.length);
  }

  /** The string at `index` (0 ≤ index < length). */
  at(index: number): string {
    const k = this.blockOf(index);
    return (this.strings[k] ?? this.load(k))[index - k * this.blockSize]!;
  }

  /** First index whose string is ≥ `key` (UTF-16 code-unit order): reads at most one block. */
  lowerBound(key: string): number {
    const first = this.head.first;
    let lo = 0;
    let hi = first.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (first[mid]! < key) lo = mid + 1;
      else hi = mid;
    }
    // Blocks [0, lo) start below key: the answer is in block lo − 1, or is the first of block lo.
    if (lo === 0) return 0;
    const k = lo - 1;
    const block = this.strings[k] ?? this.load(k);
    return k * this.blockSize + lowerBound(block, key);
  }

  /** Index of `key`, or -1. */
  indexOf(key: string): number {
    const i = this.lowerBound(key);
    return i < this.length && this.at(i) === key ? i : -1;
  }

  /** Payload number `field` of the string at `index`. */
  payload(index: number, field: number): number {
    const k = this.blockOf(index);
    if (this.payloads[k] === undefined) this.load(k);
    return this.payloads[k]![(index - k * this.blockSize) * this.payloadVarints + field]!;
  }

  /** The block holding `index`. */
  blockOf(index: number): number {
    return Math.floor(index / this.blockSize);
  }

  /** Number of strings in block `k`. */
  blockLength(k: number): number {
    return Math.min(this.blockSize, this.length - k * this.blockSize);
  }

  private load(k: number): string[] {
    const [sectionStart, sectionEnd] = this.section;
    const start = sectionStart + this.head.at[k]!;
    const end = sectionStart + this.head.at[k + 1]!;
    if (end > sectionEnd) throw new Error(`search index: ${this.name} block ${k} is outside its section`);
    const reader = { bytes: this.read(start, end), pos: 0 };
    const count = this.blockLength(k);
    const strings = new Array<string>(count);
    const payload = new Float64Array(count * this.payloadVarints);
    for (let i = 0; i < count; i++) {
      const length = readVarint(reader);
      if (reader.pos + length > reader.bytes.length) throw new Error(`search index: ${this.name} block ${k} is truncated`);
      strings[i] = decodeUtf8(reader.bytes.subarray(reader.pos, reader.pos + length), `${this.name} block ${k}`);
      reader.pos += length;
      for (let f = 0; f < this.payloadVarints; f++) payload[i * this.payloadVarints + f] = readVarint(reader);
    }
    const next = this.head.first[k + 1];
    if (
      reader.pos !== reader.bytes.length ||
      strings[0] !== this.head.first[k] ||
      strings.some((string, i) => i > 0 && !(strings[i - 1]! < string)) ||
      (next !== undefined && !(strings[count - 1]! < next))
    )
      throw new Error(`search index: ${this.name} block ${k} does not match the head`);
    this.strings[k] = strings;
    this.payloads[k] = payload;
    return strings;
  }
}

/** First index in the sorted array whose value is ≥ `key` (UTF-16 code-unit order). */
export function lowerBound(sorted: readonly string[], key: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function decodeUtf8(bytes: Uint8Array, what: string): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    throw new Error(`search index: ${what}: not UTF-8`);
  }
}

function parseJson(bytes: Uint8Array, what: string): unknown {
  try {
    return JSON.parse(decodeUtf8(bytes, what));
  } catch (error) {
    throw error instanceof SyntaxError ? new Error(`search index: ${what}: not JSON`) : error;
  }
}

/** The row `[slug, title, date, excerpt, path, category, type, lang]` as fields, or undefined if it is not one. */
function storedFieldsOf(row: unknown, tables: SearchIndexHead['tables']): StoredFields | undefined {
  if (!Array.isArray(row) || row.length !== 8) return undefined;
  const [slug, title, date, excerpt, path, category, type, lang] = row as unknown[];
  const strings = [slug, title, date, excerpt, path].every((s) => typeof s === 'string');
  const index = (value: unknown, table: readonly unknown[]): value is number =>
    Number.isInteger(value) && (value as number) >= 0 && (value as number) < table.length;
  if (!strings || !index(category, tables.category) || !index(type, tables.type) || !index(lang, tables.lang)) return undefined;
  return { slug, title, date, excerpt, path, category, type, lang } as StoredFields;
}

const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
const isAscending = (values: unknown): values is number[] =>
  Array.isArray(values) && values.every((v, i) => isCount(v) && (i === 0 || v >= values[i - 1]));

/** Rejects a head this reader cannot trust (another mode, missing or inconsistent fields). */
function assertHeadShape(head: SearchIndexHead): void {
  if (typeof head !== 'object' || head === null) throw new Error('search index: head is not an object');
  if (head.mode !== SEARCH_INDEX_MODE) throw new Error(`search index: mode ${String(head.mode)}, expected ${SEARCH_INDEX_MODE}`);
  if (typeof head.hash !== 'string' || !new RegExp(`^[0-9a-f]{${SEARCH_INDEX_HASH_CHARS}}$`).test(head.hash))
    throw new Error('search index: bad hash');
  if (!isCount(head.N)) throw new Error('search index: bad document count');
  if (typeof head.avgB !== 'number' || typeof head.avgT !== 'number') throw new Error('search index: bad average lengths');
  const tables = head.tables;
  if (!tables || !['category', 'type', 'lang'].every((t) => Array.isArray(tables[t as keyof typeof tables])))
    throw new Error('search index: missing value tables');
  const names: (keyof SearchIndexSections)[] = ['lengths', 'category', 'terms', 'lex', 'postings', 'storedAt', 'stored'];
  for (const name of names) {
    const range = head.sections?.[name];
    if (!isAscending(range) || range.length !== 2) throw new Error(`search index: bad ${name} section`);
  }
  const storedAt = head.sections.storedAt;
  if (storedAt[1] - storedAt[0] !== 4 * (head.N + 1)) throw new Error('search index: storedAt does not have N + 1 entries');
  for (const [name, blocks] of [
    ['terms', head.terms],
    ['lex', head.lex],
  ] as const) {
    const section = head.sections[name];
    if (
      typeof blocks !== 'object' ||
      blocks === null ||
      !isCount(blocks.count) ||
      !Number.isInteger(blocks.blockSize) ||
      blocks.blockSize < 1 ||
      !Array.isArray(blocks.first) ||
      blocks.first.length !== Math.ceil(blocks.count / blocks.blockSize) ||
      !blocks.first.every((s, i) => typeof s === 'string' && (i === 0 || blocks.first[i - 1]! < s)) ||
      !isAscending(blocks.at) ||
      blocks.at.length !== blocks.first.length + 1 ||
      blocks.at[0] !== 0 ||
      blocks.at.at(-1) !== section[1] - section[0]
    )
      throw new Error(`search index: bad ${name} blocks`);
  }
  if (!isAscending(head.postingsAt) || head.postingsAt.length !== head.terms.first.length)
    throw new Error('search index: bad postings offsets');
}
