import { describe, expect, it } from 'vitest';
import { useBlobs } from '../../../tests/support/blobs.ts';
import { memoryStore } from './memory-store.ts';
import { type Backoff, consume, consumeShared, RATE_LIMIT_SWEEP_POLICY, refund, shardKeys } from './rate-limit.ts';
import type { Store } from './store.ts';

const blobs = useBlobs();
const RULE = { limit: 2, windowSeconds: 60 };

/** Pauses that take no time, on a clock that stands still: only the attempt count bounds a contended request. */
const NO_PAUSES: Backoff = { sleep: async () => undefined, random: () => 0.5, elapsedMs: () => 0 };

describe('fixed-window rate limit on real Blobs', () => {
  it('admits up to the limit, then refuses with the seconds left in the window', async () => {
    const store = blobs.store('ratelimit');
    const t0 = 1_700_000_000_000;
    expect(await consume(store, 'a', RULE, t0)).toEqual({ allowed: true, retryAfterSeconds: 0, remaining: 1, record: 'a' });
    expect(await consume(store, 'a', RULE, t0 + 1000)).toEqual({ allowed: true, retryAfterSeconds: 0, remaining: 0, record: 'a' });
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

  it('every request within the budget passes when all are sent at once; only those over it are refused, as full', async () => {
    // s10a: 70 revocations at once against 60 an hour were refused 51 times as if the hour were used up.
    const store = blobs.store('ratelimit');
    const now = Date.now();
    const rule = { limit: 60, windowSeconds: 3600 };
    const decisions = await Promise.all(Array.from({ length: 70 }, () => consume(store, 'burst-60', rule, now)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(60);
    expect(decisions.filter((d) => !d.allowed).every((d) => !d.contended && d.retryAfterSeconds > 3500)).toBe(true);
    // Counted over 12 window records of 5 admissions each, adding up to the budget.
    const shards = shardKeys('burst-60', rule.limit);
    expect(shards).toHaveLength(12);
    const counts = await Promise.all(shards.map(async (key) => (await store.get<{ count: number }>(key))?.value.count ?? 0));
    expect(counts.reduce((a, b) => a + b)).toBe(60);
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
    expect(await consume(store, 'w', rule, T + 60_000)).toEqual({ allowed: true, retryAfterSeconds: 0, remaining: 0, record: 'w' });
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
    expect(await consume(busy, 'c', { limit: 5, windowSeconds: 60 }, T, NO_PAUSES)).toEqual({
      allowed: false,
      retryAfterSeconds: 1,
      remaining: 0,
      contended: true,
    });
    // 12 lost writes, then busy.
    expect(writes).toBe(12);
  });

  it('a budget of 10 or more is split exactly over shards; a sequence of requests gets exactly the limit', async () => {
    const store = memoryStore();
    const rule = { limit: 10, windowSeconds: 60 };
    expect(shardKeys('x', 9)).toEqual(['x']);
    expect(shardKeys('x', 10)).toEqual(['x/0', 'x/1']);
    expect(shardKeys('x', 500)).toHaveLength(12);
    let admitted = 0;
    for (let i = 0; i < 14; i++) if ((await consume(store, 'x', rule, T + i * 1000)).allowed) admitted++;
    expect(admitted).toBe(10);
    // The refusal names the soonest a shard reopens.
    const refused = await consume(store, 'x', rule, T + 20_000);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSeconds).toBe(40);
  });

  it('a shard with room whose writes are lost makes the refusal "busy", even when the other shards are full', async () => {
    const inner = memoryStore();
    const rule = { limit: 10, windowSeconds: 60 };
    const [full, roomy] = shardKeys('y', rule.limit) as [string, string];
    await inner.set(full, { window_start_ms: T, count: 5, expires_at_ms: T + 60_000 });
    await inner.set(roomy, { window_start_ms: T, count: 1, expires_at_ms: T + 60_000 });
    const contended: Store = { ...inner, set: async (k, v, c) => (k === roomy && c ? { modified: false } : inner.set(k, v, c)) };
    expect(await consume(contended, 'y', rule, T + 1000, NO_PAUSES)).toEqual({
      allowed: false,
      retryAfterSeconds: 1,
      remaining: 0,
      contended: true,
    });
    // Once the writes land again, the room is there.
    expect(await consume(inner, 'y', rule, T + 1000, NO_PAUSES)).toEqual({
      allowed: true,
      retryAfterSeconds: 0,
      remaining: 3,
      record: roomy,
    });
  });

  it('a contended request stops pausing after its pause budget, however many lost writes are left', async () => {
    const inner = memoryStore();
    let clock = 0;
    let slept = 0;
    let reads = 0;
    // Reads of 300 ms and the longest pauses allowed (random() near 1).
    const slow: Backoff = {
      sleep: async (ms) => {
        slept += ms;
        clock += ms;
      },
      random: () => 0.999,
      elapsedMs: () => clock,
    };
    const busy: Store = {
      ...inner,
      get: async (key) => {
        reads++;
        clock += 300;
        return inner.get(key);
      },
      set: async (key, value, condition) => (condition ? { modified: false } : inner.set(key, value)),
    };
    expect(await consume(busy, 'slow', { limit: 1, windowSeconds: 60 }, T, slow)).toMatchObject({ allowed: false, contended: true });
    // Pauses of about 300 ms, then 400 ms: 4 s of pauses end it at the 11th lost write, before the 12 allowed.
    expect(slept).toBeLessThanOrEqual(4000);
    expect(slept).toBeGreaterThan(3500);
    expect(reads).toBe(11);
  });

  it('consumeShared: the budget is split over the shards, and the total stays within the limit', async () => {
    const store = memoryStore();
    const rule = { limit: 10, windowSeconds: 60 };
    let admitted = 0;
    for (let i = 0; i < 30; i++) if ((await consumeShared(store, 'all', rule, 4, T)).allowed) admitted++;
    // 4 shards of 3, 3, 2 and 2: exactly the limit.
    expect(admitted).toBe(10);
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
    expect(await consumeShared(busy, 's', { limit: 4, windowSeconds: 60 }, 2, T, NO_PAUSES)).toMatchObject({
      allowed: false,
      contended: true,
    });
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
