/**
 * Memory of a long-running `npm start` across rebuilds: what each `npm run build` beside it leaves in the server
 * process, against the same server started fresh over the last build (the peer, in the same run).
 *
 *     node bench/rebuild-memory.bench.ts [--rebuilds 12] [--port 8931]
 *
 * Starts scripts/serve.ts (what `npm start` runs) with bench/memory-probe.ts preloaded, sends one request to every
 * kind of function (pages, twins, search, MCP, A2A, OAuth metadata, the OpenAPI document), then `--rebuilds` times:
 * `node scripts/build.ts --force` for the server's origin, waits until the server says it serves the new build, sends
 * the same requests, and reads the process's memory after two forced collections. Then a fresh server over the last
 * build gets the same requests. Prints a table (RSS, V8 heap, external, snapshot folders on disk) and the growth
 * per rebuild (least squares over the rebuilds); writes bench/.out/rebuild-memory.json.
 * @module
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { argValue } from './generate-corpus.ts';
import { answerHelpFromDoc } from '../scripts/usage.ts';

answerHelpFromDoc(import.meta.url);

const ROOT = path.resolve(import.meta.dirname, '..');
const argv = process.argv.slice(2);
const REBUILDS = Number(argValue(argv, 'rebuilds') ?? 12);
const PORT = Number(argValue(argv, 'port') ?? 8931);
const ORIGIN = `http://localhost:${PORT}`;
const READY_TIMEOUT_MS = 120_000;
const SWITCH_TIMEOUT_MS = 120_000;
const MB = 1024 * 1024;
const SNAPSHOTS_DIR = path.join(ROOT, '.netlify', 'local-runtime');

interface Server {
  child: ChildProcess;
  /** Resolves on the next line of stderr that `match` accepts. */
  nextLine(match: (line: string) => boolean, timeoutMs: number): Promise<string>;
}

function startServer(blobsDir: string): Server {
  const child = spawn(
    process.execPath,
    ['--expose-gc', '--import', path.join(ROOT, 'bench', 'memory-probe.ts'), path.join(ROOT, 'scripts', 'serve.ts')],
    {
      cwd: ROOT,
      env: { ...process.env, PORT: String(PORT), NETLIFY_LOCAL_BLOBS_DIR: blobsDir, READ_LIMIT_PER_SECOND: '0' },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  const waiters: { match: (line: string) => boolean; resolve: (line: string) => void }[] = [];
  let buffer = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      const waiter = waiters.find((w) => w.match(line));
      if (waiter) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    }
  });
  return {
    child,
    nextLine: (match, timeoutMs) =>
      Promise.race([
        new Promise<string>((resolve) => waiters.push({ match, resolve })),
        sleep(timeoutMs).then(() => {
          throw new Error(`no matching line from the server in ${timeoutMs} ms`);
        }),
      ]),
  };
}

async function waitReady(): Promise<void> {
  const until = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < until) {
    const ok = await fetch(`${ORIGIN}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await sleep(250);
  }
  throw new Error(`${ORIGIN}/health did not answer in ${READY_TIMEOUT_MS} ms`);
}

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const rpc = (method: string, params: unknown, id = 1) => JSON.stringify({ jsonrpc: '2.0', id, method, params });

/** One request to every kind of function the site runs, and to its pages; throws on any 5xx. */
async function exercise(): Promise<void> {
  const requests: [string, RequestInit?][] = [
    ['/'],
    ['/blog/'],
    ['/blog/llm-gateway-token-budgets/', { headers: { accept: 'text/markdown' } }],
    ['/api/search?q=gateway'],
    ['/api/tweets'],
    ['/openapi.json'],
    ['/.well-known/oauth-authorization-server'],
    ['/.well-known/agent-card.json'],
    [
      '/mcp',
      {
        method: 'POST',
        headers: MCP_HEADERS,
        body: rpc('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } }),
      },
    ],
    [
      '/mcp',
      { method: 'POST', headers: MCP_HEADERS, body: rpc('tools/call', { name: 'search_articles', arguments: { query: 'agent' } }, 2) },
    ],
    [
      '/a2a',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: rpc(
          'message/send',
          { message: { role: 'user', kind: 'message', messageId: 'm1', parts: [{ kind: 'text', text: 'gateway' }] } },
          3,
        ),
      },
    ],
  ];
  for (const [pathname, init] of requests) {
    const response = await fetch(`${ORIGIN}${pathname}`, init);
    await response.arrayBuffer();
    if (response.status >= 500) throw new Error(`${pathname}: ${response.status}`);
  }
}

async function memory(server: Server): Promise<NodeJS.MemoryUsage> {
  const line = server.nextLine((l) => l.startsWith('MEMORY '), 30_000);
  server.child.kill('SIGUSR2');
  return JSON.parse((await line).slice('MEMORY '.length)) as NodeJS.MemoryUsage;
}

async function stop(server: Server): Promise<void> {
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await exited;
}

function build(force: boolean): void {
  const result = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build.ts'), '--origin', ORIGIN, ...(force ? ['--force'] : [])], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (result.status !== 0) throw new Error(`the build failed (${result.status})`);
}

const snapshotCount = (): number => {
  try {
    return readdirSync(SNAPSHOTS_DIR).length;
  } catch {
    return 0;
  }
};

interface Row {
  label: string;
  rssMb: number;
  heapMb: number;
  externalMb: number;
  snapshots: number;
}
const row = (label: string, m: NodeJS.MemoryUsage): Row => ({
  label,
  rssMb: m.rss / MB,
  heapMb: m.heapUsed / MB,
  externalMb: (m.external + m.arrayBuffers) / MB,
  snapshots: snapshotCount(),
});

/** Least-squares slope of `ys` over 1..n. */
function slope(ys: number[]): number {
  const n = ys.length;
  const mx = (n + 1) / 2;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  ys.forEach((y, i) => {
    num += (i + 1 - mx) * (y - my);
    den += (i + 1 - mx) ** 2;
  });
  return den ? num / den : 0;
}

build(false);
const blobsDir = mkdtempSync(path.join(tmpdir(), 'bench-rebuild-memory-blobs-'));
const rows: Row[] = [];
let server = startServer(blobsDir);
try {
  await waitReady();
  await exercise();
  rows.push(row('started', await memory(server)));
  for (let i = 1; i <= REBUILDS; i++) {
    const switched = server.nextLine((l) => l.includes('A new build is served'), SWITCH_TIMEOUT_MS);
    build(true);
    await switched;
    await exercise();
    rows.push(row(`rebuild ${i}`, await memory(server)));
    process.stderr.write(`rebuild ${i}: ${rows.at(-1)!.rssMb.toFixed(1)} MB RSS\n`);
  }
  await stop(server);
  server = startServer(blobsDir);
  await waitReady();
  await exercise();
  rows.push(row('fresh start (peer)', await memory(server)));
} finally {
  await stop(server).catch(() => {});
  rmSync(blobsDir, { recursive: true, force: true });
}

const rebuilt = rows.slice(1, -1);
const perRebuild = {
  rssMb: slope(rebuilt.map((r) => r.rssMb)),
  heapMb: slope(rebuilt.map((r) => r.heapMb)),
  externalMb: slope(rebuilt.map((r) => r.externalMb)),
};
const last = rows.at(-2)!;
const fresh = rows.at(-1)!;
console.log('| server | RSS MB | V8 heap MB | external MB | snapshot folders |');
console.log('| --- | ---: | ---: | ---: | ---: |');
for (const r of rows)
  console.log(`| ${r.label} | ${r.rssMb.toFixed(1)} | ${r.heapMb.toFixed(1)} | ${r.externalMb.toFixed(1)} | ${r.snapshots} |`);
console.log(
  `\nPer rebuild: RSS ${perRebuild.rssMb.toFixed(2)} MB, heap ${perRebuild.heapMb.toFixed(2)} MB, external ${perRebuild.externalMb.toFixed(2)} MB` +
    ` (least squares over ${rebuilt.length} rebuilds). After ${REBUILDS} rebuilds: RSS ${(last.rssMb / fresh.rssMb).toFixed(2)}×` +
    ` and heap ${(last.heapMb / fresh.heapMb).toFixed(2)}× a fresh start.`,
);
mkdirSync(path.join(ROOT, 'bench', '.out'), { recursive: true });
writeFileSync(path.join(ROOT, 'bench', '.out', 'rebuild-memory.json'), `${JSON.stringify({ rows, perRebuild }, null, 2)}\n`);
