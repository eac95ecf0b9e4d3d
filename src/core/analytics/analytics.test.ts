/** Usage counts in-process: no write per request, nothing that identifies a person, a roll-up that counts each record once. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryStore } from '../kernel/memory-store.ts';
import { ipDigest } from '../kernel/ip-digest.ts';
import {
  audienceOf,
  countRequest,
  countsUsage,
  DEV_SERVER_ENV,
  METRICS_FLUSH_INTERVAL_MS,
  Metrics,
  type MetricsRecord,
  userAgentFamily,
} from '../kernel/metrics.ts';
import type { Store } from '../kernel/store.ts';
import { usageReport } from './report.ts';
import { type DayRecord, dayKey, QUERY_MIN_NETWORKS, ROLLUP_BATCH, rollUp } from './rollup.ts';

const T0 = Date.parse('2027-03-10T09:00:00Z');
const SECRET = 'a-test-secret-of-at-least-thirty-two-characters';
const networkDigest = (network: string) => ipDigest(SECRET, network);

function setup(store: Store = memoryStore()) {
  let now = T0;
  let writes = 0;
  const counting: Store = {
    ...store,
    set: (key, value, condition) => {
      writes++;
      return store.set(key, value, condition);
    },
  };
  const metrics = new Metrics({ store: () => counting, clock: () => now, instanceId: 'i1', networkDigest });
  return {
    store,
    metrics,
    writes: () => writes,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe('counting in an instance', () => {
  it('the first request writes at once; 10,000 more within the interval cost no write; the next request after it costs one', async () => {
    const s = setup();
    s.metrics.count('requests.audience.browser');
    await s.metrics.flushIfDue();
    expect(s.writes()).toBe(1); // an instance recycled after a few requests still counted them
    for (let i = 0; i < 10_000; i++) {
      s.advance(1);
      s.metrics.count('requests.audience.browser');
      await s.metrics.flushIfDue();
    }
    expect(s.writes()).toBe(1);
    s.advance(METRICS_FLUSH_INTERVAL_MS);
    await s.metrics.flushIfDue();
    expect(s.writes()).toBe(2);
    const keys = (await s.store.list('raw/')).sort();
    expect(keys).toEqual(['raw/2027-03-10/i1/000001', 'raw/2027-03-10/i1/000002']);
    expect((await s.store.get<MetricsRecord>(keys[1]!))!.value.counts).toEqual({ 'requests.audience.browser': 10_000 });
  });

  it('a record is filed under the day it is written, so it never lands in a day the roll-up completed', async () => {
    const s = setup();
    s.metrics.count('x.y.z');
    await s.metrics.flushIfDue();
    s.advance(23 * 3_600_000); // counted from 10 Mar 09:00 + 23 h, written on 11 Mar
    s.metrics.count('x.y.z');
    s.advance(METRICS_FLUSH_INTERVAL_MS);
    await s.metrics.flushIfDue();
    expect((await s.store.list('raw/')).sort()).toEqual(['raw/2027-03-10/i1/000001', 'raw/2027-03-11/i1/000002']);
  });

  it('a failed write keeps the counts for the next one', async () => {
    const inner = memoryStore();
    let fail = true;
    const flaky: Store = { ...inner, set: (k, v, c) => (fail ? Promise.reject(new Error('Blobs down')) : inner.set(k, v, c)) };
    let now = T0;
    const metrics = new Metrics({ store: () => flaky, clock: () => now, instanceId: 'i1', networkDigest, log: () => {} });
    metrics.count('mcp.tool.search_articles', 3);
    await metrics.flushIfDue(true);
    metrics.count('mcp.tool.search_articles');
    fail = false;
    now += METRICS_FLUSH_INTERVAL_MS;
    await metrics.flushIfDue();
    const records = await Promise.all((await inner.list('raw/')).map(async (k) => (await inner.get<MetricsRecord>(k))!.value));
    expect(records.map((r) => r.counts)).toEqual([{ 'mcp.tool.search_articles': 4 }]);
  });

  it('a query keeps only a short keyed digest of each network, never an address or a user agent', async () => {
    const s = setup();
    s.metrics.usage('203.0.113.7').query('  LLM   Gateway ', 0);
    s.metrics.usage('2001:db8:1:2::/64').query('llm gateway', 2);
    s.metrics.usage('203.0.113.7').query('LLM gateway', 1);
    await s.metrics.flushIfDue(true);
    const record = (await s.store.get<MetricsRecord>((await s.store.list('raw/'))[0]!))!.value;
    const short = async (network: string) => (await networkDigest(network)).slice(0, 8);
    expect(record.queries).toEqual({
      'llm gateway': { n: 3, zero: 1, networks: [await short('203.0.113.7'), await short('2001:db8:1:2::/64')] },
    });
    expect(JSON.stringify(record)).not.toMatch(/203\.0\.113|2001:db8/);
  });

  it('counts a request by audience, agent family, surface and error status, and names nothing a client chose', () => {
    const s = setup();
    const usage = s.metrics.usage('203.0.113.7');
    const counted: string[] = [];
    const spy = { count: (name: string) => counted.push(name), query: usage.query };
    countRequest(
      spy,
      'mcp',
      new Request('https://s.example/mcp', { headers: { 'user-agent': 'Secret Corp bot 7 (ops@secret.example)' } }),
      429,
    );
    countRequest(spy, 'api', new Request('https://s.example/api/search', { headers: { 'user-agent': 'claude-code/2.1.3' } }), 200);
    expect(counted).toEqual([
      'requests.audience.unknown',
      'requests.surface.mcp',
      'requests.agent.other',
      'errors.mcp.429',
      'requests.audience.known-agent',
      'requests.surface.api',
      'requests.agent.claude',
    ]);
  });
});

describe('npm run dev counts nothing (stranger s10b: "errors pages.500 2" that no answer had)', () => {
  /** The lines of netlify.toml's table `name`, up to the next table. */
  const table = (name: string): string => {
    const toml = readFileSync(path.resolve(import.meta.dirname, '../../../netlify.toml'), 'utf8');
    const start = toml.indexOf(`\n[${name}]\n`);
    if (start < 0) return '';
    const rest = toml.slice(start + name.length + 4);
    return rest.slice(0, rest.search(/^\[/m) < 0 ? undefined : rest.search(/^\[/m));
  };

  it('the dev server (Netlify\'s "dev" context) sets the switch, and no deploy does', () => {
    // The dev server's edge function shares npm start's local Blobs: its failed renders were counted as the site's 500s.
    expect(table('context.dev.environment')).toMatch(new RegExp(`^\\s*${DEV_SERVER_ENV} = "1"$`, 'm'));
    expect(table('build.environment')).not.toContain(DEV_SERVER_ENV);
    expect(countsUsage({ [DEV_SERVER_ENV]: '1' })).toBe(false);
    expect(countsUsage({})).toBe(true);
    expect(countsUsage({ [DEV_SERVER_ENV]: '' })).toBe(true);
  });
});

describe('audiences and user agents', () => {
  const req = (headers: Record<string, string>) => new Request('https://site.example/blog/x', { headers });
  it.each([
    [{ accept: 'text/markdown, text/html, */*', 'user-agent': 'claude-code/2.1' }, 'markdown-agent'],
    [{ accept: 'text/html', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/140.0 Safari/537.36' }, 'browser'],
    [
      {
        accept: '*/*',
        'user-agent': 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
      },
      'known-agent',
    ],
    [{ accept: '*/*', 'user-agent': 'my-scraper/0.1' }, 'unknown'],
  ] as const)('%j → %s', (headers, audience) => expect(audienceOf(req(headers))).toBe(audience));

  it('a verified signature wins', () => expect(audienceOf(req({ accept: 'text/html' }), { verified: true })).toBe('verified-agent'));

  it.each([
    ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)', 'claude'],
    ['PerplexityBot/1.0', 'perplexity'],
    ['python-requests/2.32.3', 'python'],
    ['curl/8.11.1', 'curl'],
    ['Secret Corp internal crawler v7 (ops@secret.example)', 'other'],
  ])('%s → %s', (ua, family) => expect(userAgentFamily(ua)).toBe(family));
});

describe('the daily roll-up', () => {
  async function dayOfFlushes(store: Store, flushes: { counts: Record<string, number>; queries?: MetricsRecord['queries'] }[]) {
    for (const [i, f] of flushes.entries())
      await store.set(`raw/2027-03-09/i${i}/000001`, {
        from_ms: T0,
        to_ms: T0,
        counts: f.counts,
        queries: f.queries ?? {},
      } satisfies MetricsRecord);
  }

  it('merges each day into one record and deletes the raw ones; a past day is completed, today stays open', async () => {
    const store = memoryStore();
    await dayOfFlushes(store, [
      { counts: { 'a2a.skill.search_articles': 2 } },
      { counts: { 'a2a.skill.search_articles': 3, 'mcp.era.modern': 1 } },
    ]);
    await store.set('raw/2027-03-10/i9/000001', {
      from_ms: T0,
      to_ms: T0,
      counts: { 'mcp.era.legacy': 1 },
      queries: { vllm: { n: 1, zero: 0, networks: ['n1'] } },
    } satisfies MetricsRecord);
    const report = await rollUp(store, { nowMs: T0, clockMs: Date.now, budgetMs: 60_000 });
    expect(report).toMatchObject({ days: ['2027-03-09', '2027-03-10'], merged: 3, done: true });
    expect((await store.get<DayRecord>(dayKey('2027-03-09')))!.value).toEqual({
      day: '2027-03-09',
      counts: { 'a2a.skill.search_articles': 5, 'mcp.era.modern': 1 },
      queries: {},
    });
    // Today keeps what it needs to go on: the networks below the threshold and the records merged.
    expect((await store.get<DayRecord>(dayKey('2027-03-10')))!.value).toMatchObject({
      counts: { 'mcp.era.legacy': 1 },
      pending_queries: { vllm: { n: 1, zero: 0, networks: ['n1'] } },
      merged: ['raw/2027-03-10/i9/000001'],
    });
    expect(await store.list('raw/')).toEqual([]);
  });

  it(`merges ${ROLLUP_BATCH} records per write of the day, and a run out of time leaves the rest for the next`, async () => {
    const inner = memoryStore();
    let dayWrites = 0;
    const store: Store = {
      ...inner,
      set: (k, v, c) => {
        if (k.startsWith('day/')) dayWrites++;
        return inner.set(k, v, c);
      },
    };
    const records = ROLLUP_BATCH * 2 + 50;
    for (let i = 0; i < records; i++)
      await inner.set(`raw/2027-03-09/i1/${String(i).padStart(6, '0')}`, {
        from_ms: T0,
        to_ms: T0,
        counts: { 'contact.enquiry': 1 },
        queries: {},
      });
    let clock = 0;
    const first = await rollUp(store, { nowMs: T0, clockMs: () => clock++, budgetMs: 3 }); // a tick to start, one per batch: time for two
    expect(first).toMatchObject({ merged: ROLLUP_BATCH * 2, done: false });
    expect(dayWrites).toBe(2);
    const second = await rollUp(store, { nowMs: T0, clockMs: Date.now, budgetMs: 60_000 });
    expect(second).toMatchObject({ merged: 50, done: true });
    expect(dayWrites).toBe(4); // the last batch, and the day completed
    expect((await inner.get<DayRecord>(dayKey('2027-03-09')))!.value).toEqual({
      day: '2027-03-09',
      counts: { 'contact.enquiry': records },
      queries: {},
    });
  });

  it('a record that is not a usage record is left in place, named in the log, and counts nothing', async () => {
    const store = memoryStore();
    await dayOfFlushes(store, [{ counts: { 'contact.enquiry': 1 } }]);
    await store.set('raw/2027-03-09/i7/000001', { counts: { 'contact.enquiry': 'lots' }, queries: {} });
    const log: string[] = [];
    const report = await rollUp(store, { nowMs: T0, clockMs: Date.now, budgetMs: 60_000, log: (line) => log.push(line) });
    expect(report).toMatchObject({ merged: 1, unreadable: 1, done: true });
    expect(log).toEqual(['analytics roll-up: skipped raw/2027-03-09/i7/000001: not a usage record']);
    expect(await store.list('raw/')).toEqual(['raw/2027-03-09/i7/000001']);
    expect((await store.get<DayRecord>(dayKey('2027-03-09')))!.value.counts).toEqual({ 'contact.enquiry': 1 });
  });

  it(`keeps a query only when ${QUERY_MIN_NETWORKS} networks asked it, and drops every network digest`, async () => {
    const store = memoryStore();
    const asked = (networks: string[], zero = 0) => ({ n: networks.length, zero, networks });
    await dayOfFlushes(store, [
      {
        counts: {},
        queries: { 'vllm kubernetes': asked(['n1', 'n2']), 'my own name': asked(['n9', 'n9']), 'rag chunking': asked(['n1'], 1) },
      },
      { counts: {}, queries: { 'vllm kubernetes': asked(['n3']), 'rag chunking': asked(['n2', 'n4'], 2) } },
    ]);
    await rollUp(store, { nowMs: T0, clockMs: Date.now, budgetMs: 60_000 });
    const day = (await store.get<DayRecord>(dayKey('2027-03-09')))!.value;
    expect(day.queries).toEqual({ 'vllm kubernetes': { n: 3, zero: 0 }, 'rag chunking': { n: 3, zero: 3 } });
    expect(JSON.stringify(day)).not.toMatch(/n1|n2|n9|my own name/);
  });

  it('a run that died after merging a record but before deleting it does not count it twice', async () => {
    const store = memoryStore();
    await dayOfFlushes(store, [{ counts: { 'contact.enquiry': 1 } }]);
    const dying: Store = { ...store, delete: () => Promise.reject(new Error('killed')) };
    await rollUp(dying, { nowMs: T0, clockMs: Date.now, budgetMs: 60_000 }).catch(() => {});
    await rollUp(store, { nowMs: T0, clockMs: Date.now, budgetMs: 60_000 });
    expect((await store.get<DayRecord>(dayKey('2027-03-09')))!.value.counts).toEqual({ 'contact.enquiry': 1 });
  });

  it('the report reads rolled-up days and today as it stands, with totals and the ranked queries', async () => {
    const store = memoryStore();
    await dayOfFlushes(store, [
      { counts: { 'requests.audience.browser': 5 }, queries: { gateway: { n: 3, zero: 0, networks: ['a', 'b', 'c'] } } },
    ]);
    await rollUp(store, { nowMs: T0, clockMs: Date.now, budgetMs: 60_000 });
    await store.set('raw/2027-03-10/i1/000001', {
      from_ms: T0,
      to_ms: T0,
      counts: { 'requests.audience.browser': 2, 'requests.audience.markdown-agent': 1 },
      queries: { 'fine tuning': { n: 4, zero: 4, networks: ['a', 'b', 'c', 'd'] } },
    } satisfies MetricsRecord);
    const report = await usageReport(store, '2027-03-09', '2027-03-10');
    expect(report.totals).toEqual({ 'requests.audience.browser': 7, 'requests.audience.markdown-agent': 1 });
    expect(report.topQueries).toEqual([
      { query: 'fine tuning', n: 4 },
      { query: 'gateway', n: 3 },
    ]);
    expect(report.zeroResultQueries).toEqual([{ query: 'fine tuning', n: 4 }]);
    expect(report.days.map((d) => d.day)).toEqual(['2027-03-09', '2027-03-10']);
  });
});
