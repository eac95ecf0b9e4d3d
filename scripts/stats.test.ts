/** `npm run stats`: the range it reads, the text chart and tables, JSON and CSV, usage errors; and the script over real local Blobs. */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blobsStore } from '../netlify/functions/_shared/blobs-store.ts';
import { usageReport } from '../src/core/analytics/report.ts';
import { type DayRecord, dayKey } from '../src/core/analytics/rollup.ts';
import { memoryStore } from '../src/core/kernel/memory-store.ts';
import type { MetricsRecord } from '../src/core/kernel/metrics.ts';
import type { Store } from '../src/core/kernel/store.ts';
import { UTF8_BOM } from './enquiries.ts';
import { startLocalBlobs } from './runtime/local-blobs.ts';
import { audienceChart, formatCsv, formatJson, formatText, parseOptions } from './stats.ts';

const DAY1: DayRecord = {
  day: '2027-03-09',
  counts: {
    'requests.audience.browser': 30,
    'requests.audience.markdown-agent': 10,
    'requests.agent.claude': 10,
    'mcp.tool.search_articles': 4,
    'errors.api.404': 2,
  },
  queries: { 'llm gateway': { n: 5, zero: 0 }, 'agent memory': { n: 3, zero: 3 } },
};
const DAY2: DayRecord = { day: '2027-03-10', counts: { 'requests.audience.browser': 10, 'mcp.tool.get_article': 1 }, queries: {} };
/** Today's raw record, not rolled up yet: the report counts it. */
const RAW: MetricsRecord = { from_ms: 0, to_ms: 0, counts: { 'requests.audience.known-agent': 5 }, queries: {} };

async function seed(store: Store): Promise<void> {
  await store.set(dayKey(DAY1.day), DAY1);
  await store.set(dayKey(DAY2.day), DAY2);
  await store.set('raw/2027-03-11/i1/000001', RAW);
}

describe('the range', () => {
  it('neither --from nor --to: the last 7 days including today, and the text says it was the default', () => {
    expect(parseOptions([], '2027-03-11').range).toEqual({ from: '2027-03-05', to: '2027-03-11', days: 7, defaulted: true });
    expect(parseOptions(['--from', '2027-03-10'], '2027-03-11').range).toEqual({
      from: '2027-03-10',
      to: '2027-03-11',
      days: 2,
      defaulted: false,
    });
    expect(parseOptions(['--to', '2027-03-01'], '2027-03-11').range.from).toBe('2027-02-23');
  });

  it.each([
    [['--from', '2027-02-30'], '--from "2027-02-30" is not a day'],
    [['--to', 'yesterday'], '--to "yesterday" is not a day'],
    [['--from', '2027-03-11', '--to', '2027-03-10'], '--from 2027-03-11 is after --to 2027-03-10'],
    [['--from', '2026-01-01', '--to', '2027-03-10'], 'the longest range is 366 days'],
    [['--json', '--csv'], 'choose one'],
    [['csv'], 'Unexpected argument'],
  ])('%j is refused: %s', (args, message) => {
    expect(() => parseOptions(args, '2027-03-11')).toThrow(message);
  });
});

describe('formats', () => {
  const range = { from: '2027-03-09', to: '2027-03-11', days: 3, defaulted: false };
  const report = async () => {
    const store = memoryStore();
    await seed(store);
    return usageReport(store, range.from, range.to);
  };

  it('the chart: a bar per day, scaled to the busiest, one mark per audience, the total beside it', async () => {
    const chart = audienceChart(await report(), 40).split('\n');
    expect(chart[0]).toBe('Requests by audience per day');
    expect(chart[1]).toBe(`2027-03-09 │${'█'.repeat(30)}${'▓'.repeat(10)}│ 40`);
    expect(chart[2]).toBe(`2027-03-10 │${'█'.repeat(10)}${' '.repeat(30)}│ 10`);
    expect(chart[3]).toBe(`2027-03-11 │${'▒'.repeat(5)}${' '.repeat(35)}│  5`);
    expect(chart[4]).toContain('█ browser  ▓ markdown-agent  ▒ known-agent  ░ verified-agent  · unknown');
  });

  it('the text: the range, a table per section with its total and shares, the queries', async () => {
    const text = formatText(await report(), range);
    expect(text.split('\n')[0]).toBe('Usage from 2027-03-09 to 2027-03-11 (3 days, UTC)');
    expect(text).toContain(
      'Requests by audience: 55\n  browser         40   72.7%\n  markdown-agent  10   18.2%\n  known-agent      5    9.1%\n',
    );
    expect(text).toContain('MCP tools: 5\n  search_articles  4   80.0%\n  get_article      1   20.0%\n');
    expect(text).toContain('A2A skills: 0\n  (none)\n');
    expect(text).toContain('Top search queries\n  llm gateway   5\n  agent memory  3\n');
    expect(text).toContain('Searches that found nothing\n  agent memory  3\n');
    expect(formatText(await report(), { ...range, defaulted: true }).split('\n')[0]).toContain(
      'the default: the last 7 days including today',
    );
  });

  it('json: the range, every section with its total, each day', async () => {
    const json = JSON.parse(formatJson(await report(), range));
    expect(json).toMatchObject({ from: '2027-03-09', to: '2027-03-11', day_count: 3, default_range: false });
    expect(json.sections.find((s: { prefix: string }) => s.prefix === 'requests.audience.')).toEqual({
      title: 'Requests by audience',
      prefix: 'requests.audience.',
      counts: { browser: 40, 'markdown-agent': 10, 'known-agent': 5 },
      total: 55,
    });
    expect(json.days.map((d: { day: string }) => d.day)).toEqual(['2027-03-09', '2027-03-10', '2027-03-11']);
    expect(json.zero_result_queries).toEqual([{ query: 'agent memory', n: 3 }]);
  });

  it('csv: BOM, one row per day and counter, with its section', async () => {
    const csv = formatCsv(await report());
    expect(csv.startsWith(UTF8_BOM)).toBe(true);
    expect(csv.slice(1).split('\r\n')).toEqual([
      'day,section,counter,count',
      '"2027-03-09","Errors by family and status","errors.api.404","2"',
      '"2027-03-09","MCP tools","mcp.tool.search_articles","4"',
      '"2027-03-09","Agents by family","requests.agent.claude","10"',
      '"2027-03-09","Requests by audience","requests.audience.browser","30"',
      '"2027-03-09","Requests by audience","requests.audience.markdown-agent","10"',
      '"2027-03-10","MCP tools","mcp.tool.get_article","1"',
      '"2027-03-10","Requests by audience","requests.audience.browser","10"',
      '"2027-03-11","Requests by audience","requests.audience.known-agent","5"',
      '',
    ]);
  });

  it('a query with control characters reaches the terminal escaped', async () => {
    const store = memoryStore();
    await store.set(dayKey('2027-03-09'), { day: '2027-03-09', counts: {}, queries: { '\u001b[2jowned': { n: 4, zero: 4 } } });
    const text = formatText(await usageReport(store, '2027-03-09', '2027-03-09'), {
      ...range,
      from: '2027-03-09',
      to: '2027-03-09',
      days: 1,
    });
    expect(text).not.toContain('\u001b');
    expect(text).toContain('\\u{1B}[2jowned');
  });
});

describe('the command line, over real local Blobs', () => {
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'stats-'));
    const server = await startLocalBlobs(path.join(dir, 'blobs'), 'seed', { owner: true });
    try {
      await seed(blobsStore('analytics', { siteID: '0', token: 'seed', edgeURL: server.url, uncachedEdgeURL: server.url }));
    } finally {
      await server.stop();
    }
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const run = (args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
    new Promise((resolve) =>
      execFile(
        process.execPath,
        [path.join(import.meta.dirname, 'stats.ts'), ...args],
        { env: { ...process.env, NETLIFY_LOCAL_BLOBS_DIR: path.join(dir, 'blobs') } },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
      ),
    );

  it('--json reads what the runtime stored, today’s raw record included', async () => {
    const { code, stdout, stderr } = await run(['--from', '2027-03-09', '--to', '2027-03-11', '--json']);
    expect({ code, stderr }).toEqual({ code: 0, stderr: `Local Blobs: ${path.join(dir, 'blobs')}\n` });
    expect(JSON.parse(stdout).totals).toEqual({
      'requests.audience.browser': 40,
      'requests.audience.markdown-agent': 10,
      'requests.audience.known-agent': 5,
      'requests.agent.claude': 10,
      'mcp.tool.search_articles': 4,
      'mcp.tool.get_article': 1,
      'errors.api.404': 2,
    });
  });

  it('--csv --output writes the file, BOM first, and says so on stderr', async () => {
    const file = path.join(dir, 'out.csv');
    const { code, stdout, stderr } = await run(['--from', '2027-03-10', '--to', '2027-03-10', '--csv', '--output', file]);
    expect({ code, stdout, stderr }).toEqual({
      code: 0,
      stdout: '',
      stderr: `Local Blobs: ${path.join(dir, 'blobs')}\nUsage from 2027-03-10 to 2027-03-10 written to ${file}\n`,
    });
    expect(readFileSync(file, 'utf8')).toBe(
      `${UTF8_BOM}day,section,counter,count\r\n"2027-03-10","MCP tools","mcp.tool.get_article","1"\r\n"2027-03-10","Requests by audience","requests.audience.browser","10"\r\n`,
    );
  });

  it.each([
    [['--from', '2027-13-01'], '--from "2027-13-01" is not a day'],
    [['--from', '2027-03-11', '--to', '2027-03-01'], 'is after --to'],
    [['--bogus'], "Unknown option '--bogus'"],
  ])('%j is a usage error, exit 2, nothing on stdout', async (args, message) => {
    const { code, stdout, stderr } = await run(args);
    expect({ code, stdout }).toEqual({ code: 2, stdout: '' });
    expect(stderr).toContain(message);
    expect(stderr).toContain('Usage: npm run stats');
  });
});
