/**
 * Build side of the sharded search index: splits a built {@link SearchIndexData} into a head and
 * shards (layout in index-data.ts, {@link SearchIndexHead}). A split, not a second builder: the
 * postings bytes, terms, lengths and stored fields are the unsharded index's own, so the sharded
 * engine ranks exactly as the unsharded one (search-index.ts runs the same code over both).
 * @module
 */
import { decodeBase64, decodeUint32Base64, encodeUint32Base64, readVarint } from './codec.ts';
import {
  POSTINGS_SHARD_HEADER_BYTES,
  postingsShardFile,
  SEARCH_HEAD_FILE,
  SEARCH_INDEX_HASH_CHARS,
  SEARCH_SHARDS_FORMAT,
  storedFieldsShardFile,
  type SearchIndexData,
  type SearchIndexHead,
  type StoredFieldsShardData,
} from './index-data.ts';
import { toAsciiJson } from './build-index.ts';
import type { ShardLoader } from './shard-reader.ts';

/**
 * Postings bytes per shard the split aims at (a term's list is never cut, so one very common term
 * can make a larger shard). Small shards cost little: reading a file is tens of microseconds, while
 * every byte a cold query reads costs parse time (BENCHMARKS.md, "Cold start and bundle sizes").
 */
export const POSTINGS_SHARD_TARGET_BYTES = 32_000;
/**
 * Stored-field bytes (as JSON) per shard the split aims at: a top-10 answer reads at most 10 shards.
 * Not smaller: each file deflates on its own in the function's archive, and text shards below the
 * 32 KB deflate window lose much of their compression (at 10,000 articles, 16 KB shards deflated
 * to 1.15 MB, 32 KB ones to 0.93 MB; the `mcp` archive must stay under 5 MB).
 */
export const STORED_FIELDS_SHARD_TARGET_BYTES = 32_000;

export interface ShardOptions {
  postingsShardBytes?: number;
  storedFieldsShardBytes?: number;
}

/**
 * The files of the sharded index: file name ({@link SEARCH_HEAD_FILE}, `docs-<k>.json`: ASCII JSON
 * text; `postings-<k>.bin`: bytes) to contents. Postings are cut at term boundaries into consecutive-term
 * shards of about {@link POSTINGS_SHARD_TARGET_BYTES} (consecutive, not by hash: the terms a prefix
 * expands to, `agent` `agents` `agentic`, sit together in one shard, and byte-balanced ranges keep
 * shards even where hashing would not); stored fields into shards of a fixed number of documents.
 *
 * @example
 * for (const [name, text] of shardSearchIndex(buildSearchIndex(docs))) await writeFile(path.join(dir, name), text);
 */
export function shardSearchIndex(data: SearchIndexData, options: ShardOptions = {}): Map<string, string | Uint8Array> {
  const postingsTarget = options.postingsShardBytes ?? POSTINGS_SHARD_TARGET_BYTES;
  const storedTarget = options.storedFieldsShardBytes ?? STORED_FIELDS_SHARD_TARGET_BYTES;
  const offsets = decodeUint32Base64(data.off);
  const post = decodeBase64(data.post);
  const termCount = data.terms.length;
  const files = new Map<string, string | Uint8Array>();
  if (data.hash.length !== SEARCH_INDEX_HASH_CHARS || !/^[0-9a-f]+$/.test(data.hash))
    throw new Error('search index: hash is not 16 hex digits');

  // Document frequencies: the first varint of each term's postings.
  const df = new Uint32Array(termCount);
  for (let id = 0; id < termCount; id++) df[id] = readVarint({ bytes: post, pos: offsets[id]! });

  // Postings: consecutive terms until the shard holds the target bytes.
  const starts: number[] = [];
  for (let id = 0; id < termCount; ) {
    const first = id;
    do id++;
    while (id < termCount && offsets[id]! - offsets[first]! < postingsTarget);
    starts.push(first);
    files.set(postingsShardFile(starts.length - 1), postingsShard(data, first, offsets.subarray(first, id + 1), post));
  }

  // Stored fields: a fixed number of documents per shard, from the average stored bytes per document.
  const { category, ...stored } = data.docs;
  const storedBytes = toAsciiJson(stored).length;
  const docsPerShard = data.N === 0 ? 1 : Math.max(1, Math.min(data.N, Math.round(storedTarget / (storedBytes / data.N))));
  for (let first = 0, k = 0; first < data.N; first += docsPerShard, k++) {
    const end = Math.min(data.N, first + docsPerShard);
    const shard: StoredFieldsShardData = {
      v: data.v,
      hash: data.hash,
      first,
      slug: stored.slug.slice(first, end),
      title: stored.title.slice(first, end),
      date: stored.date.slice(first, end),
      excerpt: stored.excerpt.slice(first, end),
      path: stored.path.slice(first, end),
      type: stored.type.slice(first, end),
      lang: stored.lang.slice(first, end),
    };
    files.set(storedFieldsShardFile(k), toAsciiJson(shard));
  }

  const head: SearchIndexHead = {
    v: data.v,
    mode: data.mode,
    format: SEARCH_SHARDS_FORMAT,
    hash: data.hash,
    N: data.N,
    avgB: data.avgB,
    avgT: data.avgT,
    tables: data.tables,
    category,
    lenB: data.lenB,
    lenT: data.lenT,
    terms: data.terms,
    df: encodeUint32Base64(df),
    lex: data.lex,
    postingShards: starts,
    docsPerShard,
  };
  files.set(SEARCH_HEAD_FILE, toAsciiJson(head));
  return files;
}

/** A binary postings shard (layout: {@link POSTINGS_SHARD_HEADER_BYTES}) of the terms whose offsets into `post` are `offsets`. */
function postingsShard(data: SearchIndexData, first: number, offsets: Uint32Array, post: Uint8Array): Uint8Array {
  const count = offsets.length - 1;
  const start = offsets[0]!;
  const streamAt = POSTINGS_SHARD_HEADER_BYTES + 4 * (count + 1);
  const bytes = new Uint8Array(streamAt + offsets[count]! - start);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, data.v, true);
  for (let i = 0; i < SEARCH_INDEX_HASH_CHARS; i++) bytes[4 + i] = data.hash.charCodeAt(i);
  view.setUint32(20, first, true);
  view.setUint32(24, count, true);
  for (let i = 0; i <= count; i++) view.setUint32(POSTINGS_SHARD_HEADER_BYTES + 4 * i, offsets[i]! - start, true);
  bytes.set(post.subarray(start, offsets[count]!), streamAt);
  return bytes;
}

/** A {@link ShardLoader} over the files {@link shardSearchIndex} returned, kept in memory (tests, benchmarks). */
export function inMemoryShardLoader(files: ReadonlyMap<string, string | Uint8Array>): ShardLoader {
  const encoder = new TextEncoder();
  return (file) => {
    const contents = files.get(file);
    if (contents === undefined) throw new Error(`search index: no file ${file}`);
    return typeof contents === 'string' ? encoder.encode(contents) : contents;
  };
}
