/**
 * Fixed-window rate limiting on a {@link Store} with compare-and-set, so concurrent requests from
 * one client cannot both pass: each admission is a conditional write that only one writer wins.
 * @module
 */
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
    if (!current) {
      if ((await store.set(key, fresh, { onlyIfNew: true })).modified)
        return { allowed: true, retryAfterSeconds: 0, remaining: rule.limit - 1 };
      continue;
    }
    const record = current.value;
    const windowEnd = record.window_start_ms + windowMs;
    if (nowMs >= windowEnd) {
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
  return { allowed: false, retryAfterSeconds: 1, remaining: 0 };
}

/** Gives back one admission (e.g. the request failed after it was admitted). Best effort. */
export async function refund(store: Store, key: string): Promise<void> {
  for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
    const current = await store.get<WindowRecord>(key);
    if (!current || current.value.count <= 0) return;
    if ((await store.set(key, { ...current.value, count: current.value.count - 1 }, { onlyIfMatch: current.etag })).modified) return;
  }
}
