/**
 * MCP benchmark: `tools/call search_articles` latency over loopback HTTP and the cold start of the
 * bundled `/mcp` function, against the official v1 SDK's stateless server with the same tool
 * (bench/mcp-sdk-peer.ts) as the peer. Both are bundled the way Netlify bundles functions
 * (esbuild, `--bundle --platform=node --format=esm`, laid out as Netlify's archive: the index beside
 * the bundle) and served through the local runtime's HTTP server (scripts/runtime/http.ts `serve()`);
 * the function is also measured through the whole warm runtime (`npm start`: routing, the Netlify
 * context, security headers). Prints a markdown table and writes bench/MCP-RESULTS.md.
 *
 *     node bench/mcp.bench.ts [--requests 2000] [--seconds 15] [--cold 10]
 *
 * Needs a build (generated/ data and dist/): `npm test` or `node scripts/build.ts --origin http://localhost:8899`.
 * @module
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { serve, startRuntime } from '../scripts/runtime/index.ts';
import { BUILD_DATA_BESIDE, bundleFunction } from './bundle-function.ts';
import { argValue } from './generate-corpus.ts';
import { median, percentile } from './stats.ts';
import { answerHelpFromDoc } from '../scripts/usage.ts';

answerHelpFromDoc(import.meta.url);

const ROOT = path.resolve(import.meta.dirname, '..');
const OUT = path.join(ROOT, 'bench', '.out', 'mcp');
const argv = process.argv.slice(2);
const MAX_REQUESTS = Number(argValue(argv, 'requests') ?? 2000);
const MAX_SECONDS = Number(argValue(argv, 'seconds') ?? 15);
const COLD_RUNS = Number(argValue(argv, 'cold') ?? 10);
const WARMUP = 200;
const TARGETS = { p50Ms: 5, coldMs: 150 };

/** Queries cycled through (Chinese, English, mixed; some with no hits). */
const QUERIES = [
  'private deployment',
  'speculative decoding',
  '私有化部署',
  'RAG chunking',
  'API 网关 熔断',
  'prompt injection',
  'LoRA 微调',
  'vector database',
  'KV cache',
  'zzzz-no-hits',
];

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };
const body = (i: number): string =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: i,
    method: 'tools/call',
    params: { name: 'search_articles', arguments: { query: QUERIES[i % QUERIES.length], limit: 10 } },
  });

const ms = (value: number): string => value.toFixed(value < 10 ? 2 : 1);

/** Bundles a function entry the way Netlify's bundler does, the build's index beside it. */
const bundle = (entry: string, name: string): Promise<{ file: string; bytes: number }> =>
  bundleFunction(entry, path.join(OUT, name), { beside: BUILD_DATA_BESIDE });

/** Fresh Node process: import the bundle and answer one tools/call (the index is read from beside it). */
function coldStart(file: string): { importMs: number; firstMs: number; totalMs: number } {
  const script = `
    const t0 = performance.now();
    const { default: handler } = await import(${JSON.stringify(pathToFileURL(file).href)});
    const t1 = performance.now();
    const res = await handler(new Request('http://localhost/mcp', { method: 'POST', headers: ${JSON.stringify(HEADERS)}, body: ${JSON.stringify(body(0))} }));
    const text = await res.text();
    const t2 = performance.now();
    if (res.status !== 200 || !text.includes('"results"')) throw new Error('bad first response ' + res.status + ' ' + text.slice(0, 200));
    console.log(JSON.stringify({ importMs: t1 - t0, firstMs: t2 - t1, totalMs: t2 - t0 }));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
  return JSON.parse(out.trim().split('\n').pop()!);
}

interface Latency {
  n: number;
  p50: number;
  p99: number;
  mean: number;
  rps: number;
}

/** Sequential loopback requests: warm-up, then up to `max` requests or `seconds`, whichever first. */
async function measure(url: string, max: number, seconds: number, warmup: number): Promise<Latency> {
  const first = await fetch(url, { method: 'POST', headers: HEADERS, body: body(0) });
  const json = (await first.json()) as { result?: { structuredContent?: { results?: unknown[] } } };
  if (first.status !== 200 || !Array.isArray(json.result?.structuredContent?.results))
    throw new Error(`${url}: unexpected answer ${first.status} ${JSON.stringify(json).slice(0, 200)}`);
  for (let i = 1; i < warmup; i++) await (await fetch(url, { method: 'POST', headers: HEADERS, body: body(i) })).text();
  const samples: number[] = [];
  const start = performance.now();
  const deadline = start + seconds * 1000;
  for (let i = 0; i < max && performance.now() < deadline; i++) {
    const t = performance.now();
    const res = await fetch(url, { method: 'POST', headers: HEADERS, body: body(i) });
    await res.text();
    if (res.status !== 200) throw new Error(`${url}: HTTP ${res.status}`);
    samples.push(performance.now() - t);
  }
  const elapsed = (performance.now() - start) / 1000;
  const sorted = samples.sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    mean: sorted.reduce((a, b) => a + b, 0) / sorted.length,
    rps: sorted.length / elapsed,
  };
}

async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** Serves a bundled handler through the HTTP server of `npm start` (scripts/runtime/http.ts). */
async function serveHandler(file: string): Promise<{ server: Server; url: string }> {
  const { default: handler } = (await import(pathToFileURL(file).href)) as {
    default: (req: Request, context: object) => Promise<Response>;
  };
  const { server, url } = await serve({ handle: (req: Request) => handler(req, { ip: '127.0.0.1' }) }, 0, { trustedProxies: [] });
  return { server, url: `${url}/mcp` };
}

mkdirSync(OUT, { recursive: true });
const ours = await bundle('netlify/functions/mcp.mts', 'mcp-function');
const peer = await bundle('bench/mcp-sdk-peer.ts', 'sdk-peer');

const cold = { ours: [] as ReturnType<typeof coldStart>[], peer: [] as ReturnType<typeof coldStart>[] };
for (let i = 0; i < COLD_RUNS; i++) {
  cold.ours.push(coldStart(ours.file));
  cold.peer.push(coldStart(peer.file));
}
const coldSummary = (runs: ReturnType<typeof coldStart>[]) => ({
  importMs: median(runs.map((r) => r.importMs)),
  firstMs: median(runs.map((r) => r.firstMs)),
  totalMs: median(runs.map((r) => r.totalMs)),
});
const coldOurs = coldSummary(cold.ours);
const coldPeer = coldSummary(cold.peer);

const oursServed = await serveHandler(ours.file);
const warmOurs = await measure(oursServed.url, MAX_REQUESTS, MAX_SECONDS, WARMUP);
await close(oursServed.server);
const peerServed = await serveHandler(peer.file);
const warmPeer = await measure(peerServed.url, MAX_REQUESTS, MAX_SECONDS, WARMUP);
await close(peerServed.server);

// The whole warm runtime (`npm start`): the function as imported from source, routed, with its Netlify context.
const blobsDir = mkdtempSync(path.join(tmpdir(), 'bench-mcp-blobs-'));
// Serving is measured from one loopback client: without this, the per-network read limit would answer most of it 429.
process.env.READ_LIMIT_PER_SECOND = '0';
const runtime = await startRuntime({ blobsDir });
const runtimeServed = await serve(runtime, 0, { trustedProxies: [] });
const throughRuntime = await measure(`${runtimeServed.url}/mcp`, MAX_REQUESTS, MAX_SECONDS, WARMUP);
await close(runtimeServed.server);
await runtime.stop();
rmSync(blobsDir, { recursive: true, force: true });

const kb = (bytes: number): string => `${(bytes / 1024).toFixed(0)} KB`;
const pass = (ok: boolean): string => (ok ? 'pass' : 'MISS');
const command = `node bench/mcp.bench.ts --requests ${MAX_REQUESTS} --seconds ${MAX_SECONDS} --cold ${COLD_RUNS}`;
const table = [
  '| metric | this site (`netlify/functions/mcp.mts`) | v1 SDK peer (`McpServer` + `WebStandardStreamableHTTPServerTransport`) | target |',
  '|---|---|---|---|',
  `| bundle (esbuild, unminified; the search index is a file beside it) | ${kb(ours.bytes)} | ${kb(peer.bytes)} | |`,
  `| cold start: import bundle (median of ${COLD_RUNS} fresh processes) | ${ms(coldOurs.importMs)} ms | ${ms(coldPeer.importMs)} ms | |`,
  `| cold start: first tools/call | ${ms(coldOurs.firstMs)} ms | ${ms(coldPeer.firstMs)} ms | |`,
  `| **cold start: import + first response** | **${ms(coldOurs.totalMs)} ms** | ${ms(coldPeer.totalMs)} ms | ≤ ${TARGETS.coldMs} ms: ${pass(coldOurs.totalMs <= TARGETS.coldMs)} |`,
  `| warm HTTP tools/call p50 (${warmOurs.n} / ${warmPeer.n} sequential requests) | **${ms(warmOurs.p50)} ms** | ${ms(warmPeer.p50)} ms | ≤ ${TARGETS.p50Ms} ms: ${pass(warmOurs.p50 <= TARGETS.p50Ms)} |`,
  `| warm HTTP tools/call p99 | ${ms(warmOurs.p99)} ms | ${ms(warmPeer.p99)} ms | |`,
  `| warm HTTP throughput (1 connection, sequential) | ${warmOurs.rps.toFixed(0)} req/s | ${warmPeer.rps.toFixed(0)} req/s | |`,
  `| through the warm runtime (\`npm start\`), p50 / p99 of ${throughRuntime.n} | ${ms(throughRuntime.p50)} / ${ms(throughRuntime.p99)} ms | n/a (not a Netlify function) | ≤ ${TARGETS.p50Ms} ms: ${pass(throughRuntime.p50 <= TARGETS.p50Ms)} |`,
].join('\n');

const environment = `Node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, ${os.platform()} ${os.release()}, load average ${os
  .loadavg()
  .map((l) => l.toFixed(2))
  .join(' ')}`;
console.log(`\n${table}\n\n${environment}\n`);

writeFileSync(
  path.join(ROOT, 'bench', 'MCP-RESULTS.md'),
  `# MCP benchmark results

Generated by \`bench/mcp.bench.ts\` on ${new Date().toISOString().slice(0, 10)}. Command (after a test build, \`node scripts/build.ts --origin http://localhost:8899\`):

\`\`\`
${command}
\`\`\`

${environment}.

${table}

How it is measured:
- Both servers are bundled like Netlify bundles a function: esbuild \`--bundle --platform=node --format=esm\` (plus a \`require\` shim for CommonJS dependencies), the build's search index beside the bundle as in Netlify's archive (netlify.toml \`included_files\`).
- **Cold start:** a fresh Node process imports the bundle and answers one \`tools/call search_articles\`; the figure is import + first response, median of ${COLD_RUNS} processes (process spawn itself excluded).
- **Warm HTTP:** the bundle's handler behind the HTTP server of \`npm start\` (\`scripts/runtime/http.ts\` \`serve()\`, node:http on 127.0.0.1, a free port), ${WARMUP} warm-up requests, then sequential requests over one keep-alive connection, capped at ${MAX_REQUESTS} requests or ${MAX_SECONDS} s; queries cycle through ${QUERIES.length} Chinese/English queries, \`limit: 10\`. The peer runs the v1 SDK's documented stateless pattern (new server + transport per request, JSON responses) with the same tool over the same index.
- **Through the warm runtime:** \`scripts/runtime\` \`startRuntime()\` + \`serve()\`, what \`npm start\` runs: the function imported once from source, routed by its config, called with its Netlify context, every request through the edge-function check and the security headers. (Before issue 13 this row went through @netlify/dev, which re-imported the function in a new worker per call: 493 ms p50.)
`,
);
console.log('Wrote bench/MCP-RESULTS.md');
