/**
 * Parity of the warm local runtime (scripts/runtime/) with Netlify's own emulator (@netlify/dev,
 * tests/support/emulator/emulator.ts, in a child process): one table of requests through both, comparing
 * the status, the headers that matter and the body (JSON with volatile fields masked, each origin
 * replaced by {origin}). Any difference fails unless EXPECTED_DIFFERENCES lists it with its reason;
 * a listed difference that no longer occurs fails too, so the list stays true.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { createServer } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, startRuntime, ROOT, type LocalRuntime } from '../../scripts/runtime/index.ts';
import { findFunction } from '../../scripts/runtime/routes.ts';
import { testBlobsDir } from '../support/runtime.ts';

/** The emulator starts Deno for the edge function: allow for a loaded machine. */
const EMULATOR_START_TIMEOUT_MS = 120_000;
/**
 * About 90 requests. The emulator builds the function for every call (zip-it-and-ship-it's file
 * trace, ≈ 1 s of CPU) unless a build of that function is already under way, which concurrent
 * calls share; so consecutive rows for one function go together (a wave), one wave at a time.
 */
const TABLE_TIMEOUT_MS = 360_000;

interface Row {
  name: string;
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Send If-None-Match with the ETag of a first GET (each runtime its own). */
  revalidate?: boolean;
  /** How to compare bodies; default by content type (JSON masked, text exact, else sha256). */
  compare?: 'ignore';
  /** Reads what an earlier row wrote: sent only once the rows before it have been answered. */
  afterPrevious?: true;
}

const catalog = JSON.parse(readFileSync(path.join(ROOT, 'generated/data/catalog.json'), 'utf8')) as {
  origin: string;
  articles: { slug: string; path: string }[];
};
const article = `/blog/${catalog.articles[0]!.slug}`;
const asset = `/_astro/${readdirSync(path.join(ROOT, 'dist/_astro')).find((f) => f.endsWith('.css'))}`;
const json = { 'content-type': 'application/json' };
const form = { 'content-type': 'application/x-www-form-urlencoded' };
const mcpHeaders = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-06-18',
};
const a2aHeaders = { 'content-type': 'application/json', 'a2a-version': '1.0' };
const rpc = (method: string, params: object = {}, id = 1): string => JSON.stringify({ jsonrpc: '2.0', id, method, params });

const ROWS: Row[] = [
  // pages and negotiation
  { name: 'home', path: '/' },
  { name: 'home as markdown', path: '/', headers: { accept: 'text/markdown' } },
  { name: 'home as text', path: '/', headers: { accept: 'text/plain' } },
  { name: 'home for */*', path: '/', headers: { accept: '*/*' } },
  { name: 'home 406', path: '/', headers: { accept: 'application/json' } },
  { name: 'home HEAD', method: 'HEAD', path: '/' },
  { name: 'article', path: article },
  { name: 'article twin', path: `${article}.md` },
  { name: 'article twin HEAD', method: 'HEAD', path: `${article}.md` },
  { name: 'article as markdown', path: article, headers: { accept: 'text/markdown' } },
  { name: 'index twin', path: '/index.md' },
  { name: 'blog with slash', path: '/blog/' },
  { name: 'contact page', path: '/contact' },
  // static files
  { name: 'asset', path: asset },
  { name: 'pagefind', path: '/pagefind/pagefind.js' },
  { name: 'rss', path: '/rss.xml' },
  { name: 'auth.md', path: '/auth.md' },
  { name: 'robots.txt', path: '/robots.txt' },
  { name: 'sitemap', path: '/sitemap.xml' },
  { name: 'llms.txt', path: '/llms.txt' },
  { name: 'llms.txt revalidated', path: '/llms.txt', revalidate: true },
  { name: 'llms-full.txt', path: '/llms-full.txt' },
  { name: 'openapi.json', path: '/openapi.json' },
  {
    name: 'openapi.json OPTIONS',
    method: 'OPTIONS',
    path: '/openapi.json',
    headers: { origin: 'https://agent.example', 'access-control-request-method': 'GET' },
  },
  { name: 'favicon', path: '/favicon.svg' },
  // misses
  { name: 'missing page', path: '/nope' },
  { name: 'missing twin', path: '/nope.md' },
  { name: 'missing page as markdown', path: '/nope', headers: { accept: 'text/markdown' } },
  { name: 'missing asset', path: '/_astro/nope.js' },
  { name: 'missing .well-known', path: '/.well-known/nope' },
  { name: 'missing /oauth path', path: '/oauth/nope' },
  { name: 'unknown API path', path: '/api/nope' },
  { name: 'API root', path: '/api' },
  { name: 'API path in capitals', path: '/API/search?q=agent' },
  // HTTP API
  { name: 'search', path: '/api/search?q=agent' },
  { name: 'search in Chinese', path: '/api/search?q=%E6%99%BA%E8%83%BD%E4%BD%93&limit=3' },
  { name: 'search without q', path: '/api/search' },
  { name: 'search limit out of range', path: '/api/search?q=agent&limit=999' },
  { name: 'search PUT', method: 'PUT', path: '/api/search', body: '{}', headers: json },
  {
    name: 'search preflight',
    method: 'OPTIONS',
    path: '/api/search',
    headers: { origin: 'https://agent.example', 'access-control-request-method': 'GET' },
  },
  { name: 'tweets', path: '/api/tweets' },
  { name: 'contact invalid', method: 'POST', path: '/api/contact', body: '{}', headers: json },
  { name: 'contact bad JSON', method: 'POST', path: '/api/contact', body: '{', headers: json },
  {
    name: 'contact valid',
    method: 'POST',
    path: '/api/contact',
    body: JSON.stringify({
      name: 'Parity Test',
      email: 'parity@example.com',
      message: 'A message long enough to be accepted by the form.',
    }),
    headers: json,
  },
  { name: 'health', path: '/health' },
  // discovery
  { name: 'api-catalog', path: '/.well-known/api-catalog' },
  { name: 'api-catalog HEAD', method: 'HEAD', path: '/.well-known/api-catalog' },
  { name: 'ai-catalog', path: '/.well-known/ai-catalog.json' },
  { name: 'ard', path: '/.well-known/ard.json' },
  { name: 'agent skills', path: '/.well-known/agent-skills/index.json' },
  { name: 'agent skill', path: '/.well-known/agent-skills/search-library/SKILL.md' },
  { name: 'missing agent skill', path: '/.well-known/agent-skills/nope' },
  { name: 'server card', path: '/.well-known/mcp/server-card.json' },
  { name: 'mcp.json', path: '/.well-known/mcp.json' },
  { name: '/mcp/server-card', path: '/mcp/server-card' },
  { name: 'AS metadata', path: '/.well-known/oauth-authorization-server' },
  { name: 'PR metadata', path: '/.well-known/oauth-protected-resource' },
  { name: 'PR metadata /mcp', path: '/.well-known/oauth-protected-resource/mcp' },
  // OAuth errors
  { name: 'jwks', path: '/oauth/jwks.json', compare: 'ignore' },
  { name: 'token without body', method: 'POST', path: '/oauth/token' },
  { name: 'token bad grant', method: 'POST', path: '/oauth/token', body: 'grant_type=bogus', headers: form },
  {
    name: 'token unknown client',
    method: 'POST',
    path: '/oauth/token',
    body: 'grant_type=client_credentials',
    headers: { ...form, authorization: `Basic ${btoa('agt_nope:secret')}` },
  },
  { name: 'token GET', path: '/oauth/token' },
  {
    name: 'token preflight',
    method: 'OPTIONS',
    path: '/oauth/token',
    headers: { origin: 'https://agent.example', 'access-control-request-method': 'POST' },
  },
  { name: 'register bad JSON', method: 'POST', path: '/oauth/register', body: '{', headers: json },
  {
    name: 'register bad grant',
    method: 'POST',
    path: '/oauth/register',
    body: JSON.stringify({ grant_types: ['password'] }),
    headers: json,
  },
  {
    name: 'register',
    method: 'POST',
    path: '/oauth/register',
    body: JSON.stringify({ grant_types: ['client_credentials'], client_name: 'Parity' }),
    headers: json,
  },
  { name: 'authorize without parameters', path: '/oauth/authorize' },
  { name: 'revoke without body', method: 'POST', path: '/oauth/revoke' },
  { name: 'claim without body', method: 'POST', path: '/oauth/claim', body: '{}', headers: json },
  { name: 'claim verify page', path: '/oauth/claim/verify' },
  // MCP
  { name: 'MCP without Accept', method: 'POST', path: '/mcp', body: rpc('tools/list'), headers: json },
  { name: 'MCP bad JSON', method: 'POST', path: '/mcp', body: '{', headers: mcpHeaders },
  { name: 'MCP unknown method', method: 'POST', path: '/mcp', body: rpc('nope/nope'), headers: mcpHeaders },
  {
    name: 'MCP initialize',
    method: 'POST',
    path: '/mcp',
    body: rpc('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'parity', version: '1' } }),
    headers: mcpHeaders,
  },
  { name: 'MCP tools/list', method: 'POST', path: '/mcp', body: rpc('tools/list'), headers: mcpHeaders },
  {
    name: 'MCP search',
    method: 'POST',
    path: '/mcp',
    body: rpc('tools/call', { name: 'search_articles', arguments: { query: 'agent' } }),
    headers: mcpHeaders,
  },
  {
    name: 'MCP get_article',
    method: 'POST',
    path: '/mcp',
    body: rpc('tools/call', { name: 'get_article', arguments: { slug: catalog.articles[0]!.slug } }),
    headers: mcpHeaders,
  },
  {
    name: 'MCP resources/read (body from the deploy store)',
    method: 'POST',
    path: '/mcp',
    body: rpc('resources/read', { uri: `${catalog.origin}${catalog.articles[0]!.path}.md` }),
    headers: mcpHeaders,
  },
  {
    name: 'MCP export without token',
    method: 'POST',
    path: '/mcp',
    body: rpc('tools/call', { name: 'export_article_index', arguments: {} }),
    headers: mcpHeaders,
  },
  {
    name: 'MCP export with a bad token',
    method: 'POST',
    path: '/mcp',
    body: rpc('tools/call', { name: 'export_article_index', arguments: {} }),
    headers: { ...mcpHeaders, authorization: 'Bearer nope' },
  },
  { name: 'MCP GET', path: '/mcp', headers: { accept: 'text/event-stream' } },
  { name: 'MCP DELETE', method: 'DELETE', path: '/mcp' },
  {
    name: 'MCP preflight',
    method: 'OPTIONS',
    path: '/mcp',
    headers: { origin: 'https://agent.example', 'access-control-request-method': 'POST' },
  },
  // A2A: the agent card (discovery function) and the JSON-RPC endpoint, outside the edge function
  { name: 'A2A agent card', path: '/.well-known/agent-card.json' },
  {
    name: 'A2A SendMessage',
    method: 'POST',
    path: '/a2a',
    body: rpc('SendMessage', { message: { messageId: 'm-1', contextId: 'ctx-1', role: 'ROLE_USER', parts: [{ text: 'agent' }] } }),
    headers: a2aHeaders,
  },
  { name: 'A2A ListTasks', method: 'POST', path: '/a2a', body: rpc('ListTasks'), headers: a2aHeaders, afterPrevious: true },
  { name: 'A2A without A2A-Version', method: 'POST', path: '/a2a', body: rpc('GetTask', { id: 't' }), headers: json },
  { name: 'A2A GET', path: '/a2a' },
  {
    name: 'A2A preflight',
    method: 'OPTIONS',
    path: '/a2a',
    headers: { origin: 'http://localhost:8899', 'access-control-request-method': 'POST' },
  },
  // methods on static paths
  { name: 'POST to a page', method: 'POST', path: '/', body: 'x=1', headers: form },
  { name: 'PUT to an asset', method: 'PUT', path: asset, body: 'x' },
  // The edge function turns any method on the static discovery files into a GET, here and on Netlify.
  { name: 'PUT to robots.txt', method: 'PUT', path: '/robots.txt', body: 'x' },
];

/**
 * Where the runtimes differ on purpose, with the reason. `field` is `status`, `header:<name>` or `body`.
 * Requests that crash the emulator's path (TRACE, `/%`, a malformed target) are not sent to it; the
 * warm runtime's answers to them are in runtime-http.test.ts.
 */
const EXPECTED_DIFFERENCES: { row: string; field: string; reason: string }[] = [
  // Pages answer writes with 405 in both (the edge function refuses them); /_astro/* is outside the
  // edge function, where @netlify/static ignores the method and Netlify's CDN answers 405, as we do.
  {
    row: 'PUT to an asset',
    field: 'status',
    reason: "@netlify/static ignores the method and serves the file; Netlify's CDN answers 405 to a write on a static file, and so do we",
  },
  { row: 'PUT to an asset', field: 'header:allow', reason: 'the 405 names the methods a static file answers' },
  { row: 'PUT to an asset', field: 'header:content-type', reason: 'the 405 is plain text, not the file' },
  { row: 'PUT to an asset', field: 'header:cache-control', reason: 'the 405 is not a cached file' },
  { row: 'PUT to an asset', field: 'body', reason: 'the 405 is plain text, not the file' },
];

/** Compared when either side sends them. Never compared: date, age, etag (see below), request IDs, connection headers, content-length. */
const HEADERS = [
  'content-type',
  'cache-control',
  'vary',
  'link',
  'location',
  'allow',
  'www-authenticate',
  'retry-after',
  'x-markdown-tokens',
  'access-control-allow-origin',
  'access-control-allow-methods',
  'access-control-allow-headers',
  'access-control-expose-headers',
  'access-control-max-age',
  'content-security-policy',
  'strict-transport-security',
  'x-content-type-options',
  'x-frame-options',
  'referrer-policy',
  'permissions-policy',
  'cross-origin-opener-policy',
  'mcp-protocol-version',
];
/** JSON fields that differ per run or per store (ids, secrets, times), masked before comparing. */
const VOLATILE_KEYS = new Set([
  'messageId',
  'client_id',
  'client_secret',
  'claim_token',
  'client_id_issued_at',
  'client_secret_expires_at',
  'id',
  // The contact answer's reference number is derived from its random id.
  'reference',
  'received_at',
  'built_at',
  'uptime_seconds',
  'latency_ms',
  'duration_ms',
  'time',
  'checked_at',
  'instance',
  'enquiry_id',
  'claim_token_expires',
]);

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function normalise(text: string, origin: string): string {
  return text.replaceAll(origin, '{origin}');
}

function mask(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(mask);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, VOLATILE_KEYS.has(k) ? '<masked>' : mask(v)]));
  return value;
}

async function send(origin: string, row: Row): Promise<Answer> {
  const init = (extra: Record<string, string> = {}): RequestInit => ({
    method: row.method ?? 'GET',
    headers: { ...row.headers, ...extra },
    body: row.body,
    redirect: 'manual',
  });
  let res = await fetch(origin + row.path, init());
  if (row.revalidate) {
    const etag = res.headers.get('etag');
    await res.arrayBuffer();
    res = await fetch(origin + row.path, init(etag ? { 'if-none-match': etag } : {}));
  }
  const bytes = Buffer.from(await res.arrayBuffer());
  const headers: Record<string, string> = {};
  for (const name of HEADERS) {
    const value = res.headers.get(name);
    if (value !== null) headers[name] = normalise(value, origin);
  }
  const type = res.headers.get('content-type') ?? '';
  let body: string;
  if (row.compare === 'ignore') body = '<ignored>';
  else if (/json/.test(type)) {
    const text = normalise(bytes.toString('utf8'), origin);
    try {
      body = JSON.stringify(mask(JSON.parse(text)), null, 1);
    } catch {
      body = text;
    }
  } else if (/^text\/|xml|markdown/.test(type)) body = normalise(bytes.toString('utf8'), origin);
  else body = `sha256:${createHash('sha256').update(bytes).digest('hex')} (${bytes.length} bytes)`;
  return { status: res.status, headers, body };
}

/**
 * Vary without Accept-Encoding. The runtime compresses as Netlify's CDN does (scripts/runtime/compression.ts,
 * tested in http-semantics.test.ts) and says so in Vary; @netlify/dev's emulator sends text uncompressed.
 * Bodies are compared decoded (fetch decodes them), so compression is the one difference, set aside here.
 */
function exceptAcceptEncoding(vary: string | undefined): string | undefined {
  const rest = vary
    ?.split(',')
    .map((v) => v.trim())
    .filter((v) => v.toLowerCase() !== 'accept-encoding');
  return rest?.length ? rest.join(', ') : undefined;
}

function differences(row: Row, emulator: Answer, local: Answer): { row: string; field: string; emulator: unknown; local: unknown }[] {
  const found: { field: string; emulator: unknown; local: unknown }[] = [];
  if (emulator.status !== local.status) found.push({ field: 'status', emulator: emulator.status, local: local.status });
  for (const name of HEADERS) {
    const [e, l] =
      name === 'vary'
        ? [exceptAcceptEncoding(emulator.headers.vary), exceptAcceptEncoding(local.headers.vary)]
        : [emulator.headers[name], local.headers[name]];
    if (e !== l) found.push({ field: `header:${name}`, emulator: emulator.headers[name], local: local.headers[name] });
  }
  if (emulator.body !== local.body) {
    // Show where they part: the first differing line and its neighbours.
    const [a, b] = [emulator.body.split('\n'), local.body.split('\n')];
    const at = a.findIndex((line, i) => line !== b[i]);
    const around = (lines: string[]): string =>
      lines
        .slice(Math.max(0, at - 2), at + 3)
        .join('\n')
        .slice(0, 600);
    found.push({ field: 'body', emulator: around(a), local: around(b) });
  }
  return found.map((d) => ({ ...d, row: row.name }));
}

/**
 * The table cut into runs of consecutive rows answered by one function (by the warm runtime's route
 * table; `static` for the rest), each run sent at once. A row marked afterPrevious starts a new run.
 */
function waves(rows: Row[], local: LocalRuntime): Row[][] {
  const target = (row: Row): string =>
    findFunction(local.functions, new URL(row.path, 'http://localhost').pathname, row.method ?? 'GET')?.fn.name ?? 'static';
  const runs: Row[][] = [];
  let previous = '';
  for (const row of rows) {
    const key = target(row);
    if (key !== previous || row.afterPrevious || !runs.length) runs.push([]);
    runs.at(-1)!.push(row);
    previous = key;
  }
  return runs;
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

let emulator: ChildProcess | undefined;
let emulatorOrigin = '';
let runtime: LocalRuntime | undefined;
let server: Server | undefined;
let localOrigin = '';

beforeAll(async () => {
  // The warm runtime starts while the emulator does (it needs a few seconds for Deno).
  const local = startRuntime({ blobsDir: testBlobsDir() });
  emulator = spawn(process.execPath, [path.join(ROOT, 'tests/support/emulator/emulator.ts'), String(await freePort())], {
    cwd: ROOT,
    env: { ...process.env, PATH: `${path.join(ROOT, 'node_modules/.bin')}${path.delimiter}${process.env.PATH}` },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const started = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the emulator did not start')), EMULATOR_START_TIMEOUT_MS);
    let out = '';
    emulator!.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const ready = /READY (\S+)/.exec(out);
      if (ready) {
        clearTimeout(timer);
        resolve(ready[1]!);
      }
    });
    emulator!.on('exit', (code) => reject(new Error(`the emulator exited (${code})`)));
  });
  try {
    emulatorOrigin = await started;
  } finally {
    runtime = await local; // stopped in afterAll whether or not the emulator came up
  }
  ({ server, url: localOrigin } = await serve(runtime, 0, { trustedProxies: [] }));
}, EMULATOR_START_TIMEOUT_MS + 30_000);

afterAll(async () => {
  if (emulator && emulator.exitCode === null) {
    const exited = new Promise((resolve) => emulator!.once('exit', resolve));
    emulator.kill('SIGTERM');
    await exited;
  }
  if (server) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server!.close(() => resolve()));
  }
  await runtime?.stop();
  if (runtime) rmSync(runtime.blobsDir, { recursive: true, force: true });
});

describe("the warm runtime answers as Netlify's emulator does", () => {
  it(
    'every row: same status, headers and body, or a listed difference',
    async () => {
      const unexpected: unknown[] = [];
      const seen = new Set<string>();
      const answers: [Row, Answer, Answer][] = [];
      for (const wave of waves(ROWS, runtime!)) {
        answers.push(
          ...(await Promise.all(
            wave.map(
              async (row): Promise<[Row, Answer, Answer]> => [
                row,
                ...(await Promise.all([send(emulatorOrigin, row), send(localOrigin, row)])),
              ],
            ),
          )),
        );
      }
      for (const [row, theirs, ours] of answers) {
        for (const difference of differences(row, theirs, ours)) {
          const key = `${difference.row}|${difference.field}`;
          if (EXPECTED_DIFFERENCES.some((d) => `${d.row}|${d.field}` === key)) seen.add(key);
          else unexpected.push(difference);
        }
      }
      expect(unexpected).toEqual([]);
      const stale = EXPECTED_DIFFERENCES.filter((d) => !seen.has(`${d.row}|${d.field}`)).map((d) => `${d.row}|${d.field}`);
      expect(stale, 'listed differences that no longer occur').toEqual([]);
    },
    TABLE_TIMEOUT_MS,
  );
});
