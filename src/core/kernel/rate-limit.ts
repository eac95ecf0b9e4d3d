/**
 * Fixed-window rate limiting on a {@link Store} with compare-and-set, so concurrent requests from
 * one client cannot both pass: each admission is a conditional write that only one writer wins.
 * @module
 */
import { expiryIndexKey, type SweepPolicy, utcDay } from './expiry.ts';
import type { Store } from './store.ts';

export interface RateLimitRule {
  /** Admissions per window. */
  limit: number;
  windowSeconds: number;
}

export interface RateLimitDecision {
  allowed: boolean;
  /** Seconds until the window resets (0 when allowed). */
  retryAfterSeconds: number;
  remaining: number;
  /** Refused because every compare-and-set attempt lost to other writers (not because the window is full). */
  contended?: true;
}

interface WindowRecord {
  window_start_ms: number;
  count: number;
  expires_at_ms: number;
}

/** Conditional-write attempts before giving up under contention. */
const MAX_CAS_ATTEMPTS = 16;

/**
 * Admits one request for `key` if the window has room. Under heavy contention (every attempt lost)
 * the request is refused: failing closed keeps the limit exact.
 */
export async function consume(store: Store, key: string, rule: RateLimitRule, nowMs: number): Promise<RateLimitDecision> {
  const windowMs = rule.windowSeconds * 1000;
  for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
    const current = await store.get<WindowRecord>(key);
    const fresh: WindowRecord = { window_start_ms: nowMs, count: 1, expires_at_ms: nowMs + windowMs };
    // A window is swept once it has ended (kernel/expiry.ts): one index entry per key and day.
    const indexFresh = async (): Promise<void> => {
      const freshEnd = fresh.expires_at_ms / 1000;
      if (!current || utcDay(current.value.expires_at_ms / 1000) !== utcDay(freshEnd)) await store.set(expiryIndexKey(key, freshEnd), 0);
    };
    if (!current) {
      await indexFresh();
      if ((await store.set(key, fresh, { onlyIfNew: true })).modified)
        return { allowed: true, retryAfterSeconds: 0, remaining: rule.limit - 1 };
      continue;
    }
    const record = current.value;
    const windowEnd = record.window_start_ms + windowMs;
    if (nowMs >= windowEnd) {
      await indexFresh();
      if ((await store.set(key, fresh, { onlyIfMatch: current.etag })).modified)
        return { allowed: true, retryAfterSeconds: 0, remaining: rule.limit - 1 };
      continue;
    }
    if (record.count >= rule.limit) {
      // A request that read the clock just before another opened the window would see more than a
      // full window left; never promise a wait longer than the window.
      const retryAfterSeconds = Math.min(rule.windowSeconds, Math.max(1, Math.ceil((windowEnd - nowMs) / 1000)));
      return { allowed: false, retryAfterSeconds, remaining: 0 };
    }
    const next: WindowRecord = { ...record, count: record.count + 1 };
    if ((await store.set(key, next, { onlyIfMatch: current.etag })).modified) {
      return { allowed: true, retryAfterSeconds: 0, remaining: rule.limit - next.count };
    }
  }
  return { allowed: false, retryAfterSeconds: 1, remaining: 0, contended: true };
}

/**
 * A limit shared by every client (a site-wide ceiling) without one hot record: the budget is split
 * over `shards` windows (`<key>/<n>`), a request starts at a random one and moves on when it is full
 * or contended, so concurrent requests rarely meet and the total admitted stays within the limit.
 */
export async function consumeShared(
  store: Store,
  key: string,
  rule: RateLimitRule,
  shards: number,
  nowMs: number,
): Promise<RateLimitDecision> {
  const perShard: RateLimitRule = { limit: Math.ceil(rule.limit / shards), windowSeconds: rule.windowSeconds };
  const start = Math.floor(Math.random() * shards);
  let refusal: RateLimitDecision | undefined;
  for (let i = 0; i < shards; i++) {
    const decision = await consume(store, `${key}/${(start + i) % shards}`, perShard, nowMs);
    if (decision.allowed) return decision;
    if (!refusal || refusal.contended || decision.retryAfterSeconds < refusal.retryAfterSeconds) refusal = decision;
  }
  return refusal!;
}

/** Gives back one admission (e.g. the request failed after it was admitted). Best effort. */
export async function refund(store: Store, key: string): Promise<void> {
  for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
    const current = await store.get<WindowRecord>(key);
    if (!current || current.value.count <= 0) return;
    if ((await store.set(key, { ...current.value, count: current.value.count - 1 }, { onlyIfMatch: current.etag })).modified) return;
  }
}

/** The `ratelimit` store's records for the sweep: a window ends when it expires; anything else is kept. */
export const RATE_LIMIT_SWEEP_POLICY: SweepPolicy = {
  expiresAt: (_key, value) => {
    const end = (value as Partial<WindowRecord> | null)?.expires_at_ms;
    return typeof end === 'number' ? Math.ceil(end / 1000) : null;
  },
  // Windows written before the index: the whole store once (it holds only windows and the sweep's own keys).
  legacyPrefixes: [''],
};
