/**
 * The warm local runtime (scripts/runtime/, what `npm start` serves) against the same function
 * called in-process, in the same run (issue 13's goals):
 * - ready: `npm start` over a current build, spawn → the "running at" line (`--ready-runs`, median);
 * - p50 of `/api/search`, MCP `tools/call search_articles` and `get_article` (its body read from the
 *   deploy store) and a static page over HTTP on loopback: sequential over one keep-alive
 *   connection (the latency the runtime adds), and under autocannon with 10 connections for a
 *   bounded time (throughput, errors);
 * - the floor: a bare node:http server in the same child process answering the search answer's
 *   bytes, with the same client (what any HTTP server on loopback costs this client);
 * - the same function's handler called in-process (`runtime.functions[…].handler`), the runtime's
 *   whole chain in-process (`runtime.handle()`), and the ratios;
 * - RSS of the runtime process over 20,000 mixed requests (autocannon, 10 connections), then over
 *   20,000 more (growth after warm-up: a leak shows there);
 * - endurance: 10 connections for `--endurance-seconds` (60) of mixed requests, every answer 2xx.
 *
 *     node bench/runtime.bench.ts [--seconds 10] [--requests 20000] [--endurance-seconds 60] [--ready-runs 3]
 *
 * The runtime runs in a child process (this file with --child) so the load generator shares neither
 * its event loop nor its memory figures. Needs the test build (`node scripts/build.ts --origin http://localhost:8899`).
 * @module
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, createServer, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { serve, startRuntime } from '../scripts/runtime/index.ts';
import { TEST_ORIGIN } from '../tests/support/origin.ts';
import { argValue } from './generate-corpus.ts';
import {
  LOAD_QUERIES,
  loadAverage,
  MCP_HEADERS,
  machineFacts,
  mcpBody,
  requireBuild,
  ROOT,
  searchPath,
  treeRss,
} from './serving-support.ts';
import { median } from './stats.ts';
import { answerHelpFromDoc } from '../scripts/usage.ts';

answerHelpFromDoc(import.meta.url);

const argv = process.argv.slice(2);
/** Bounded load per autocannon row. */
const LOAD_SECONDS = Number(argValue(argv, 'seconds') ?? 10);
const LOAD_CONNECTIONS = 10;
/** Mixed requests for the memory row. */
const MIXED_REQUESTS = Number(argValue(argv, 'requests') ?? 20_000);
/** Bounded mixed load that must see no error. */
const ENDURANCE_SECONDS = Number(argValue(argv, 'endurance-seconds') ?? 60);
/** `npm start` ready-time runs. */
const READY_RUNS = Number(argValue(argv, 'ready-runs') ?? 3);
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

/** Article slugs of the build, for get_article (each call reads one body from the deploy store). */
const SLUGS = (
  JSON.parse(readFileSync(path.join(ROOT, 'generated', 'data', 'catalog.json'), 'utf8')) as { articles: { slug: string }[] }
).articles.map((a) => a.slug);
const getArticleBody = (i: number): string =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: i,
    method: 'tools/call',
    params: { name: 'get_article', arguments: { slug: SLUGS[i % SLUGS.length] } },
  });

const ROWS: Row[] = [
  { name: '`/api/search?q=…`', method: 'GET', path: searchPath, fn: 'api-search' },
  { name: 'MCP `tools/call search_articles`', method: 'POST', path: () => '/mcp', headers: MCP_HEADERS, body: mcpBody, fn: 'mcp' },
  {
    name: 'MCP `tools/call get_article` (body from the deploy store)',
    method: 'POST',
    path: () => '/mcp',
    headers: MCP_HEADERS,
    body: getArticleBody,
    fn: 'mcp',
  },
  { name: `static page \`${STATIC_PAGE}\``, method: 'GET', path: () => STATIC_PAGE },
];

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

function once(base: string, row: Row, i: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const body = row.body?.(i);
    const req = httpRequest(`${base}${row.path(i)}`, { method: row.method, headers: row.headers, agent }, (res) => {
      res.resume();
      res.on('end', () =>
        res.statusCode === 200 ? resolve(performance.now() - started) : reject(new Error(`${row.path(i)}: ${res.statusCode}`)),
      );
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

async function startChild(): Promise<{
  url: string;
  floorUrl: string;
  pid: number;
  heapAfterGc(): Promise<number>;
  stop(): Promise<void>;
}> {
  const child = spawn(process.execPath, ['--expose-gc', import.meta.filename, '--child'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const ready = await new Promise<{ url: string; floorUrl: string; pid: number }>((resolve, reject) => {
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
    floorUrl: ready.floorUrl,
    pid: ready.pid,
    heapAfterGc: () =>
      new Promise((resolve) => {
        child.once('message', (message: { heapUsed: number }) => resolve(message.heapUsed));
        child.send('heap');
      }),
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

const ms = (value: number): string => value.toFixed(2);

/**
 * `npm start` over the current (test) build: SITE_URL keeps the build's origin, so nothing is
 * rebuilt, on a free port with its own Blobs folder. Returns spawn → "running at" and the
 * runtime's own "ready in" figure.
 */
async function npmStartReady(): Promise<{ wallMs: number; reportedMs: number }> {
  const blobsDir = mkdtempSync(path.join(tmpdir(), 'bench-ready-blobs-'));
  const started = performance.now();
  // Its own process group, so the stop reaches the node process npm starts.
  const child = spawn('npm', ['start'], {
    cwd: ROOT,
    detached: true,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      SITE_URL: TEST_ORIGIN,
      NETLIFY_LOCAL_BLOBS_DIR: blobsDir,
      PATH: `${path.join(ROOT, 'node_modules', '.bin')}${path.delimiter}${process.env.PATH}`,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    return await new Promise((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const line = /running at \S+\s+\(ready in (\d+) ms/.exec(out);
        if (line) resolve({ wallMs: performance.now() - started, reportedMs: Number(line[1]) });
      });
      child.once('exit', (code) => reject(new Error(`npm start exited (${code}): ${out}`)));
    });
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      process.kill(-child.pid!, 'SIGTERM');
      await exited;
    }
    rmSync(blobsDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  requireBuild();
  const ready: { wallMs: number; reportedMs: number }[] = [];
  for (let i = 0; i < READY_RUNS; i++) ready.push(await npmStartReady());
  const child = await startChild();

  // In-process: the same handlers, warm, in this process (its own runtime for the Netlify global and Blobs).
  const blobsDir = mkdtempSync(path.join(tmpdir(), 'bench-inprocess-blobs-'));
  const local = await startRuntime({ blobsDir });
  const lines: string[] = [];
  try {
    const floor = await sequentialP50((i) => once(child.floorUrl, { name: 'floor', method: 'GET', path: searchPath }, i));
    const floorLoad = await autocannon({
      url: child.floorUrl,
      connections: LOAD_CONNECTIONS,
      duration: LOAD_SECONDS,
      requests: [{ method: 'GET', path: searchPath(0) }],
    });
    lines.push(
      `| floor: bare \`node:http\` in the same child, the search answer's bytes | ${ms(floor)} ms | — | — | — | — | ${floorLoad.latency.p50} / ${floorLoad.latency.p99} ms | ${Math.round(floorLoad.requests.average)} | ${floorLoad.errors + floorLoad.timeouts} / ${floorLoad.non2xx} |`,
    );
    console.error(lines.at(-1));
    for (const row of ROWS) {
      const http = await sequentialP50((i) => once(child.url, row, i));
      const fn = row.fn ? local.functions.find((f) => f.name === row.fn)! : undefined;
      const inProcess = (through: 'handler' | 'runtime') =>
        sequentialP50(async (i) => {
          const request = new Request(`http://localhost:8899${row.path(i)}`, {
            method: row.method,
            headers: row.headers,
            body: row.body?.(i),
          });
          const started = performance.now();
          const response =
            fn && through === 'handler' ? await fn.handler(request, { ip: '127.0.0.1' }) : await local.handle(request, { ip: '127.0.0.1' });
          if (response!.status !== 200) throw new Error(`${row.name} in-process: ${response!.status}`);
          await response!.arrayBuffer();
          return performance.now() - started;
        });
      const handlerP50 = fn ? await inProcess('handler') : undefined;
      const chainP50 = await inProcess('runtime');
      const load = await autocannon({
        url: child.url,
        connections: LOAD_CONNECTIONS,
        duration: LOAD_SECONDS,
        requests: [{ method: row.method, path: row.path(0), headers: row.headers, body: row.body?.(0) }],
      });
      const base = handlerP50 ?? chainP50;
      lines.push(
        `| ${row.name} | ${ms(http)} ms | ${handlerP50 === undefined ? '—' : `${ms(handlerP50)} ms`} | ${ms(chainP50)} ms | ${(http / base).toFixed(1)}× ${handlerP50 === undefined ? '(chain)' : '(handler)'}; ${(http / chainP50).toFixed(1)}× (chain) | ${ms(http - floor)} ms | ${load.latency.p50} / ${load.latency.p99} ms | ${Math.round(load.requests.average)} | ${load.errors + load.timeouts} / ${load.non2xx} |`,
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
    // Endurance: the mix without the deliberate 404, so every answer must be 2xx.
    const endurance = await autocannon({
      url: child.url,
      connections: LOAD_CONNECTIONS,
      duration: ENDURANCE_SECONDS,
      requests: mixed.filter((r) => r.path !== '/nope'),
    });
    const afterEndurance = treeRss(child.pid).bytes;
    const mb = (bytes: number): string => (bytes / 1024 / 1024).toFixed(1);
    console.log(`\n${new Date().toISOString()}, ${machineFacts()}, load average ${loadAverage()}`);
    console.log(
      `\nready: \`npm start\` over a current build, spawn → "running at": ${ready.map((r) => Math.round(r.wallMs)).join(', ')} ms (median ${Math.round(median(ready.map((r) => r.wallMs)))} ms); the runtime's own "ready in": ${ready.map((r) => r.reportedMs).join(', ')} ms\n`,
    );
    console.log(
      '| request | HTTP p50, sequential (1 keep-alive connection) | in-process p50: handler | in-process p50: whole chain (`runtime.handle()`) | ratio HTTP / in-process | HTTP p50 above the floor | autocannon p50 / p99 (10 connections, ' +
        LOAD_SECONDS +
        ' s) | req/s | errors+timeouts / non-2xx |',
    );
    console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
    for (const line of lines) console.log(line);
    console.log(
      `\nRSS over ${soak.requests.total} mixed requests (${mixed.length} kinds, ${LOAD_CONNECTIONS} connections, p50 ${soak.latency.p50} ms, p99 ${soak.latency.p99} ms): ${mb(before)} MB → ${mb(after)} MB (${after >= before ? '+' : ''}${mb(after - before)} MB), ${soak.errors + soak.timeouts} errors, ${soak.non2xx} non-2xx (the /nope requests are 404 by design); the next ${again.requests.total}: ${mb(after)} MB → ${mb(afterAgain)} MB (${afterAgain >= after ? '+' : ''}${mb(afterAgain - after)} MB), ${again.errors + again.timeouts} errors; V8 heap after a forced GC: ${heap.map(mb).join(' → ')} MB`,
    );
    console.log(
      `\nendurance: ${LOAD_CONNECTIONS} connections for ${ENDURANCE_SECONDS} s of ${mixed.length - 1} kinds of mixed requests: ${endurance.requests.total} requests (${Math.round(endurance.requests.average)} req/s, p50 ${endurance.latency.p50} ms, p99 ${endurance.latency.p99} ms), ${endurance.errors} errors, ${endurance.timeouts} timeouts, ${endurance.non2xx} non-2xx; RSS ${mb(afterAgain)} → ${mb(afterEndurance)} MB`,
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
  // The floor: the same answer's bytes from a bare node:http server in this process.
  const search = runtime.functions.find((f) => f.name === 'api-search')!;
  const bytes = Buffer.from(
    await (await search.handler(new Request(`${TEST_ORIGIN}${searchPath(0)}`), { ip: '127.0.0.1' }))!.arrayBuffer(),
  );
  const floor = createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': bytes.length }).end(bytes),
  );
  await new Promise<void>((resolve) => floor.listen(0, '127.0.0.1', resolve));
  const floorUrl = `http://127.0.0.1:${(floor.address() as { port: number }).port}`;
  console.log(`READY ${JSON.stringify({ url, floorUrl, pid: process.pid })}`);
  process.on('message', () => {
    (globalThis as { gc?: () => void }).gc?.();
    process.send?.({ heapUsed: process.memoryUsage().heapUsed });
  });
  process.on('SIGTERM', () => {
    floor.closeAllConnections();
    floor.close();
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
