/**
 * Fixed-window rate limiting on a {@link Store} with compare-and-set, so concurrent requests from
 * one client cannot both pass: each admission is a conditional write that only one writer wins.
 * A budget of more than a few admissions is split over several window records (shards) so that a
 * burst of the whole budget at once is counted in parallel rather than one write at a time, and a
 * write lost to another writer is retried after a jittered pause: contention costs a request a few
 * store calls, and is never answered as a used-up allowance.
 * @module
 */
import { expiryIndexKey, type SweepPolicy, utcDay } from './expiry.ts';
import type { Store, StoredRecord } from './store.ts';

export interface RateLimitRule {
  /** Admissions per window. */
  limit: number;
  windowSeconds: number;
}

export interface RateLimitDecision {
  allowed: boolean;
  /** Seconds until the window resets (0 when allowed); {@link BUSY_RETRY_AFTER_SECONDS} when contended. */
  retryAfterSeconds: number;
  /** Admissions left in the window record that counted this one (the budget left is at least this). */
  remaining: number;
  /** Refused because its writes kept losing to other writers within the bounds below (not because the budget is used up). */
  contended?: true;
  /** The window record that counted an admission: what {@link refund} gives it back to. */
  record?: string;
}

interface WindowRecord {
  window_start_ms: number;
  count: number;
  expires_at_ms: number;
}

/** Conditional writes a request may lose to other writers before it is refused as busy. */
const MAX_LOST_WRITES = 12;

/**
 * Window-record reads a request makes at most: with {@link MAX_LOST_WRITES} writes and a few index
 * entries, one request never costs more than about sixty store calls however many requests meet.
 */
const MAX_READS = 40;

/**
 * Longest a request pauses in all between lost writes before it is refused as busy. With the reads
 * and writes bounded too, a contended request ends within this plus its store calls' latency.
 */
const PAUSE_BUDGET_MS = 4000;

/** Longest single pause between two attempts. */
const MAX_BACKOFF_MS = 400;

/** At most this many window records (shards) per limit: a budget of 60 sent at once meets about 5 requests to a record. */
const MAX_SHARDS = 12;

/** A budget is split only into shards of at least this many admissions (smaller budgets keep one record). */
const MIN_PER_SHARD = 5;

/** Seconds a request refused as busy (every attempt lost) is asked to wait: the burst it met is over by then. */
export const BUSY_RETRY_AFTER_SECONDS = 1;

/**
 * The sentence for a refusal that met contention (`contended`): busy, never a used-up allowance.
 * `subject` names what was being counted, with its verb ("Revocation is", "Export calls are").
 */
export function busyText(subject: string): string {
  return `${subject} busy (too many requests counted at the same moment); retry in ${BUSY_RETRY_AFTER_SECONDS} s. None of the allowance was used.`;
}

/** How {@link consume} waits between contended attempts; tests replace it to run without real pauses. */
export interface Backoff {
  /** Waits `ms` milliseconds. */
  sleep(ms: number): Promise<void>;
  /** A number in [0, 1): the shard a request starts at, and the share of the pause ceiling it waits. */
  random(): number;
  /** Milliseconds on a monotonic clock (the time spent under contention, not the limiter's window clock). */
  elapsedMs(): number;
}

const REAL_BACKOFF: Backoff = {
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  random: Math.random,
  elapsedMs: () => performance.now(),
};

/** The window records a budget of `limit` is split over: `key` alone, or `key/0` … `key/<n-1>`. */
export function shardKeys(key: string, limit: number): string[] {
  const shards = Math.max(1, Math.min(MAX_SHARDS, Math.floor(limit / MIN_PER_SHARD)));
  return shards === 1 ? [key] : Array.from({ length: shards }, (_, i) => `${key}/${i}`);
}

/**
 * Admits one request for `key` if the window has room. A budget of 2 × {@link MIN_PER_SHARD} or more
 * is split exactly over {@link shardKeys} (the shares add up to `limit`); see {@link consumeOver}.
 * A request refused as `contended` is answered as "busy", never as a used-up allowance.
 */
export async function consume(
  store: Store,
  key: string,
  rule: RateLimitRule,
  nowMs: number,
  backoff: Backoff = REAL_BACKOFF,
): Promise<RateLimitDecision> {
  return consumeOver(store, shardKeys(key, rule.limit), rule, nowMs, backoff);
}

/**
 * A limit shared by every client (a site-wide ceiling) without one hot record: the budget is split
 * exactly over `shards` windows (`<key>/<n>`), counted as {@link consume} counts a split budget.
 */
export async function consumeShared(
  store: Store,
  key: string,
  rule: RateLimitRule,
  shards: number,
  nowMs: number,
  backoff: Backoff = REAL_BACKOFF,
): Promise<RateLimitDecision> {
  return consumeOver(
    store,
    Array.from({ length: shards }, (_, i) => `${key}/${i}`),
    rule,
    nowMs,
    backoff,
  );
}

/**
 * Counts one admission on the window records `keys`, which share the budget exactly. A request reads
 * one random shard and writes it when it has room; when that shard is full it reads every other
 * shard not yet known full at once, and writes a random one with room; it is refused as full only
 * when every shard is full (the wait is the soonest a shard reopens). A write lost to another writer
 * is retried on a random shard after a jittered pause that grows with each loss (its ceiling starts
 * at the lost attempt's own duration, so it follows the store's latency). A request that has not
 * counted itself after {@link MAX_LOST_WRITES} lost writes, {@link MAX_READS} reads or
 * {@link PAUSE_BUDGET_MS} of pauses is refused as `contended`. Failing closed keeps the limit exact.
 */
async function consumeOver(store: Store, keys: string[], rule: RateLimitRule, nowMs: number, backoff: Backoff): Promise<RateLimitDecision> {
  const windowMs = rule.windowSeconds * 1000;
  // Shard i's share: the limit divided as evenly as whole numbers allow, adding up to the limit.
  const share = (i: number): number => Math.floor(rule.limit / keys.length) + (i < rule.limit % keys.length ? 1 : 0);
  const pick = <T>(items: T[]): T => items[Math.min(items.length - 1, Math.floor(backoff.random() * items.length))]!;
  let open = keys.map((_, i) => i).filter((i) => share(i) > 0);
  let full: RateLimitDecision | undefined;
  let toRead = [pick(open)];
  let reads = 0;
  let losses = 0;
  let paused = 0;
  while (reads + toRead.length <= MAX_READS) {
    const attemptStarted = backoff.elapsedMs();
    reads += toRead.length;
    const read = await Promise.all(toRead.map(async (i) => ({ i, current: await store.get<WindowRecord>(keys[i]!) })));
    const roomy: typeof read = [];
    for (const shard of read) {
      const refusal = fullRefusal(shard.current, share(shard.i), windowMs, nowMs);
      if (!refusal) roomy.push(shard);
      else {
        // Full for this request's clock: never read again; the refusal names the soonest a full shard reopens.
        open = open.filter((i) => i !== shard.i);
        if (!full || refusal.retryAfterSeconds < full.retryAfterSeconds) full = refusal;
      }
    }
    if (open.length === 0 && full) return full;
    if (roomy.length === 0) {
      toRead = open;
      continue;
    }
    const chosen = pick(roomy);
    const decision = await writeAdmission(store, keys[chosen.i]!, chosen.current, share(chosen.i), windowMs, nowMs);
    if (decision) return { ...decision, record: keys[chosen.i]! };
    // Lost to another writer: pause (jittered, growing), then read a random shard with room again.
    const now = backoff.elapsedMs();
    const pause = backoff.random() * Math.min(MAX_BACKOFF_MS, Math.max(1, now - attemptStarted) * 2 ** losses);
    if (++losses >= MAX_LOST_WRITES || paused + pause > PAUSE_BUDGET_MS) break;
    paused += pause;
    await backoff.sleep(pause);
    toRead = [pick(open)];
  }
  return { allowed: false, retryAfterSeconds: BUSY_RETRY_AFTER_SECONDS, remaining: 0, contended: true };
}

/** The refusal when `current` is a window still open at `nowMs` with no room left; null when it has room. */
function fullRefusal(current: StoredRecord<WindowRecord> | null, limit: number, windowMs: number, nowMs: number): RateLimitDecision | null {
  if (!current) return null;
  const windowEnd = current.value.window_start_ms + windowMs;
  if (nowMs >= windowEnd || current.value.count < limit) return null;
  // A request that read the clock just before another opened the window would see more than a
  // full window left; never promise a wait longer than the window.
  const retryAfterSeconds = Math.min(windowMs / 1000, Math.max(1, Math.ceil((windowEnd - nowMs) / 1000)));
  return { allowed: false, retryAfterSeconds, remaining: 0 };
}

/** The conditional write that counts one admission on a window read with room: the decision, or null when another writer won. */
async function writeAdmission(
  store: Store,
  key: string,
  current: StoredRecord<WindowRecord> | null,
  limit: number,
  windowMs: number,
  nowMs: number,
): Promise<RateLimitDecision | null> {
  if (current && nowMs < current.value.window_start_ms + windowMs) {
    const next: WindowRecord = { ...current.value, count: current.value.count + 1 };
    return (await store.set(key, next, { onlyIfMatch: current.etag })).modified
      ? { allowed: true, retryAfterSeconds: 0, remaining: limit - next.count }
      : null;
  }
  // No window, or it has ended: open a new one. A window is swept once it has ended (kernel/expiry.ts):
  // one index entry per key and day, written before the window.
  const fresh: WindowRecord = { window_start_ms: nowMs, count: 1, expires_at_ms: nowMs + windowMs };
  const freshEnd = fresh.expires_at_ms / 1000;
  if (!current || utcDay(current.value.expires_at_ms / 1000) !== utcDay(freshEnd)) await store.set(expiryIndexKey(key, freshEnd), 0);
  const written = await store.set(key, fresh, current ? { onlyIfMatch: current.etag } : { onlyIfNew: true });
  return written.modified ? { allowed: true, retryAfterSeconds: 0, remaining: limit - 1 } : null;
}

/**
 * Gives back one admission (e.g. the request failed after it was admitted) to the window record that
 * counted it ({@link RateLimitDecision.record}). Best effort: a few attempts, no pauses.
 */
export async function refund(store: Store, record: string): Promise<void> {
  for (let attempt = 0; attempt < MAX_LOST_WRITES; attempt++) {
    const current = await store.get<WindowRecord>(record);
    if (!current || current.value.count <= 0) return;
    if ((await store.set(record, { ...current.value, count: current.value.count - 1 }, { onlyIfMatch: current.etag })).modified) return;
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
