/** The {@link Store} port on Netlify Blobs: the only module that imports @netlify/blobs' store API. */
import { getStore } from '@netlify/blobs';
import type { Store, StoreFactory, StoreName } from '../../../src/core/kernel/store.ts';

/** One store on Netlify Blobs with strong consistency (rate limits and codes need read-your-writes). */
export function blobsStore(
  name: StoreName,
  options: { siteID?: string; token?: string; apiURL?: string; edgeURL?: string; uncachedEdgeURL?: string } = {},
): Store {
  const store = getStore({ name, consistency: 'strong', ...options });
  return {
    async get<T>(key: string) {
      const found = await store.getWithMetadata(key, { type: 'json' });
      if (!found) return null;
      return { value: found.data as T, etag: found.etag ?? '' };
    },
    async set<T>(key: string, value: T, condition?: { onlyIfNew: true } | { onlyIfMatch: string }) {
      // An empty ETag would turn compare-and-set into a blind write; refuse instead.
      if (condition && 'onlyIfMatch' in condition && !condition.onlyIfMatch)
        throw new Error(`Conditional write to ${name}/${key} without an ETag`);
      const result = await store.setJSON(key, value, condition ?? {});
      return { modified: result.modified, etag: result.etag };
    },
    async delete(key: string) {
      await store.delete(key);
    },
    async list(prefix?: string) {
      const keys: string[] = [];
      // One push per key, not push(...page): the local server answers a listing in one page, and spreading
      // 200,000 arguments overflows the stack (Netlify's pages hold 1,000).
      for await (const page of store.list({ paginate: true, ...(prefix ? { prefix } : {}) }))
        for (const blob of page.blobs) keys.push(blob.key);
      return keys;
    },
    async *listPages(prefix: string) {
      for await (const page of store.list({ paginate: true, ...(prefix ? { prefix } : {}) })) yield page.blobs.map((b) => b.key);
    },
  };
}

/** Opens every store on Netlify Blobs. */
export const blobsStores: StoreFactory = (name) => blobsStore(name);
