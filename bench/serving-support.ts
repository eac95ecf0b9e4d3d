/**
 * Shared parts of the serving benchmarks (serve.bench.ts, soak.bench.ts): the runtime child process,
 * the requests each scenario sends (and how its answer is checked), process-tree RSS, and statistics.
 * @module
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import os from 'node:os';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..');

/** Fails early, with the command to run, when there is no build to serve. */
export function requireBuild(): void {
  for (const file of ['dist/index.html', 'generated/data/search/index.bin', 'generated/data/catalog.json']) {
    if (!existsSync(path.join(ROOT, file)))
      throw new Error(`${file} is missing: run \`node scripts/build.ts --origin http://localhost:8899\` first`);
  }
}

export interface RuntimeProcess {
  url: string;
  pid: number;
  child: ChildProcess;
  /** Forced-GC memory usage of the runtime process. */
  memory(): Promise<NodeJS.MemoryUsage>;
  stop(): Promise<void>;
}

/** Starts bench/runtime-child.ts and waits for its READY line. */
export async function startRuntimeProcess(
  mode: 'warm' | 'emulator',
  options: { edge?: boolean; log?: (line: string) => void } = {},
): Promise<RuntimeProcess> {
  const child = spawn(
    process.execPath,
    ['--expose-gc', path.join(ROOT, 'bench', 'runtime-child.ts'), '--mode', mode, '--edge', options.edge === false ? 'off' : 'on'],
    {
      cwd: ROOT,
      // These benches measure serving, from one loopback client: the per-network read limit would answer most of it 429.
      env: { ...process.env, READ_LIMIT_PER_SECOND: '0' },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    },
  );
  const log = options.log ?? ((line: string) => process.stderr.write(`[runtime] ${line}\n`));
  const ready = new Promise<{ url: string; pid: number }>((resolve, reject) => {
    let buffer = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        if (line.startsWith('READY ')) resolve(JSON.parse(line.slice(6)));
        else if (line.trim()) log(line);
      }
    });
    child.once('exit', (code) => reject(new Error(`runtime child exited (${code}) before it was ready`)));
  });
  child.stderr!.on('data', (chunk: Buffer) =>
    chunk
      .toString()
      .split('\n')
      .filter((l) => l.trim())
      .forEach(log),
  );
  const { url } = await ready;
  let nextId = 0;
  return {
    url: url.replace('localhost', '127.0.0.1'),
    pid: child.pid!,
    child,
    memory: () =>
      new Promise((resolve) => {
        const id = ++nextId;
        const onMessage = (message: { type?: string; id?: number; memory?: NodeJS.MemoryUsage }): void => {
          if (message.type === 'memory' && message.id === id) {
            child.off('message', onMessage);
            resolve(message.memory!);
          }
        };
        child.on('message', onMessage);
        child.send({ type: 'memory', id });
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

/** RSS (bytes) of `pid` and all its descendants (the emulator's Deno edge server, …), from /proc. */
export function treeRss(pid: number): { bytes: number; processes: number; byName: Record<string, number> } {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // the process ended meanwhile
    }
  }
  let bytes = 0;
  let processes = 0;
  const byName: Record<string, number> = {};
  const stack = [pid];
  while (stack.length) {
    const current = stack.pop()!;
    try {
      const status = readFileSync(`/proc/${current}/status`, 'utf8');
      const kb = Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0);
      const name = /^Name:\s+(.*)$/m.exec(status)?.[1] ?? '?';
      bytes += kb * 1024;
      byName[name] = (byName[name] ?? 0) + kb * 1024;
      processes++;
    } catch {
      continue;
    }
    stack.push(...(children.get(current) ?? []));
  }
  return { bytes, processes, byName };
}

// --- requests -------------------------------------------------------------------------------

/** Queries rotated through by search and MCP load (Chinese, English, mixed). */
export const LOAD_QUERIES = [
  '私有化部署',
  'speculative decoding',
  'RAG chunking',
  'API 网关 熔断',
  'prompt injection',
  'LoRA 微调',
  'vector database',
  '向量数据库选型',
  'KV cache',
  'agent 编排',
];

export const MCP_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-11-25',
};

export const mcpBody = (i: number): string =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: i,
    method: 'tools/call',
    params: { name: 'search_articles', arguments: { query: LOAD_QUERIES[i % LOAD_QUERIES.length], limit: 10 } },
  });

export const searchPath = (i: number): string => `/api/search?q=${encodeURIComponent(LOAD_QUERIES[i % LOAD_QUERIES.length]!)}`;

export interface Client {
  client_id: string;
  client_secret: string;
}

/**
 * Registers a client_credentials client. Registration is limited per client IP (20 per hour), and
 * the runtime takes the IP from the TCP peer address; each run registers once from its own random
 * loopback address (127.x.y.z, all local on Linux), so repeated runs do not exhaust one IP's quota.
 */
export async function registerClient(baseUrl: string, name: string): Promise<{ client: Client; sourceAddress: string }> {
  const sourceAddress = `127.${1 + Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 250)}`;
  const body = JSON.stringify({
    client_name: name,
    grant_types: ['client_credentials'],
    scope: 'articles:read',
    token_endpoint_auth_method: 'client_secret_basic',
  });
  const url = new URL('/oauth/register', baseUrl);
  const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        localAddress: sourceAddress,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
  if (status !== 201) throw new Error(`POST /oauth/register → ${status}: ${text.slice(0, 300)}`);
  const client = JSON.parse(text) as Client;
  return { client, sourceAddress };
}

export const basicAuth = (client: Client): string =>
  `Basic ${Buffer.from(`${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret)}`).toString('base64')}`;

export const TOKEN_BODY = 'grant_type=client_credentials&scope=articles%3Aread';

/** A scenario: the autocannon request and the check an answer's body must pass. */
export interface Scenario {
  name: string;
  describe: string;
  request: { method: 'GET' | 'POST'; path: string; headers?: Record<string, string>; body?: string };
  /** Per-request variation (rotating queries); `i` counts requests of this scenario. */
  vary?: (i: number) => { path?: string; body?: string };
  /** Returns why an answer (status 2xx) is wrong, or null. */
  check(body: string): string | null;
}

export function scenarios(client: Client): Record<string, Scenario> {
  return {
    search: {
      name: 'search',
      describe: `GET /api/search?q=… (${LOAD_QUERIES.length} zh/en/mixed queries rotated)`,
      request: { method: 'GET', path: searchPath(0) },
      vary: (i) => ({ path: searchPath(i) }),
      check: (body) => (body.startsWith('[{"slug"') ? null : `not a non-empty result array: ${body.slice(0, 120)}`),
    },
    mcp: {
      name: 'mcp',
      describe: 'POST /mcp tools/call search_articles (same queries, limit 10)',
      request: { method: 'POST', path: '/mcp', headers: MCP_HEADERS, body: mcpBody(0) },
      vary: (i) => ({ body: mcpBody(i) }),
      check: (body) =>
        body.includes('"result"') && body.includes('"results"') && !body.includes('"isError":true')
          ? null
          : `not a tool result: ${body.slice(0, 160)}`,
    },
    token: {
      name: 'token',
      describe: 'POST /oauth/token grant_type=client_credentials (client_secret_basic)',
      request: {
        method: 'POST',
        path: '/oauth/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basicAuth(client) },
        body: TOKEN_BODY,
      },
      check: (body) => (body.includes('"access_token"') ? null : `no access_token: ${body.slice(0, 160)}`),
    },
    static: {
      name: 'static',
      describe: 'GET /blog/ (static HTML page)',
      request: { method: 'GET', path: '/blog/', headers: { accept: 'text/html' } },
      check: (body) => (body.includes('</html>') ? null : `not an HTML page: ${body.slice(0, 120)}`),
    },
    tweets: {
      name: 'tweets',
      describe: 'GET /api/tweets',
      request: { method: 'GET', path: '/api/tweets' },
      check: (body) => (body.startsWith('{') ? null : `not JSON: ${body.slice(0, 120)}`),
    },
    health: {
      name: 'health',
      describe: 'GET /health (writes and reads a Blobs probe)',
      request: { method: 'GET', path: '/health' },
      check: (body) => (body.includes('"status":"ok"') ? null : `not healthy: ${body.slice(0, 200)}`),
    },
  };
}

/** Sends one request of `scenario` and checks it (used before load, to fail fast with a reason). */
export async function probe(baseUrl: string, scenario: Scenario): Promise<{ ms: number; status: number }> {
  const started = performance.now();
  const { method, path: p, headers, body } = scenario.request;
  const res = await fetch(new URL(p, baseUrl), { method, headers, body });
  const text = await res.text();
  const ms = performance.now() - started;
  if (res.status < 200 || res.status >= 300) throw new Error(`${scenario.name}: ${method} ${p} → ${res.status}: ${text.slice(0, 300)}`);
  const problem = scenario.check(text);
  if (problem) throw new Error(`${scenario.name}: ${problem}`);
  return { ms, status: res.status };
}

/**
 * A short, stable description of a failed answer, for counting failures by kind. The emulator's
 * per-request bundle race (a 500 naming a vanished .netlify/functions-serve/_xxxx folder) gets one
 * label whatever the folder.
 */
export function classify(problem: string): string {
  if (/Cannot find module '[^']*\.netlify\/functions-serve\/_|ENOENT[^\n]*\.netlify\/functions-serve\/_/.test(problem)) {
    return `${problem.split(':')[0]}: HTTP 500 emulator bundle race (Cannot find module …/.netlify/functions-serve/_xxxx/…: the per-request bundle folder vanished)`;
  }
  return problem.slice(0, 300);
}

// --- statistics and facts -------------------------------------------------------------------

export { median, percentile } from './stats.ts';

/** Least-squares slope and intercept of y over x, and the standard error of the slope. */
export function linearRegression(xs: readonly number[], ys: readonly number[]): { slope: number; intercept: number; slopeSE: number } {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i]! - mx) * (ys[i]! - my);
    den += (xs[i]! - mx) ** 2;
  }
  const slope = den === 0 ? 0 : num / den;
  const intercept = my - slope * mx;
  let residuals = 0;
  for (let i = 0; i < n; i++) residuals += (ys[i]! - intercept - slope * xs[i]!) ** 2;
  const slopeSE = n > 2 && den > 0 ? Math.sqrt(residuals / (n - 2) / den) : Number.POSITIVE_INFINITY;
  return { slope, intercept, slopeSE };
}

export const loadAverage = (): string =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

export function machineFacts(): string {
  return `Node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? 'CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.platform()} ${os.release()}`;
}

export const fixed = (value: number, digits = 1): string => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
