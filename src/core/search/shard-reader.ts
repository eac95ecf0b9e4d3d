/**
 * Query side of the sharded search index (layout: index-data.ts, {@link SearchIndexHead}). The head
 * is read when the engine is created; a query then reads the postings shards of the terms it scores
 * and the stored-fields shards of the hits it returns, and keeps every shard it read for the life
 * of the engine (at most the whole index, what the unsharded engine holds from the start). The
 * ranking code is the unsharded engine's (search-index.ts), over the same bytes.
 * @module
 */
import { decodeUint32Base64 } from './codec.ts';
import {
  POSTINGS_SHARD_HEADER_BYTES,
  postingsShardFile,
  SEARCH_HEAD_FILE,
  SEARCH_INDEX_HASH_CHARS,
  SEARCH_INDEX_MODE,
  SEARCH_INDEX_VERSION,
  SEARCH_SHARDS_FORMAT,
  storedFieldsShardFile,
  type SearchIndexHead,
  type StoredFieldsShardData,
} from './index-data.ts';
import { assertAscending, searchEngineOver, type IndexSource, type SearchEngine, type StoredFields } from './search-index.ts';

/**
 * Reads one file of the sharded index by name (`head.json`, `postings-3.bin`, `docs-0.json`) and
 * returns its bytes; throws if it cannot. Synchronous because search is: the Netlify adapter reads
 * files shipped beside the function (node:fs `readFileSync`), where a read takes microseconds.
 */
export type ShardLoader = (file: string) => Uint8Array;

/** JSON files are ASCII (non-ASCII is escaped), so any UTF-8 decoder reads them on its fast path. */
const UTF8 = new TextDecoder();

/**
 * Loads the head of a sharded index through `load`; shards are read on first need. Throws if the
 * head is not a sharded index of this version; a query throws if a shard is missing or belongs to
 * another build (its hash differs from the head's).
 *
 * @example
 * const engine = loadShardedSearchIndex((file) => readFileSync(new URL(file, indexDir)));
 * engine.search('agent 编排');
 */
export function loadShardedSearchIndex(load: ShardLoader): SearchEngine {
  return searchEngineOver(new ShardedSource(load));
}

/** A postings shard: its first term id, per-term byte offsets into `stream`, and the varint stream. */
interface PostingsShard {
  first: number;
  offsets: Uint32Array;
  stream: Uint8Array;
}

class ShardedSource implements IndexSource {
  readonly hash: string;
  readonly N: number;
  readonly avgB: number;
  readonly avgT: number;
  readonly tables: SearchIndexHead['tables'];
  readonly terms: readonly string[];
  readonly lex: readonly string[];
  readonly lenB: Uint32Array;
  readonly lenT: Uint32Array;
  readonly category: readonly number[];
  private readonly load: ShardLoader;
  private readonly df: Uint32Array;
  private readonly postingStarts: number[];
  private readonly docsPerShard: number;
  private readonly postingShards = new Map<number, PostingsShard>();
  private readonly storedShards = new Map<number, StoredFieldsShardData>();

  constructor(load: ShardLoader) {
    this.load = load;
    const head = JSON.parse(UTF8.decode(load(SEARCH_HEAD_FILE))) as SearchIndexHead;
    assertHeadShape(head);
    this.hash = head.hash;
    this.N = head.N;
    this.avgB = head.avgB;
    this.avgT = head.avgT;
    this.tables = head.tables;
    this.terms = head.terms;
    this.lex = head.lex;
    this.category = head.category;
    this.lenB = decodeUint32Base64(head.lenB);
    this.lenT = decodeUint32Base64(head.lenT);
    this.df = decodeUint32Base64(head.df);
    if (this.df.length !== head.terms.length) throw new Error('search index: df does not match terms');
    this.postingStarts = head.postingShards;
    this.docsPerShard = head.docsPerShard;
  }

  postingsBytes(id: number): Uint8Array {
    const shard = this.postingsShard(id);
    const at = id - shard.first;
    return shard.stream.subarray(shard.offsets[at]!, shard.offsets[at + 1]!);
  }

  documentFrequency(id: number): number {
    return this.df[id]!;
  }

  storedFields(doc: number): StoredFields {
    const k = Math.floor(doc / this.docsPerShard);
    let shard = this.storedShards.get(k);
    if (shard === undefined) {
      shard = this.readJson<StoredFieldsShardData>(storedFieldsShardFile(k));
      const count = Math.min(this.docsPerShard, this.N - k * this.docsPerShard);
      if (shard.first !== k * this.docsPerShard) throw new Error(`search index: ${storedFieldsShardFile(k)} starts at the wrong document`);
      for (const key of ['slug', 'title', 'date', 'excerpt', 'path', 'type', 'lang'] as const) {
        if (!Array.isArray(shard[key]) || shard[key].length !== count)
          throw new Error(`search index: ${storedFieldsShardFile(k)}: ${key} does not have ${count} entries`);
      }
      this.storedShards.set(k, shard);
    }
    const i = doc - shard.first;
    return {
      slug: shard.slug[i]!,
      title: shard.title[i]!,
      date: shard.date[i]!,
      excerpt: shard.excerpt[i]!,
      path: shard.path[i]!,
      type: shard.type[i]!,
      lang: shard.lang[i]!,
    };
  }

  /** The postings shard holding term `id` (the last shard whose first term is ≤ id), read on first use. */
  private postingsShard(id: number): PostingsShard {
    const starts = this.postingStarts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (starts[mid]! <= id) lo = mid;
      else hi = mid - 1;
    }
    const cached = this.postingShards.get(lo);
    if (cached !== undefined) return cached;
    const file = postingsShardFile(lo);
    const bytes = this.load(file);
    const first = starts[lo]!;
    const count = (lo + 1 < starts.length ? starts[lo + 1]! : this.terms.length) - first;
    const streamAt = POSTINGS_SHARD_HEADER_BYTES + 4 * (count + 1);
    if (bytes.length < streamAt) throw new Error(`search index: ${file} is truncated`);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.assertSameBuild(file, view.getUint32(0, true), String.fromCharCode(...bytes.subarray(4, 4 + SEARCH_INDEX_HASH_CHARS)));
    if (view.getUint32(20, true) !== first || view.getUint32(24, true) !== count)
      throw new Error(`search index: ${file} is not the shard the head names`);
    const offsets = new Uint32Array(count + 1);
    for (let i = 0; i <= count; i++) offsets[i] = view.getUint32(POSTINGS_SHARD_HEADER_BYTES + 4 * i, true);
    assertAscending(offsets, `search index: ${file}`);
    if (offsets[count]! !== bytes.length - streamAt) throw new Error(`search index: ${file}: postings are truncated`);
    const shard = { first, offsets, stream: bytes.subarray(streamAt) };
    this.postingShards.set(lo, shard);
    return shard;
  }

  /** Reads and parses a JSON shard, refusing one of another build. */
  private readJson<T extends { v: number; hash: string }>(file: string): T {
    const data = JSON.parse(UTF8.decode(this.load(file))) as T;
    if (typeof data !== 'object' || data === null) throw new Error(`search index: ${file} is not an object`);
    this.assertSameBuild(file, data.v, data.hash);
    return data;
  }

  private assertSameBuild(file: string, version: unknown, hash: unknown): void {
    if (version !== SEARCH_INDEX_VERSION || hash !== this.hash)
      throw new Error(
        `search index: ${file} is not from the same build as ${SEARCH_HEAD_FILE} (hash ${String(hash)}, expected ${this.hash})`,
      );
  }
}

/** Rejects anything that is not a sharded index head of this version (a build/deploy mismatch). */
function assertHeadShape(head: SearchIndexHead): void {
  if (typeof head !== 'object' || head === null) throw new Error('search index: head is not an object');
  if (head.v !== SEARCH_INDEX_VERSION) throw new Error(`search index: version ${String(head.v)}, expected ${SEARCH_INDEX_VERSION}`);
  if (head.mode !== SEARCH_INDEX_MODE) throw new Error(`search index: mode ${String(head.mode)}, expected ${SEARCH_INDEX_MODE}`);
  if (head.format !== SEARCH_SHARDS_FORMAT) throw new Error(`search index: ${SEARCH_HEAD_FILE} is not a sharded index head`);
  if (!Number.isInteger(head.N) || head.N < 0) throw new Error('search index: bad document count');
  if (!Array.isArray(head.category) || head.category.length !== head.N) throw new Error('search index: category does not have N entries');
  if (!Array.isArray(head.terms) || !Array.isArray(head.lex) || typeof head.df !== 'string')
    throw new Error('search index: missing terms, lexicon or document frequencies');
  const starts = head.postingShards;
  if (
    !Array.isArray(starts) ||
    (head.terms.length > 0 && starts[0] !== 0) ||
    starts.some((s, k) => !Number.isInteger(s) || s >= head.terms.length || (k > 0 && s <= starts[k - 1]!))
  )
    throw new Error('search index: postingShards must be ascending term ids from 0');
  if (!Number.isInteger(head.docsPerShard) || head.docsPerShard < 1) throw new Error('search index: bad docsPerShard');
}
