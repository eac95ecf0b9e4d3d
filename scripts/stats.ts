/**
 * `npm run stats -- [--from <day>] [--to <day>] [--json | --csv] [--production] [--output <file>]`:
 * the site's usage counts for a range of UTC days (src/core/analytics/report.ts, the same report the
 * `/ops/` page shows). Locally it opens the Blobs `npm start` writes (.netlify/blobs-serve, or
 * NETLIFY_LOCAL_BLOBS_DIR); with --production it reads the deployed site's Blobs (NETLIFY_SITE_ID
 * and NETLIFY_AUTH_TOKEN).
 *
 * The text is a chart of requests by audience per day (one character per audience, so it reads in
 * any terminal and in a plain e-mail), then one table per report section with its total, then the
 * queries. The CSV has one row per day and counter and starts with a UTF-8 byte order mark (Excel).
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { readOperatorStore } from './runtime/operator-store.ts';
import { UTF8_BOM } from './enquiries.ts';
import { DEFAULT_RANGE_DAYS, describeRangeProblem, MAX_RANGE_DAYS, parseRange } from '../src/core/analytics/range.ts';
import { AUDIENCES, dailySeries, REPORT_SECTIONS, reportSections, type UsageReport, usageReport } from '../src/core/analytics/report.ts';
import { escapeInvisibleCharacters, jsonWithEscapedInvisibles } from '../src/core/kernel/visible-text.ts';
import { answerHelp } from './usage.ts';

/** The site ID under which the local runtime keeps an unlinked project's Blobs (as npm run enquiries). */
/** Width of the longest bar of the text chart, in characters. */
const CHART_WIDTH_CHARS = 50;
/** One character per audience, stacked left to right in {@link AUDIENCES} order. */
const AUDIENCE_MARKS: Record<(typeof AUDIENCES)[number], string> = {
  browser: '█',
  'markdown-agent': '▓',
  'known-agent': '▒',
  'verified-agent': '░',
  unknown: '·',
};
const AUDIENCE_PREFIX = 'requests.audience.';

const number = (n: number): string => n.toLocaleString('en-US');
const percent = (n: number, of: number): string => (of > 0 ? `${((100 * n) / of).toFixed(1)}%` : '');
/** A query a stranger typed, as a terminal shows it: control and invisible characters as visible escapes. */
const shown = (text: string): string => escapeInvisibleCharacters(text);

/** The text chart: one line per day, a bar of audience marks scaled to the busiest day, and the day's total. */
export function audienceChart(report: Pick<UsageReport, 'days' | 'totals'>, width = CHART_WIDTH_CHARS): string {
  const series = dailySeries(report, AUDIENCE_PREFIX, AUDIENCES);
  const totals = series.map((d) => AUDIENCES.reduce((sum, a) => sum + d.values[a]!, 0));
  const max = Math.max(0, ...totals);
  const digits = number(max).length;
  const lines = series.map((d, i) => {
    let bar = '';
    let cumulative = 0;
    for (const audience of AUDIENCES) {
      // Each part ends where its cumulative share ends, so rounding never makes a bar longer than its day.
      const before = max > 0 ? Math.round((cumulative / max) * width) : 0;
      cumulative += d.values[audience]!;
      const after = max > 0 ? Math.round((cumulative / max) * width) : 0;
      bar += AUDIENCE_MARKS[audience].repeat(after - before);
    }
    return `${d.day} │${bar.padEnd(width)}│ ${number(totals[i]!).padStart(digits)}`;
  });
  const legend = AUDIENCES.map((a) => `${AUDIENCE_MARKS[a]} ${a}`).join('  ');
  return `Requests by audience per day\n${lines.join('\n')}\n${' '.repeat(11)}${legend}\n`;
}

/** A two-column table: names left, numbers right, with each one's share of the total. */
function table(title: string, rows: readonly [string, number][], total?: number): string {
  const head = total === undefined ? title : `${title}: ${number(total)}`;
  if (rows.length === 0) return `${head}\n  (none)\n`;
  const nameWidth = Math.max(...rows.map(([name]) => name.length));
  const countWidth = Math.max(...rows.map(([, n]) => number(n).length));
  const lines = rows.map(([name, n]) => {
    const share = total === undefined ? '' : `  ${percent(n, total).padStart(6)}`;
    return `  ${name.padEnd(nameWidth)}  ${number(n).padStart(countWidth)}${share}`;
  });
  return `${head}\n${lines.join('\n')}\n`;
}

/** How the range was chosen, for the first line (a default is said, so the reader knows what they see). */
export interface RangeChoice {
  from: string;
  to: string;
  days: number;
  defaulted: boolean;
}

/** The report as text: the range, the chart, a table per {@link REPORT_SECTIONS} section, the queries. */
export function formatText(report: UsageReport, range: RangeChoice): string {
  const because = range.defaulted ? `; the default: the last ${DEFAULT_RANGE_DAYS} days including today` : '';
  const head = `Usage from ${range.from} to ${range.to} (${range.days} ${range.days === 1 ? 'day' : 'days'}, UTC${because})\n`;
  const sections = reportSections(report).map((s) => table(s.title, Object.entries(s.counts), s.total));
  const queries = (list: UsageReport['topQueries']): [string, number][] => list.map((q) => [shown(q.query), q.n]);
  return [
    head,
    audienceChart(report),
    ...sections,
    table('Top search queries', queries(report.topQueries)),
    table('Searches that found nothing', queries(report.zeroResultQueries)),
  ].join('\n');
}

/** The report as one JSON document: the range, every section with its total, each day's counts and queries. */
export function formatJson(report: UsageReport, range: RangeChoice): string {
  const document = {
    from: range.from,
    to: range.to,
    day_count: range.days,
    default_range: range.defaulted,
    sections: reportSections(report),
    totals: report.totals,
    days: report.days.map((d) => ({ day: d.day, counts: d.counts, queries: d.queries })),
    top_queries: report.topQueries,
    zero_result_queries: report.zeroResultQueries,
  };
  return `${jsonWithEscapedInvisibles(JSON.stringify(document, null, 2))}\n`;
}

/** The section a counter belongs to (its title), or '' for a counter no section lists. */
function sectionOf(counter: string): string {
  return REPORT_SECTIONS.find((s) => counter.startsWith(s.prefix))?.title ?? '';
}

/**
 * The report as CSV: BOM, a header, one CRLF row per day and counter counted that day (days in
 * order, counters by name). Counter names come from a fixed vocabulary, so they need no escaping
 * beyond quoting; queries (which strangers type) are not in the CSV: they are in the text and JSON.
 */
export function formatCsv(report: UsageReport): string {
  const rows = report.days.flatMap((d) =>
    Object.keys(d.counts)
      .sort()
      .map((counter) =>
        [d.day, sectionOf(counter), counter, String(d.counts[counter])].map((cell) => `"${cell.replace(/"/g, '""')}"`).join(','),
      ),
  );
  return `${UTF8_BOM + ['day,section,counter,count', ...rows].join('\r\n')}\r\n`;
}

const USAGE = `Usage: npm run stats -- [--from <day>] [--to <day>] [--json | --csv] [--production] [--output <file>]

Prints the site's usage counts for a range of UTC days: a chart of requests by audience per day,
then a table per section (requests, agents, documents, MCP, A2A, OAuth, search, contact, errors)
with its total, then the top queries and the queries that found nothing. Reads the local Blobs
that npm start writes (.netlify/blobs-serve, or NETLIFY_LOCAL_BLOBS_DIR), or with --production
the deployed site's (needs NETLIFY_SITE_ID and NETLIFY_AUTH_TOKEN). The /ops/ page shows the same.

  --from <day>     first day, YYYY-MM-DD (UTC); default: ${DEFAULT_RANGE_DAYS - 1} days before --to
  --to <day>       last day, YYYY-MM-DD (UTC); default: today
                   (neither: the last ${DEFAULT_RANGE_DAYS} days including today; at most ${MAX_RANGE_DAYS} days)
  --json           one JSON document: every section with its total, each day's counts and queries
  --csv            one row per day and counter (day, section, counter, count), UTF-8 with a byte
                   order mark (opens correctly in Excel)
  --output <file>  write to <file> instead of stdout (npm run prints its own banner on stdout:
                   use this, or npm run --silent, when redirecting)`;

class UsageError extends Error {}

interface Options {
  format: 'text' | 'json' | 'csv';
  range: RangeChoice;
  production: boolean;
  output?: string;
}

const parseArgv = (args: string[]) =>
  parseArgs({
    args,
    allowPositionals: false,
    options: {
      from: { type: 'string' },
      to: { type: 'string' },
      json: { type: 'boolean' },
      csv: { type: 'boolean' },
      production: { type: 'boolean' },
      output: { type: 'string', short: 'o' },
    },
  });

/** The options of `args`, the range resolved against `today` (UTC); a {@link UsageError} names what is wrong. */
export function parseOptions(args: string[], today: string): Options {
  let parsed: ReturnType<typeof parseArgv>;
  try {
    parsed = parseArgv(args);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const values = parsed.values;
  if (values.json && values.csv) throw new UsageError('--json and --csv: choose one');
  const range = parseRange({ from: values.from, to: values.to }, today);
  if (!range.ok) throw new UsageError(describeRangeProblem(range.problem));
  return {
    format: values.json ? 'json' : values.csv ? 'csv' : 'text',
    range: { from: range.from, to: range.to, days: range.days, defaulted: values.from === undefined && values.to === undefined },
    production: values.production ?? false,
    output: values.output,
  };
}

async function main(args: string[]): Promise<number> {
  answerHelp(USAGE, args);
  let options: Options;
  try {
    options = parseOptions(args, new Date().toISOString().slice(0, 10));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`error: ${error.message}\n\n${USAGE}\n`);
    return 2;
  }
  const { from, to } = options.range;
  const report: UsageReport = await readOperatorStore('analytics', options.production, (store) => usageReport(store, from, to));
  const text =
    options.format === 'json'
      ? formatJson(report, options.range)
      : options.format === 'csv'
        ? formatCsv(report)
        : formatText(report, options.range);
  if (options.output) {
    writeFileSync(options.output, text);
    process.stderr.write(`Usage from ${from} to ${to} written to ${options.output}\n`);
  } else {
    process.stdout.write(text);
  }
  return 0;
}

if (import.meta.main) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    },
  );
}
