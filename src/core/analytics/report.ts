/**
 * What the operator reads: the usage of a date range, day by day, from the rolled-up days and, for
 * today, the raw records as they stand (the same thresholds applied), with totals and the series the
 * charts draw. One source for `npm run stats` and the `/ops/` page.
 * @module
 */
import { type Audience, type MetricsRecord, rawMetricsPrefix } from '../kernel/metrics.ts';
import type { Store } from '../kernel/store.ts';
import { type DayRecord, dayKey, finalize, mergeInto } from './rollup.ts';

export interface UsageReport {
  from: string;
  to: string;
  days: DayRecord[];
  totals: Record<string, number>;
  /** Queries over the range, most asked first. */
  topQueries: { query: string; n: number }[];
  /** Queries that found nothing over the range, most asked first: what authors could write. */
  zeroResultQueries: { query: string; n: number }[];
}

const DAY_MS = 86_400_000;
export const utcDayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** Every UTC day from `from` to `to`, both included. */
export function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += DAY_MS) days.push(utcDayOf(t));
  return days;
}

/** One day as it stands: its rolled-up record, plus raw records not rolled up yet (today's, or a late run's). */
async function readDay(store: Store, day: string, rawKeys: string[]): Promise<DayRecord> {
  let record: DayRecord = (await store.get<DayRecord>(dayKey(day)))?.value ?? { day, counts: {}, queries: {} };
  for (const key of rawKeys.filter((k) => k.startsWith(rawMetricsPrefix(day)))) {
    const raw = await store.get<MetricsRecord>(key).catch(() => null);
    if (raw) record = mergeInto(record, raw.value, key);
  }
  return finalize(record);
}

/** The usage from `from` to `to` (UTC days, both included). */
export async function usageReport(store: Store, from: string, to: string): Promise<UsageReport> {
  const rawKeys = await store.list('raw/');
  const days = await Promise.all(daysBetween(from, to).map((day) => readDay(store, day, rawKeys)));
  const totals: Record<string, number> = {};
  const queries = new Map<string, { n: number; zero: number }>();
  for (const day of days) {
    for (const [name, n] of Object.entries(day.counts)) totals[name] = (totals[name] ?? 0) + n;
    for (const [q, e] of Object.entries(day.queries)) {
      const before = queries.get(q) ?? { n: 0, zero: 0 };
      queries.set(q, { n: before.n + e.n, zero: before.zero + e.zero });
    }
  }
  const ranked = (pick: (e: { n: number; zero: number }) => number) =>
    [...queries]
      .map(([query, e]) => ({ query, n: pick(e) }))
      .filter((q) => q.n > 0)
      .sort((a, b) => b.n - a.n || a.query.localeCompare(b.query))
      .slice(0, 20);
  return { from, to, days, totals, topQueries: ranked((e) => e.n), zeroResultQueries: ranked((e) => e.zero) };
}

/** The counters under `prefix` (`requests.audience.`), by the rest of their name. */
export function group(counts: Record<string, number>, prefix: string): Record<string, number> {
  return Object.fromEntries(
    Object.entries(counts)
      .filter(([name]) => name.startsWith(prefix))
      .map(([name, n]) => [name.slice(prefix.length), n])
      .sort((a, b) => (b[1] as number) - (a[1] as number)),
  );
}

/** The sections the operator sees, each a group of counters. */
export const REPORT_SECTIONS: readonly { title: string; prefix: string }[] = [
  { title: 'Requests by audience', prefix: 'requests.audience.' },
  { title: 'Requests by surface', prefix: 'requests.surface.' },
  { title: 'Agents by family', prefix: 'requests.agent.' },
  { title: 'Markdown twins and llms.txt', prefix: 'documents.' },
  { title: 'MCP methods', prefix: 'mcp.method.' },
  { title: 'MCP tools', prefix: 'mcp.tool.' },
  { title: 'MCP protocol eras', prefix: 'mcp.era.' },
  { title: 'A2A skills', prefix: 'a2a.skill.' },
  { title: 'OAuth registrations', prefix: 'oauth.registration.' },
  { title: 'OAuth tokens by grant', prefix: 'oauth.token.' },
  { title: 'Search', prefix: 'search.' },
  { title: 'Contact and feedback', prefix: 'contact.' },
  { title: 'Errors by family and status', prefix: 'errors.' },
];

/** One {@link REPORT_SECTIONS} section over a report's range: its counters (most first) and their sum. */
export interface ReportSection {
  title: string;
  prefix: string;
  counts: Record<string, number>;
  total: number;
}

/** Every {@link REPORT_SECTIONS} section of `report`, in that order (empty ones included): what both views list. */
export function reportSections(report: Pick<UsageReport, 'totals'>): ReportSection[] {
  return REPORT_SECTIONS.map(({ title, prefix }) => {
    const counts = group(report.totals, prefix);
    return { title, prefix, counts, total: Object.values(counts).reduce((sum, n) => sum + n, 0) };
  });
}

/** The audiences in the order the charts stack them (kernel/metrics.ts `Audience`): people first, then agents, then the rest. */
export const AUDIENCES = ['browser', 'markdown-agent', 'known-agent', 'verified-agent', 'unknown'] as const satisfies readonly Audience[];

/** One day of a series: the value of each key (0 when not counted). */
export interface SeriesDay {
  day: string;
  values: Record<string, number>;
}

/**
 * The counters under `prefix` day by day, for `keys` (default: every key counted in the range, most
 * first): what the charts of requests by audience draw, in the script and on the page.
 */
export function dailySeries(report: Pick<UsageReport, 'days' | 'totals'>, prefix: string, keys?: readonly string[]): SeriesDay[] {
  const names = keys ?? Object.keys(group(report.totals, prefix));
  return report.days.map((day) => ({
    day: day.day,
    values: Object.fromEntries(names.map((key) => [key, day.counts[`${prefix}${key}`] ?? 0])),
  }));
}
