import { describe, expect, it } from 'vitest';
import { useBlobs } from '../../../tests/support/blobs.ts';
import { consume, refund } from './rate-limit.ts';

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
