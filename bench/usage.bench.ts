/**
 * What usage counting costs (issue 29, BENCHMARKS.md "Usage counts"):
 *
 * 1. Latency: `GET /api/search` through the same edge wrapper (`httpHandler`) in-process, with the
 *    usage option and the handler's query count, against the same handler without them, in
 *    alternating blocks of the same run. The counters write to an in-memory store here: the write is
 *    handed to waitUntil and never delays an answer, so what the request pays is the counting.
 * 2. Blobs operations per 10,000 requests for one instance, at several request rates (a simulated
 *    clock: the count of writes depends only on the clock and the interval), and for the hourly
 *    roll-up that merges them.
 *
 *   node scripts/build.ts --origin http://localhost:8899   # any build: the search index is read from generated/
 *   node bench/usage.bench.ts [--requests 20000] [--blocks 10]
 */
import { parseArgs } from 'node:util';
import { searchEngineAt } from '../netlify/functions/_shared/search.ts';
import { rollUp } from '../src/core/analytics/rollup.ts';
import { PUBLIC_API_CORS } from '../src/core/kernel/cors.ts';
import { httpHandler } from '../src/core/kernel/handler.ts';
import { memoryStore } from '../src/core/kernel/memory-store.ts';
import { METRICS_FLUSH_INTERVAL_MS, Metrics } from '../src/core/kernel/metrics.ts';
import { PROBLEM_ERRORS } from '../src/core/kernel/problem.ts';
import type { Store } from '../src/core/kernel/store.ts';
import { handleSearch } from '../src/core/search/api.ts';
import { median, percentile } from './stats.ts';
import { answerHelpFromDoc } from '../scripts/usage.ts';

answerHelpFromDoc(import.meta.url);

const { values } = parseArgs({ options: { requests: { type: 'string', default: '20000' }, blocks: { type: 'string', default: '10' } } });
const REQUESTS = Number(values.requests);
const BLOCKS = Number(values.blocks);
const ORIGIN = 'http://localhost:8899';
const QUERIES = ['llm gateway', '私有化部署', 'speculative decoding', 'rag', 'agent', 'gpu h100', 'kubernetes', 'fine tuning'];

/** A store that counts its operations. */
function countingStore(): { store: Store; ops: { get: number; set: number; delete: number; list: number } } {
  const inner = memoryStore();
  const ops = { get: 0, set: 0, delete: 0, list: 0 };
  const store: Store = {
    get(key) {
      ops.get++;
      return inner.get(key);
    },
    set(key, value, condition) {
      ops.set++;
      return inner.set(key, value, condition);
    },
    delete(key) {
      ops.delete++;
      return inner.delete(key);
    },
    list(prefix) {
      ops.list++;
      return inner.list(prefix);
    },
  };
  return { store, ops };
}

const networkDigest = async (network: string): Promise<string> =>
  [...new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`bench:${network}`)))]
    .map((b) => b.toString(16).padStart(2, '0'))
    .join('');

async function latency(): Promise<void> {
  const engine = searchEngineAt(new URL('../generated/data/search/', import.meta.url))();
  const { store } = countingStore();
  const metrics = new Metrics({ store: () => store, clock: Date.now, instanceId: 'bench', networkDigest });
  const pending: Promise<unknown>[] = [];
  const context = { waitUntil: (p: Promise<unknown>) => pending.push(p) };
  const plain = httpHandler((req: Request) => handleSearch(req, { engine, origin: ORIGIN }), {
    errors: PROBLEM_ERRORS,
    cors: PUBLIC_API_CORS,
  });
  const counted = httpHandler(
    (req: Request, _context: typeof context) => handleSearch(req, { engine, origin: ORIGIN, usage: metrics.usage('198.51.100.7') }),
    { errors: PROBLEM_ERRORS, cors: PUBLIC_API_CORS, usage: { surface: 'api', metrics } },
  );
  const request = (i: number) =>
    new Request(`${ORIGIN}/api/search?q=${encodeURIComponent(QUERIES[i % QUERIES.length]!)}`, {
      headers: { accept: 'application/json', 'user-agent': 'claude-code/2.1.3' },
    });
  const times = { plain: [] as number[], counted: [] as number[] };
  const run = async (kind: 'plain' | 'counted', n: number) => {
    for (let i = 0; i < n; i++) {
      const req = request(i);
      const t0 = performance.now();
      const res = kind === 'plain' ? await plain(req) : await counted(req, context);
      await res.arrayBuffer();
      times[kind].push(performance.now() - t0);
    }
  };
  await run('plain', 2000); // warm both paths
  await run('counted', 2000);
  times.plain.length = 0;
  times.counted.length = 0;
  const perBlock = Math.ceil(REQUESTS / BLOCKS);
  for (let b = 0; b < BLOCKS; b++) {
    // Alternate which goes first, so drift on a shared machine falls on both.
    for (const kind of b % 2 ? (['counted', 'plain'] as const) : (['plain', 'counted'] as const)) await run(kind, perBlock);
  }
  await Promise.all(pending);
  const row = (kind: 'plain' | 'counted') => {
    const sorted = [...times[kind]].sort((a, b) => a - b);
    return { p50: median(sorted), p99: percentile(sorted, 99) };
  };
  const p = row('plain');
  const c = row('counted');
  console.log(`\n### Latency: GET /api/search in-process, ${times.plain.length} requests each, alternating blocks\n`);
  console.log('| handler | p50 | p99 |\n| --- | --- | --- |');
  console.log(`| without counting | ${(p.p50 * 1000).toFixed(1)} µs | ${(p.p99 * 1000).toFixed(1)} µs |`);
  console.log(`| with counting (audience, family, surface, query) | ${(c.p50 * 1000).toFixed(1)} µs | ${(c.p99 * 1000).toFixed(1)} µs |`);
  console.log(
    `| **added** | **${((c.p50 - p.p50) * 1000).toFixed(1)} µs** (${(c.p50 / p.p50).toFixed(3)}×) | ${((c.p99 - p.p99) * 1000).toFixed(1)} µs |`,
  );

  // The counting alone, without the handler: what every request pays at the edge.
  const alone: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const t0 = performance.now();
    metrics.usage('198.51.100.7').query('llm gateway', 3);
    metrics.count('requests.audience.known-agent');
    metrics.flushIfDue();
    alone.push(performance.now() - t0);
  }
  console.log(`\nCounting alone (a query, a counter and the due check): p50 ${(median(alone) * 1000).toFixed(2)} µs per request.`);
}

async function blobsOperations(): Promise<void> {
  console.log('\n### Blobs operations per 10,000 requests (one instance, simulated clock)\n');
  console.log(`| request rate | span | counter writes (instance) | roll-up: reads + writes + deletes + lists | total |`);
  console.log('| --- | --- | --- | --- | --- |');
  for (const perSecond of [1, 10, 100, 1000]) {
    const { store, ops } = countingStore();
    let now = Date.parse('2027-03-10T00:00:00Z');
    const metrics = new Metrics({ store: () => store, clock: () => now, instanceId: 'bench', networkDigest });
    const stepMs = 1000 / perSecond;
    for (let i = 0; i < 10_000; i++) {
      now += stepMs;
      const usage = metrics.usage(`198.51.100.${i % 200}`);
      usage.count('requests.audience.markdown-agent');
      usage.count('requests.surface.api');
      usage.query(QUERIES[i % QUERIES.length]!, i % 7);
      await metrics.flushIfDue();
    }
    now += METRICS_FLUSH_INTERVAL_MS;
    await metrics.flushIfDue();
    const writes = ops.set;
    const before = { ...ops };
    await rollUp(store, { nowMs: now + 86_400_000, clockMs: Date.now, budgetMs: 60_000 });
    const rollup = ops.get - before.get + (ops.set - before.set) + (ops.delete - before.delete) + (ops.list - before.list);
    const span = 10_000 / perSecond >= 3600 ? `${(10_000 / perSecond / 3600).toFixed(1)} h` : `${Math.round(10_000 / perSecond)} s`;
    console.log(`| ${perSecond}/s | ${span} | ${writes} | ${rollup} | ${writes + rollup} |`);
  }
}

console.log(`Usage counting, ${new Date().toISOString()}, Node ${process.version}`);
await latency();
await blobsOperations();
