/** One behaviour table for the Store port, run against the real local Blobs server and the in-memory store. */
import { describe, expect, it } from 'vitest';
import { useBlobs } from '../../../tests/support/blobs.ts';
import { fakeClock, memoryStore, memoryStores } from './memory-store.ts';
import type { Store } from './store.ts';

const blobs = useBlobs();
let n = 0;
const implementations: [string, () => Store][] = [
  ['Netlify Blobs (local server)', () => blobs.store('oauth')],
  ['in memory', () => memoryStore()],
];

describe.each(implementations)('Store: %s', (_name, open) => {
  const key = (base: string) => `contract-${++n}/${base}`;

  it('returns null for a missing key and the JSON value with an etag after a write', async () => {
    const store = open();
    const k = key('a');
    expect(await store.get(k)).toBeNull();
    const written = await store.set(k, { n: 1, s: '中文', nested: { list: [1, 2] } });
    expect(written.modified).toBe(true);
    const read = await store.get<{ n: number }>(k);
    expect(read?.value).toEqual({ n: 1, s: '中文', nested: { list: [1, 2] } });
    expect(read?.etag).toBeTruthy();
  });

  it('a create-only write does not replace an existing record', async () => {
    const store = open();
    const k = key('b');
    expect((await store.set(k, 1, { onlyIfNew: true })).modified).toBe(true);
    expect((await store.set(k, 2, { onlyIfNew: true })).modified).toBe(false);
    expect((await store.get(k))?.value).toBe(1);
  });

  it('compare-and-set replaces only the version last read', async () => {
    const store = open();
    const k = key('c');
    await store.set(k, 'first');
    const seen = (await store.get(k))!;
    await store.set(k, 'someone else');
    expect((await store.set(k, 'mine', { onlyIfMatch: seen.etag })).modified).toBe(false);
    const now = (await store.get(k))!;
    expect((await store.set(k, 'mine', { onlyIfMatch: now.etag })).modified).toBe(true);
    expect((await store.get(k))?.value).toBe('mine');
  });

  it('refuses a compare-and-set without an etag instead of writing blindly', async () => {
    await expect(open().set(key('d'), 1, { onlyIfMatch: '' })).rejects.toThrow(/without an ETag/);
  });

  it('lists keys by prefix and forgets deleted keys', async () => {
    const store = open();
    const prefix = key('list');
    await store.set(`${prefix}/x`, 1);
    await store.set(`${prefix}/y`, 2);
    await store.set(`${prefix}-other`, 3);
    expect((await store.list(`${prefix}/`)).sort()).toEqual([`${prefix}/x`, `${prefix}/y`]);
    await store.delete(`${prefix}/x`);
    expect(await store.list(`${prefix}/`)).toEqual([`${prefix}/y`]);
    expect(await store.get(`${prefix}/x`)).toBeNull();
  });

  it('keeps a stored value apart from the object it was written from', async () => {
    const store = open();
    const k = key('e');
    const value = { list: [1] };
    await store.set(k, value);
    value.list.push(2);
    expect((await store.get(k))?.value).toEqual({ list: [1] });
  });
});

describe('fakeClock', () => {
  it('moves only when told', () => {
    const clock = fakeClock(new Date('2026-03-01T00:00:00Z'));
    expect(clock.nowSeconds()).toBe(Date.UTC(2026, 2, 1) / 1000);
    clock.advanceSeconds(90);
    expect(clock.now().toISOString()).toBe('2026-03-01T00:01:30.000Z');
  });
});

describe('the memory store beyond the contract', () => {
  it('pages a listing in key order, a thousand keys a page, under the prefix only', async () => {
    const store = memoryStore();
    for (let i = 2004; i >= 0; i--) await store.set(`p/${String(i).padStart(5, '0')}`, i);
    await store.set('q/0', 0);
    const pages: string[][] = [];
    for await (const page of store.listPages!('p/')) pages.push(page);
    expect(pages.map((p) => p.length)).toEqual([1000, 1000, 5]);
    expect(pages[0]![0]).toBe('p/00000');
    expect(pages[2]![4]).toBe('p/02004');
    expect(pages.flat()).toEqual([...pages.flat()].sort());
    expect(await store.list()).toHaveLength(2006);
    const none: string[][] = [];
    for await (const page of store.listPages!('nothing/')) none.push(page);
    expect(none).toEqual([]);
    const exact = memoryStore();
    for (let i = 0; i < 1000; i++) await exact.set(`e/${i}`, i);
    const exactPages: string[][] = [];
    for await (const page of exact.listPages!('e/')) exactPages.push(page);
    expect(exactPages.map((p) => p.length)).toEqual([1000]);
  });

  it('each write gets a new etag; a failed condition leaves the record as it was', async () => {
    const store = memoryStore();
    const first = await store.set('k', 1);
    const second = await store.set('k', 2);
    expect(first.etag).not.toBe(second.etag);
    expect(await store.set('k', 3, { onlyIfMatch: String(first.etag) })).toEqual({ modified: false });
    expect(await store.get('k')).toEqual({ value: 2, etag: second.etag });
    await expect(store.set('k', 4, { onlyIfMatch: '' })).rejects.toThrow('Conditional write to k without an ETag');
    expect(await store.set('missing', 1, { onlyIfMatch: '"m1"' })).toEqual({ modified: false });
    expect(await store.get('missing')).toBeNull();
  });

  it('memoryStores opens one store per name, the same one each time', async () => {
    const stores = memoryStores();
    await stores('oauth').set('a', 1);
    expect((await stores('oauth').get('a'))?.value).toBe(1);
    expect(await stores('keys').get('a')).toBeNull();
  });

  it('fakeClock starts at 2026-01-01 by default and counts whole seconds', () => {
    const clock = fakeClock();
    expect(clock.now().toISOString()).toBe('2026-01-01T00:00:00.000Z');
    clock.advanceSeconds(1.5);
    expect(clock.nowSeconds()).toBe(Date.UTC(2026, 0, 1) / 1000 + 1);
  });
});
