import { describe, expect, it } from 'vitest';
import { useBlobs } from '../../../tests/support/blobs.ts';
import { memoryStore } from './memory-store.ts';
import { consume, consumeShared, RATE_LIMIT_SWEEP_POLICY, refund } from './rate-limit.ts';
import type { Store } from './store.ts';

const blobs = useBlobs();
const RULE = { limit: 2, windowSeconds: 60 };

describe('fixed-window rate limit on real Blobs', () => {
  it('admits up to the limit, then refuses with the seconds left in the window', async () => {
    const store = blobs.store('ratelimit');
    const t0 = 1_700_000_000_000;
    expect(await consume(store, 'a', RULE, t0)).toEqual({ allowed: true, retryAfterSeconds: 0, remaining: 1 });
    expect(await consume(store, 'a', RULE, t0 + 1000)).toEqual({ allowed: true, retryAfterSeconds: 0, remaining: 0 });
    expect(await consume(store, 'a', RULE, t0 + 20_500)).toEqual({ allowed: false, retryAfterSeconds: 40, remaining: 0 });
    // A clock read from before the window opened still gets at most one window to wait.
    expect((await consume(store, 'a', RULE, t0 - 2000)).retryAfterSeconds).toBe(60);
    // Another key has its own window.
    expect((await consume(store, 'b', RULE, t0 + 20_500)).allowed).toBe(true);
    // A new window starts after windowSeconds.
    expect((await consume(store, 'a', RULE, t0 + 60_000)).allowed).toBe(true);
  });

  it('lets exactly `limit` of 20 concurrent requests through', async () => {
    const store = blobs.store('ratelimit');
    const now = Date.now();
    const decisions = await Promise.all(Array.from({ length: 20 }, () => consume(store, 'burst', { limit: 1, windowSeconds: 60 }, now)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(1);
    expect(decisions.filter((d) => !d.allowed).every((d) => d.retryAfterSeconds >= 1)).toBe(true);
  });

  it('counts exactly under contention when the limit is above one (compare-and-set on increments)', async () => {
    const store = blobs.store('ratelimit');
    const now = Date.now();
    const decisions = await Promise.all(Array.from({ length: 12 }, () => consume(store, 'burst-3', { limit: 3, windowSeconds: 60 }, now)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(3);
  });

  it('refund gives one admission back', async () => {
    const store = blobs.store('ratelimit');
    const now = Date.now();
    const rule = { limit: 1, windowSeconds: 60 };
    expect((await consume(store, 'r', rule, now)).allowed).toBe(true);
    expect((await consume(store, 'r', rule, now)).allowed).toBe(false);
    await refund(store, 'r');
    expect((await consume(store, 'r', rule, now)).allowed).toBe(true);
  });
});

describe('rate limits on the memory store', () => {
  const T = 1_800_000_000_000;

  it('a window opens with an expiry-index entry for the day it ends, and a new window on another day gets another', async () => {
    const store = memoryStore();
    await consume(store, 'k', { limit: 1, windowSeconds: 3600 }, T);
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    expect(await store.list('expires/')).toEqual([`expires/${day(T + 3_600_000)}/k`]);
    await consume(store, 'k', { limit: 1, windowSeconds: 3600 }, T + 86_400_000);
    expect((await store.list('expires/')).sort()).toEqual([`expires/${day(T + 3_600_000)}/k`, `expires/${day(T + 90_000_000)}/k`].sort());
  });

  it('a window record says when it opened, its count and when it ends', async () => {
    const store = memoryStore();
    await consume(store, 'rec', { limit: 3, windowSeconds: 60 }, T);
    await consume(store, 'rec', { limit: 3, windowSeconds: 60 }, T + 1000);
    expect((await store.get('rec'))?.value).toEqual({ window_start_ms: T, count: 2, expires_at_ms: T + 60_000 });
  });

  it('the wait is whole seconds, rounded up, at least one', async () => {
    const store = memoryStore();
    const rule = { limit: 1, windowSeconds: 60 };
    await consume(store, 'w', rule, T);
    expect((await consume(store, 'w', rule, T + 58_500)).retryAfterSeconds).toBe(2);
    expect((await consume(store, 'w', rule, T + 59_999)).retryAfterSeconds).toBe(1);
    expect(await consume(store, 'w', rule, T + 60_000)).toEqual({ allowed: true, retryAfterSeconds: 0, remaining: 0 });
  });

  it('under endless contention a request is refused as contended, without waiting a window', async () => {
    const inner = memoryStore();
    let writes = 0;
    const busy: Store = {
      ...inner,
      set: async (key, value, condition) => {
        if (!condition) return inner.set(key, value);
        writes++;
        return { modified: false };
      },
    };
    expect(await consume(busy, 'c', { limit: 5, windowSeconds: 60 }, T)).toEqual({
      allowed: false,
      retryAfterSeconds: 1,
      remaining: 0,
      contended: true,
    });
    expect(writes).toBe(16);
  });

  it('consumeShared: the budget is split over the shards, and the total stays within the limit', async () => {
    const store = memoryStore();
    const rule = { limit: 10, windowSeconds: 60 };
    let admitted = 0;
    for (let i = 0; i < 30; i++) if ((await consumeShared(store, 'all', rule, 4, T)).allowed) admitted++;
    // 4 shards of ceil(10 / 4) = 3.
    expect(admitted).toBe(12);
    const keys = (await store.list('all/')).sort();
    expect(keys).toEqual(['all/0', 'all/1', 'all/2', 'all/3']);
    const refused = await consumeShared(store, 'all', rule, 4, T + 30_000);
    expect(refused).toEqual({ allowed: false, retryAfterSeconds: 30, remaining: 0 });
  });

  it('consumeShared: the refusal names the shortest wait, whichever shard a request starts at', async () => {
    const store = memoryStore();
    const rule = { limit: 2, windowSeconds: 60 };
    // Shard 0 filled at T, shard 1 at T + 20 s: at T + 30 s the waits are 30 s and 50 s.
    await consume(store, 's/0', { limit: 1, windowSeconds: 60 }, T);
    await consume(store, 's/1', { limit: 1, windowSeconds: 60 }, T + 20_000);
    for (let i = 0; i < 8; i++)
      expect(await consumeShared(store, 's', rule, 2, T + 30_000)).toEqual({ allowed: false, retryAfterSeconds: 30, remaining: 0 });
  });

  it('consumeShared: when every shard is contended, the refusal says so', async () => {
    const busy: Store = { ...memoryStore(), set: async () => ({ modified: false }) };
    expect(await consumeShared(busy, 's', { limit: 4, windowSeconds: 60 }, 2, T)).toMatchObject({ allowed: false, contended: true });
  });

  it('refund: gives one back, never below zero, and does nothing for a missing window', async () => {
    const store = memoryStore();
    const rule = { limit: 2, windowSeconds: 60 };
    await consume(store, 'r', rule, T);
    await refund(store, 'r');
    await refund(store, 'r');
    expect((await store.get<{ count: number }>('r'))?.value.count).toBe(0);
    await refund(store, 'missing');
    expect(await store.get('missing')).toBeNull();
  });

  it('the sweep ends a window when it expires, in whole seconds; other records are kept', async () => {
    expect(await RATE_LIMIT_SWEEP_POLICY.expiresAt('k', { expires_at_ms: 1_000_001 }, memoryStore())).toBe(1001);
    expect(await RATE_LIMIT_SWEEP_POLICY.expiresAt('k', { other: 1 }, memoryStore())).toBeNull();
    expect(await RATE_LIMIT_SWEEP_POLICY.expiresAt('k', null, memoryStore())).toBeNull();
    expect(RATE_LIMIT_SWEEP_POLICY.legacyPrefixes).toEqual(['']);
  });
});
