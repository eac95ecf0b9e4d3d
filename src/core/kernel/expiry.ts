/**
 * Records that expire, and the housekeeping that removes them in bounded time at any store size.
 *
 * Every record with an end is written with an entry in an expiry index beside it,
 * `expires/<YYYY-MM-DD>/<record key>` (the UTC day it expires; the entry's value is empty). The sweep
 * walks the index one past day at a time, so its cost follows the records that expire, not the
 * records that live: a store of a million live registrations costs nothing to sweep until they
 * expire. Index entries are hints: the sweep reads the record and its own expiry field decides (a
 * record whose end moved, a registration used again, is indexed again under its new day; an entry
 * whose record is gone is dropped). The index entry is written before the record, so a record can
 * never exist without one (a failed record write leaves an entry that points nowhere, which the
 * sweep drops).
 *
 * A run stops when its time budget is spent and saves where it stopped (`sweep/state`); the next
 * run goes on from there. Records written before the index existed are indexed once by a resumable
 * backfill of the prefixes a store declares.
 * @module
 */
import { keyPages, type Store, type WriteCondition } from './store.ts';

export const EXPIRY_INDEX_PREFIX = 'expires/';
/** Where a store's sweep keeps its progress. */
export const SWEEP_STATE_KEY = 'sweep/state';
/** Records examined at once (reads and deletes in flight). */
const SWEEP_CONCURRENCY = 16;
const DAY_SECONDS = 86_400;

/** The UTC day (`YYYY-MM-DD`) of a Unix time in seconds. */
export const utcDay = (seconds: number): string => new Date(seconds * 1000).toISOString().slice(0, 10);

/** The index entry of `key` expiring at `expiresAtSeconds`. */
export const expiryIndexKey = (key: string, expiresAtSeconds: number): string => `${EXPIRY_INDEX_PREFIX}${utcDay(expiresAtSeconds)}/${key}`;

/** Writes a record that ends at `expiresAtSeconds`: its index entry first, then the record (with `condition`). */
export async function setExpiring<T>(
  store: Store,
  key: string,
  value: T,
  expiresAtSeconds: number,
  condition?: WriteCondition,
): Promise<{ modified: boolean; etag?: string | undefined }> {
  await store.set(expiryIndexKey(key, expiresAtSeconds), 0);
  return store.set(key, value, condition);
}

/** What a store's sweep needs to know about its records. */
export interface SweepPolicy {
  /**
   * When the record under `key` ends (Unix seconds), or null to keep it for good. May read other
   * records (a claim-token index lives as long as its registration).
   */
  expiresAt(key: string, value: unknown, store: Store): number | null | Promise<number | null>;
  /** Prefixes of the records written before the expiry index existed: indexed once by the backfill. */
  legacyPrefixes: readonly string[];
}

export interface SweepOptions {
  nowSeconds: number;
  /** Wall-clock milliseconds (the budget is measured with it). */
  clockMs: () => number;
  /** Stop starting new work after this long; a run then ends within one batch of it. */
  budgetMs: number;
  /** Where an unreadable record is reported (default console.warn). */
  log?: (line: string) => void;
}

export interface SweepReport {
  /** Records deleted, by the first segment of their key (`client`, `code`, ...). */
  deleted: Record<string, number>;
  /** Records whose end moved, indexed again under their new day. */
  reindexed: number;
  /** Index entries whose record was already gone. */
  orphans: number;
  /** Records that could not be read (not JSON): left in place and logged, never fatal to the run. */
  unreadable: number;
  /** Legacy records indexed (or deleted) by the backfill in this run. */
  backfilled: number;
  /** Whether every past day and the backfill are finished (false: the budget ran out; the next run goes on). */
  done: boolean;
  /** The first day not yet swept. */
  nextDay: string | null;
}

interface SweepState {
  /** The first day whose index entries may still be there; null before the first run. */
  day: string | null;
  backfill: { prefix: number; after: string } | 'done';
}

const kindOf = (key: string): string => key.slice(0, key.indexOf('/') === -1 ? key.length : key.indexOf('/'));
const nextDay = (day: string): string => utcDay(Date.parse(`${day}T00:00:00Z`) / 1000 + DAY_SECONDS);

async function inBatches<T>(items: readonly T[], work: (item: T) => Promise<void>, outOfTime: () => boolean): Promise<boolean> {
  for (let i = 0; i < items.length; i += SWEEP_CONCURRENCY) {
    if (outOfTime()) return false;
    await Promise.all(items.slice(i, i + SWEEP_CONCURRENCY).map(work));
  }
  return true;
}

/**
 * One bounded run of the sweep over `store`: the backfill of legacy records while it lasts, then the
 * expiry index from the first unfinished day up to yesterday. Idempotent and safe to run twice at
 * once (every step re-reads the record it acts on).
 */
export async function sweepExpired(store: Store, policy: SweepPolicy, options: SweepOptions): Promise<SweepReport> {
  const started = options.clockMs();
  const outOfTime = (): boolean => options.clockMs() - started >= options.budgetMs;
  const report: SweepReport = { deleted: {}, reindexed: 0, orphans: 0, unreadable: 0, backfilled: 0, done: false, nextDay: null };
  const log = options.log ?? console.warn;
  /** The record under `key`, or undefined when it cannot be read (logged): one bad record never stops a run. */
  const read = async (key: string): Promise<{ value: unknown } | null | undefined> => {
    try {
      return await store.get(key);
    } catch (error) {
      report.unreadable++;
      log(`sweep: skipped ${key}: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
  };
  const state = ((await read(SWEEP_STATE_KEY))?.value as SweepState | undefined) ?? { day: null, backfill: { prefix: 0, after: '' } };
  const save = (): Promise<unknown> => store.set(SWEEP_STATE_KEY, state);
  const today = utcDay(options.nowSeconds);

  const deleteRecord = async (key: string): Promise<void> => {
    await store.delete(key);
    const kind = kindOf(key);
    report.deleted[kind] = (report.deleted[kind] ?? 0) + 1;
  };

  /** Deletes the record if it has ended; otherwise makes sure its index entry names its current day. Returns whether it lives. */
  const settle = async (key: string, value: unknown, indexedDay: string | null): Promise<void> => {
    const end = await policy.expiresAt(key, value, store);
    if (end !== null && end <= options.nowSeconds) return deleteRecord(key);
    if (end !== null && utcDay(end) !== indexedDay) {
      await store.set(expiryIndexKey(key, end), 0);
      if (indexedDay !== null) report.reindexed++;
    }
  };

  // 1. Records from before the index: each read once, then indexed or deleted.
  while (state.backfill !== 'done' && !outOfTime()) {
    const progress = state.backfill;
    const prefix = policy.legacyPrefixes[progress.prefix];
    if (prefix === undefined) {
      state.backfill = 'done';
      break;
    }
    const keys = (await store.list(prefix)).filter((k) => k > progress.after).sort();
    for (let i = 0; i < keys.length && !outOfTime(); i += SWEEP_CONCURRENCY) {
      const batch = keys.slice(i, i + SWEEP_CONCURRENCY);
      await Promise.all(
        batch.map(async (key) => {
          const found = await read(key);
          if (found) await settle(key, found.value, null);
          report.backfilled++;
        }),
      );
      progress.after = batch[batch.length - 1]!;
      await save();
    }
    if (!outOfTime()) state.backfill = { prefix: progress.prefix + 1, after: '' };
    await save();
  }

  // 2. The index, one past day at a time.
  if (state.day === null && state.backfill === 'done') {
    // The first page holds the earliest day: listings are in key order (Netlify Blobs, the memory store).
    let first: string | undefined;
    for await (const page of keyPages(store, EXPIRY_INDEX_PREFIX)) {
      first = page.map((k) => k.slice(EXPIRY_INDEX_PREFIX.length, EXPIRY_INDEX_PREFIX.length + 10)).sort()[0];
      break;
    }
    state.day = first ?? today;
    await save();
  }
  while (state.backfill === 'done' && state.day !== null && state.day < today && !outOfTime()) {
    const day = state.day;
    const dayPrefix = `${EXPIRY_INDEX_PREFIX}${day}/`;
    let finished = true;
    for await (const page of keyPages(store, dayPrefix)) {
      const complete = await inBatches(
        page,
        async (indexKey) => {
          const key = indexKey.slice(dayPrefix.length);
          const found = await read(key);
          if (found === null) report.orphans++;
          else if (found) await settle(key, found.value, day);
          await store.delete(indexKey);
        },
        outOfTime,
      );
      if (!complete) {
        finished = false;
        break;
      }
    }
    if (!finished) break;
    state.day = nextDay(day);
    await save();
  }
  report.nextDay = state.day;
  report.done = state.backfill === 'done' && state.day !== null && state.day >= today;
  return report;
}
