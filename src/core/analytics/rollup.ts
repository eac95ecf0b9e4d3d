/**
 * The roll-up of usage counts (kernel/metrics.ts): raw records, written by every instance at most
 * once a minute, are merged into one record per UTC day, `day/<day>`, and deleted. It runs every
 * hour (the `analytics-rollup` scheduled function), so today's record is at most an hour behind and
 * the raw records of any moment are at most an hour's worth. A search query is kept in a day's
 * record only when at least {@link QUERY_MIN_NETWORKS} client networks asked it; once the day is
 * over, the network digests and the queries below the threshold are dropped.
 *
 * Bounded at any volume: the run reads the raw keys page by page and merges them in batches of
 * {@link ROLLUP_BATCH} (one compare-and-set of the day per batch), and stops starting work after
 * its budget; the next run goes on. Exactly once: a batch's keys are written into the day with its
 * counts, so a run that dies before deleting them, or a second run at the same moment, does not
 * count them again; the list goes when the day is complete.
 * @module
 */
import type { MetricsRecord } from '../kernel/metrics.ts';
import { keyPages, type Store } from '../kernel/store.ts';

/** A query asked by fewer client networks than this is not kept: it could point at one person. */
export const QUERY_MIN_NETWORKS = 3;
/** Most queries kept per day (the most asked), so one day's record stays small whatever strangers send. */
export const MAX_QUERIES_PER_DAY = 200;
/** Raw records merged per write of the day's record. */
export const ROLLUP_BATCH = 100;
const CAS_ATTEMPTS = 8;

/** One day's usage, as the roll-up stores it and `npm run stats` reads it. */
export interface DayRecord {
  day: string;
  counts: Record<string, number>;
  /** Queries at least {@link QUERY_MIN_NETWORKS} networks asked: asked, and found nothing. */
  queries: Record<string, { n: number; zero: number }>;
  /** Queries still below the threshold, with the networks seen so far (kept only until the day is complete). */
  pending_queries?: Record<string, { n: number; zero: number; networks: string[] }>;
  /** Raw records already merged (until the day is complete): a run that dies before deleting one does not count it twice. */
  merged?: string[];
}

export const dayKey = (day: string): string => `day/${day}`;

/** Adds `raw` into `day`: counts summed, queries merged (networks united, capped). */
export function mergeInto(day: DayRecord, raw: Pick<MetricsRecord, 'counts' | 'queries'>, rawKey?: string): DayRecord {
  if (rawKey && day.merged?.includes(rawKey)) return day;
  const counts = { ...day.counts };
  for (const [name, n] of Object.entries(raw.counts)) counts[name] = (counts[name] ?? 0) + n;
  const pending = { ...day.pending_queries };
  const queries = { ...day.queries };
  for (const [q, e] of Object.entries(raw.queries)) {
    if (queries[q]) {
      queries[q] = { n: queries[q].n + e.n, zero: queries[q].zero + e.zero };
      continue;
    }
    const before = pending[q] ?? { n: 0, zero: 0, networks: [] };
    const networks = [...new Set([...before.networks, ...e.networks])].slice(0, 16);
    pending[q] = { n: before.n + e.n, zero: before.zero + e.zero, networks };
  }
  return { day: day.day, counts, queries, pending_queries: pending, merged: rawKey ? [...(day.merged ?? []), rawKey] : (day.merged ?? []) };
}

/** The day's final record: queries several networks asked (the most asked first, capped); every network digest dropped. */
export function finalize(day: DayRecord): DayRecord {
  const queries = { ...day.queries };
  for (const [q, e] of Object.entries(day.pending_queries ?? {}))
    if (e.networks.length >= QUERY_MIN_NETWORKS) queries[q] = { n: e.n, zero: e.zero };
  const kept = Object.entries(queries)
    .sort((a, b) => b[1].n - a[1].n || a[0].localeCompare(b[0]))
    .slice(0, MAX_QUERIES_PER_DAY);
  return { day: day.day, counts: day.counts, queries: Object.fromEntries(kept) };
}

export interface RollupReport {
  days: string[];
  merged: number;
  /** Raw records that could not be read (left in place, logged). */
  unreadable: number;
  done: boolean;
}

/** The UTC day of a raw record's key (`raw/<day>/…`). */
const dayOfRawKey = (key: string): string => key.slice(4, 14);

/**
 * Merges every raw record into its day (today's too, which stays open), oldest first, within
 * `budgetMs`, and completes each past day ({@link finalize}).
 */
export async function rollUp(
  store: Store,
  options: { nowMs: number; clockMs: () => number; budgetMs: number; log?: (line: string) => void },
): Promise<RollupReport> {
  const started = options.clockMs();
  const outOfTime = (): boolean => options.clockMs() - started >= options.budgetMs;
  const today = new Date(options.nowMs).toISOString().slice(0, 10);
  const report: RollupReport = { days: [], merged: 0, unreadable: 0, done: false };
  const touched = new Set<string>();
  // Pages come in key order, so a day's keys are together and the days come oldest first.
  for await (const page of keyPages(store, 'raw/')) {
    const byDay = new Map<string, string[]>();
    for (const key of page) byDay.set(dayOfRawKey(key), [...(byDay.get(dayOfRawKey(key)) ?? []), key]);
    for (const [day, keys] of byDay) {
      if (!touched.has(day)) report.days.push(day);
      touched.add(day);
      for (let i = 0; i < keys.length; i += ROLLUP_BATCH) {
        if (outOfTime()) return report;
        const batch = await readBatch(store, keys.slice(i, i + ROLLUP_BATCH), report, options.log);
        await updateDay(store, day, (current) => batch.reduce((d, [key, raw]) => mergeInto(d, raw, key), current));
        await Promise.all(batch.map(([key]) => store.delete(key)));
        report.merged += batch.length;
      }
    }
  }
  // A past day whose raw records are all in is complete: keep only what may be kept.
  for (const day of [...touched].filter((d) => d < today)) {
    if (outOfTime()) return report;
    await updateDay(store, day, finalize);
  }
  report.done = true;
  return report;
}

/** The records of `keys` that can be read; the others are logged and left for the operator. */
async function readBatch(
  store: Store,
  keys: readonly string[],
  report: RollupReport,
  log: (line: string) => void = console.warn,
): Promise<[string, MetricsRecord][]> {
  const read = await Promise.all(
    keys.map(async (key): Promise<[string, MetricsRecord] | null> => {
      try {
        const found = await store.get<MetricsRecord>(key);
        if (!found) return null; // another run took it
        if (!isMetricsRecord(found.value)) throw new Error('not a usage record');
        return [key, found.value];
      } catch (error) {
        report.unreadable++;
        log(`analytics roll-up: skipped ${key}: ${error instanceof Error ? error.message : String(error)}`);
        return null;
      }
    }),
  );
  return read.filter((r) => r !== null);
}

const isCountMap = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && Object.values(value).every((n) => typeof n === 'number' && Number.isFinite(n));

function isMetricsRecord(value: unknown): value is MetricsRecord {
  if (typeof value !== 'object' || value === null) return false;
  const { counts, queries } = value as Partial<MetricsRecord>;
  return (
    isCountMap(counts) &&
    typeof queries === 'object' &&
    queries !== null &&
    Object.values(queries).every((q) => typeof q?.n === 'number' && typeof q.zero === 'number' && Array.isArray(q.networks))
  );
}

async function updateDay(store: Store, day: string, change: (current: DayRecord) => DayRecord): Promise<void> {
  for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt++) {
    const found = await store.get<DayRecord>(dayKey(day));
    const current: DayRecord = found?.value ?? { day, counts: {}, queries: {} };
    const next = change(current);
    const written = await store.set(dayKey(day), next, found ? { onlyIfMatch: found.etag } : { onlyIfNew: true });
    if (written.modified) return;
  }
  throw new Error(`analytics roll-up: ${dayKey(day)} is busy; the next run goes on`);
}
