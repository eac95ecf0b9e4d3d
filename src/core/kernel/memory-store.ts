/**
 * The {@link Store} port's reference implementation, in memory: same semantics as the Blobs store
 * (JSON round trip, create-only and compare-and-set writes, prefix listing), checked by
 * store-contract.test.ts against both. No product code uses it: the tests beside the code (and
 * bench/usage.bench.ts) run their logic on it, with {@link fakeClock}, without the real Blobs server.
 * It stays in the kernel, beside the port it implements, rather than under tests/support: it is a
 * second adapter of the port, and the contract test that keeps the two alike lives here too.
 * @module
 */
import type { Store, StoreFactory, StoreName, WriteCondition } from './store.ts';

/** Keys per page of `listPages`, as Netlify Blobs pages them. */
const MEMORY_PAGE_SIZE = 1000;

export function memoryStore(): Store {
  const records = new Map<string, { json: string; etag: string }>();
  let version = 0;
  return {
    async get<T>(key: string) {
      const found = records.get(key);
      return found ? { value: JSON.parse(found.json) as T, etag: found.etag } : null;
    },
    async set<T>(key: string, value: T, condition?: WriteCondition) {
      if (condition && 'onlyIfMatch' in condition && !condition.onlyIfMatch) throw new Error(`Conditional write to ${key} without an ETag`);
      const current = records.get(key);
      if (condition && 'onlyIfNew' in condition && current) return { modified: false };
      if (condition && 'onlyIfMatch' in condition && current?.etag !== condition.onlyIfMatch) return { modified: false };
      const etag = `"m${++version}"`;
      records.set(key, { json: JSON.stringify(value), etag });
      return { modified: true, etag };
    },
    async delete(key: string) {
      records.delete(key);
    },
    async list(prefix = '') {
      return [...records.keys()].filter((key) => key.startsWith(prefix));
    },
    async *listPages(prefix: string) {
      const keys = [...records.keys()].filter((key) => key.startsWith(prefix)).sort();
      for (let i = 0; i < keys.length; i += MEMORY_PAGE_SIZE) yield keys.slice(i, i + MEMORY_PAGE_SIZE);
    },
  };
}

/** A factory of independent in-memory stores, one per name, opened lazily. */
export function memoryStores(): StoreFactory {
  const opened = new Map<StoreName, Store>();
  return (name) => {
    let store = opened.get(name);
    if (!store) {
      store = memoryStore();
      opened.set(name, store);
    }
    return store;
  };
}

/** A clock tests move by hand: `now()` as a Date, `nowSeconds()` as Unix seconds. */
export interface FakeClock {
  now(): Date;
  nowSeconds(): number;
  advanceSeconds(seconds: number): void;
}

export function fakeClock(start = new Date('2026-01-01T00:00:00Z')): FakeClock {
  let ms = start.getTime();
  return {
    now: () => new Date(ms),
    nowSeconds: () => Math.floor(ms / 1000),
    advanceSeconds: (seconds) => {
      ms += seconds * 1000;
    },
  };
}
