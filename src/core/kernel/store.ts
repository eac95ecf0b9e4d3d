/**
 * The storage port: a key-value store of JSON records with conditional writes. Netlify Blobs
 * implements it in production and in the local emulation (netlify/functions/_shared/blobs-store.ts).
 * @module
 */

export interface StoredRecord<T> {
  value: T;
  /** Opaque version tag for compare-and-set. */
  etag: string;
}

/** Write conditions: create only, or replace only the version last read. */
export type WriteCondition = { onlyIfNew: true } | { onlyIfMatch: string };

export interface Store {
  get<T>(key: string): Promise<StoredRecord<T> | null>;
  /** Returns `modified: false` when the condition did not hold (someone else wrote first). */
  set<T>(key: string, value: T, condition?: WriteCondition): Promise<{ modified: boolean; etag?: string | undefined }>;
  delete(key: string): Promise<void>;
  /** Keys under `prefix`, in no particular order. */
  list(prefix?: string): Promise<string[]>;
  /**
   * Keys under `prefix` one page at a time, in key order, so a caller with a time budget can stop
   * between pages (Netlify Blobs pages hold 1,000 keys). Absent: {@link list} is one page.
   */
  listPages?(prefix: string): AsyncIterable<string[]>;
}

/** Names of the stores the site uses; docs/storage.md documents each. */
export type StoreName = 'ratelimit' | 'enquiries' | 'tweets' | 'oauth' | 'keys' | 'analytics' | 'feedback';

/** Opens a named store. */
export type StoreFactory = (name: StoreName) => Store;

/** Keys under `prefix`, page by page (the store's own pages when it has them), so a long listing is never held whole. */
export async function* keyPages(store: Store, prefix: string): AsyncIterable<string[]> {
  if (store.listPages) yield* store.listPages(prefix);
  else yield await store.list(prefix);
}
