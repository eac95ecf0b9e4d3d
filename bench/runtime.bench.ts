/**
 * The warm local runtime (scripts/runtime/, what `npm start` serves) against the same function
 * called in-process, in the same run:
 * - p50 of `/api/search`, MCP `tools/call search_articles` and a static page over HTTP on loopback:
 *   sequential over one keep-alive connection (the latency the runtime adds), and under autocannon
 *   with 10 connections for a bounded time (throughput, errors);
 * - the same function's handler called in-process (`runtime.functions[…].handler`), and the ratio;
 * - RSS of the runtime process over 20,000 mixed requests (autocannon, 10 connections), then over
 *   20,000 more (growth after warm-up: a leak shows there).
 *
 *     node bench/runtime.bench.ts [--seconds 10] [--requests 20000]
 *
 * The runtime runs in a child process (this file with --child) so the load generator shares neither
 * its event loop nor its memory figures. Needs the test build (`node scripts/build-if-needed.ts --for-tests`).
 * @module
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { serve, startRuntime } from '../scripts/runtime/index.ts';
import { argValue } from './generate-corpus.ts';
import { LOAD_QUERIES, loadAverage, MCP_HEADERS, machineFacts, mcpBody, requireBuild, ROOT, searchPath, treeRss } from './serving-support.ts';
import { median } from './stats.ts';

const argv = process.argv.slice(2);
/** Bounded load per autocannon row. */
const LOAD_SECONDS = Number(argValue(argv, 'seconds') ?? 10);
const LOAD_CONNECTIONS = 10;
/** Mixed requests for the memory row. */
const MIXED_REQUESTS = Number(argValue(argv, 'requests') ?? 20_000);
/** Sequential samples per row (after as many warm-up calls). */
const SEQUENTIAL_SAMPLES = 500;
const STATIC_PAGE = '/blog/';

interface Row {
  name: string;
  method: 'GET' | 'POST';
  path: (i: number) => string;
  headers?: Record<string, string>;
  body?: (i: number) => string;
  /** The function behind it, for the in-process figure (none for a static page). */
  fn?: string;
}

const ROWS: Row[] = [
  { name: '`/api/search?q=…`', method: 'GET', path: searchPath, fn: 'api-search' },
  { name: 'MCP `tools/call search_articles`', method: 'POST', path: () => '/mcp', headers: MCP_HEADERS, body: mcpBody, fn: 'mcp' },
  { name: `static page \`${STATIC_PAGE}\``, method: 'GET', path: () => STATIC_PAGE },
];

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

function once(base: string, row: Row, i: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const body = row.body?.(i);
    const req = httpRequest(`${base}${row.path(i)}`, { method: row.method, headers: row.headers, agent }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - started) : reject(new Error(`${row.path(i)}: ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function sequentialP50(call: (i: number) => Promise<number>): Promise<number> {
  for (let i = 0; i < SEQUENTIAL_SAMPLES; i++) await call(i);
  const samples: number[] = [];
  for (let i = 0; i < SEQUENTIAL_SAMPLES; i++) samples.push(await call(i));
  return median(samples);
}

async function startChild(): Promise<{ url: string; pid: number; heapAfterGc(): Promise<number>; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ['--expose-gc', import.meta.filename, '--child'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  const ready = await new Promise<{ url: string; pid: number }>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = /READY (\{.*\})/.exec(out);
      if (line) resolve(JSON.parse(line[1]!));
    });
    child.once('exit', (code) => reject(new Error(`runtime child exited (${code})`)));
  });
  return {
    url: ready.url.replace('localhost', '127.0.0.1'),
    pid: ready.pid,
    heapAfterGc: () =>
      new Promise((resolve) => {
        child.once('message', (message: { heapUsed: number }) => resolve(message.heapUsed));
        child.send('heap');
      }),
    stop: () => new Promise((resolve) => (child.exitCode !== null ? resolve() : (child.once('exit', () => resolve()), child.kill('SIGTERM')))),
  };
}

const ms = (value: number): string => value.toFixed(2);

async function main(): Promise<void> {
  requireBuild();
  const readyStarted = performance.now();
  const child = await startChild();
  const readyMs = performance.now() - readyStarted;

  // In-process: the same handlers, warm, in this process (its own runtime for the Netlify global and Blobs).
  const blobsDir = mkdtempSync(path.join(tmpdir(), 'bench-inprocess-blobs-'));
  const local = await startRuntime({ blobsDir });
  const lines: string[] = [];
  try {
    for (const row of ROWS) {
      const http = await sequentialP50((i) => once(child.url, row, i));
      const fn = row.fn ? local.functions.find((f) => f.name === row.fn)! : undefined;
      const inProcess = await sequentialP50(async (i) => {
        const request = new Request(`http://localhost:8899${row.path(i)}`, { method: row.method, headers: row.headers, body: row.body?.(i) });
        const started = performance.now();
        const response = fn ? await fn.handler(request, { ip: '127.0.0.1' }) : await local.handle(request);
        await response!.arrayBuffer();
        return performance.now() - started;
      });
      const load = await autocannon({
        url: child.url,
        connections: LOAD_CONNECTIONS,
        duration: LOAD_SECONDS,
        requests: [{ method: row.method, path: row.path(0), headers: row.headers, body: row.body?.(0) }],
      });
      lines.push(
        `| ${row.name} | ${ms(http)} ms | ${ms(inProcess)} ms (${fn ? 'handler' : '`runtime.handle()`'}) | ${(http / inProcess).toFixed(1)}× | ${load.latency.p50} / ${load.latency.p99} ms | ${Math.round(load.requests.average)} | ${load.errors + load.timeouts} / ${load.non2xx} |`,
      );
      console.error(lines.at(-1));
    }

    // Memory: RSS of the runtime process over mixed requests.
    const mixed = [
      ...LOAD_QUERIES.map((_, i) => ({ method: 'GET', path: searchPath(i) })),
      ...LOAD_QUERIES.map((_, i) => ({ method: 'POST', path: '/mcp', headers: MCP_HEADERS, body: mcpBody(i) })),
      { method: 'GET', path: '/' },
      { method: 'GET', path: STATIC_PAGE, headers: { accept: 'text/markdown' } },
      { method: 'GET', path: '/llms.txt' },
      { method: 'GET', path: '/nope' },
      { method: 'GET', path: '/health' },
      { method: 'GET', path: '/.well-known/api-catalog' },
    ];
    // Twice: the first batch includes warm-up (heap growth to its working size), the second shows a leak if there is one.
    const heap = [await child.heapAfterGc()];
    const before = treeRss(child.pid).bytes;
    const soak = await autocannon({ url: child.url, connections: LOAD_CONNECTIONS, amount: MIXED_REQUESTS, requests: mixed });
    const after = treeRss(child.pid).bytes;
    heap.push(await child.heapAfterGc());
    const again = await autocannon({ url: child.url, connections: LOAD_CONNECTIONS, amount: MIXED_REQUESTS, requests: mixed });
    const afterAgain = treeRss(child.pid).bytes;
    heap.push(await child.heapAfterGc());
    const mb = (bytes: number): string => (bytes / 1024 / 1024).toFixed(1);
    console.log(`\n${new Date().toISOString()}, ${machineFacts()}, load average ${loadAverage()}`);
    console.log(`\nready (child process spawn → listening): ${Math.round(readyMs)} ms\n`);
    console.log('| request | HTTP p50, sequential (1 keep-alive connection) | in-process p50 | ratio | autocannon p50 / p99 (10 connections, ' + LOAD_SECONDS + ' s) | req/s | errors+timeouts / non-2xx |');
    console.log('| --- | --- | --- | --- | --- | --- | --- |');
    for (const line of lines) console.log(line);
    console.log(
      `\nRSS over ${soak.requests.total} mixed requests (${mixed.length} kinds, ${LOAD_CONNECTIONS} connections, p50 ${soak.latency.p50} ms, p99 ${soak.latency.p99} ms): ${mb(before)} MB → ${mb(after)} MB (${after >= before ? '+' : ''}${mb(after - before)} MB), ${soak.errors + soak.timeouts} errors, ${soak.non2xx} non-2xx (the /nope requests are 404 by design); the next ${again.requests.total}: ${mb(after)} MB → ${mb(afterAgain)} MB (${afterAgain >= after ? '+' : ''}${mb(afterAgain - after)} MB), ${again.errors + again.timeouts} errors; V8 heap after a forced GC: ${heap.map(mb).join(' → ')} MB`,
    );
  } finally {
    await local.stop();
    rmSync(blobsDir, { recursive: true, force: true });
    await child.stop();
    agent.destroy();
  }
}

/** The runtime under test, in its own process. */
async function serveRuntimeChild(): Promise<void> {
  const blobsDir = mkdtempSync(path.join(tmpdir(), 'bench-runtime-blobs-'));
  const runtime = await startRuntime({ blobsDir });
  const { url, server } = await serve(runtime, 0, { trustedProxies: [] });
  console.log(`READY ${JSON.stringify({ url, pid: process.pid })}`);
  process.on('message', () => {
    (globalThis as { gc?: () => void }).gc?.();
    process.send?.({ heapUsed: process.memoryUsage().heapUsed });
  });
  process.on('SIGTERM', () => {
    server.closeAllConnections();
    server.close();
    void runtime.stop().finally(() => {
      rmSync(blobsDir, { recursive: true, force: true });
      process.exit(0);
    });
  });
}

if (argv.includes('--child')) await serveRuntimeChild();
else await main();
