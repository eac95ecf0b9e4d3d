/**
 * The daily roll-up of usage counts (kernel/metrics.ts): each past day's raw records, written by
 * every instance at most once a minute, are merged into one record `day/<UTC day>` and deleted. A
 * search query is kept in the day's record only when at least {@link QUERY_MIN_NETWORKS} client
 * networks asked it; the network digests are then dropped. A run stops starting work after its
 * budget and the next run goes on (a day's record is merged with compare-and-set, so two runs at
 * once never lose counts, and a raw record is deleted only after its counts are in the day).
 * @module
 */
import type { MetricsRecord } from '../kernel/metrics.ts';
import { rawMetricsPrefix } from '../kernel/metrics.ts';
import type { Store } from '../kernel/store.ts';

/** A query asked by fewer client networks than this is not kept: it could point at one person. */
export const QUERY_MIN_NETWORKS = 3;
/** Most queries kept per day (the most asked), so one day's record stays small whatever strangers send. */
export const MAX_QUERIES_PER_DAY = 200;
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

/**
 * Rolls up every past day that still has raw records, oldest first, within `budgetMs`. Today is left
 * raw: `npm run stats` reads today's raw records as they are.
 */
export async function rollUp(
  store: Store,
  options: { nowMs: number; clockMs: () => number; budgetMs: number; log?: (line: string) => void },
): Promise<RollupReport> {
  const started = options.clockMs();
  const outOfTime = (): boolean => options.clockMs() - started >= options.budgetMs;
  const today = new Date(options.nowMs).toISOString().slice(0, 10);
  const report: RollupReport = { days: [], merged: 0, unreadable: 0, done: false };
  const rawKeys = await store.list('raw/');
  const days = [...new Set(rawKeys.map((k) => k.slice(4, 14)))].filter((d) => d < today).sort();
  for (const day of days) {
    if (outOfTime()) return report;
    report.days.push(day);
    const keys = rawKeys.filter((k) => k.startsWith(rawMetricsPrefix(day)));
    for (const key of keys) {
      if (outOfTime()) return report;
      let raw: MetricsRecord | undefined;
      try {
        raw = (await store.get<MetricsRecord>(key))?.value;
      } catch (error) {
        report.unreadable++;
        (options.log ?? console.warn)(`analytics roll-up: skipped ${key}: ${error instanceof Error ? error.message : String(error)}`);
        continue;
      }
      if (raw) await updateDay(store, day, (current) => mergeInto(current, raw, key));
      await store.delete(key);
      report.merged++;
    }
    // The day is complete (it is past, and every raw record of it is in): keep only what may be kept.
    await updateDay(store, day, finalize);
  }
  report.done = true;
  return report;
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
