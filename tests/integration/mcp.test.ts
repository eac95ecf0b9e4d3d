/**
 * POST /mcp through the real runtime (Netlify's local emulation behind a real HTTP server), driven
 * by the official SDK clients: v1 `@modelcontextprotocol/sdk` in the legacy handshake era
 * (docs/reference/mcp-oauth.md §10 A) and v2 `@modelcontextprotocol/client` in the 2026-07-28 era (§10 B),
 * plus raw fetch for the transport rows and modern headers.
 */
import type { Server } from 'node:http';
import { Client as ClientV2, SdkHttpError, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, startRuntime, type LocalRuntime } from '../../scripts/runtime/index.ts';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SERVER_CAPABILITIES } from '../../src/core/mcp/server-info.ts';
import { withoutFrontMatter } from '../../src/core/content/markdown.ts';
import { serverIdentity } from '../../src/core/agent-tools/identity.ts';
import { TEST_ORIGIN } from '../support/origin.ts';
import { testBlobsDir } from '../support/runtime.ts';

/** The name the server derives from the built catalogue's company name. */
const SERVER_NAME = serverIdentity(
  (JSON.parse(readFileSync('generated/data/catalog.json', 'utf8')) as { company: { name: string } }).company.name,
).name;
const TOOL_NAMES = ['search_articles', 'get_article', 'list_products', 'get_company_info', 'export_article_index', 'submit_feedback'];
const PRM_URL = `${TEST_ORIGIN}/.well-known/oauth-protected-resource/mcp`;
const MODERN_META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

let runtime: LocalRuntime;
let server: Server;
let mcpUrl: URL;

beforeAll(async () => {
  runtime = await startRuntime({ blobsDir: testBlobsDir() });
  const served = await serve(runtime, 0);
  server = served.server;
  mcpUrl = new URL('/mcp', served.url);
});

afterAll(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await runtime?.stop();
  if (runtime) rmSync(runtime.blobsDir, { recursive: true, force: true });
});

/** A JSON-RPC message as a client sent it (the fields these tests read). */
interface SentRequest {
  method?: string;
  params?: { protocolVersion?: string; uri?: string };
}

/** Every request a client sends and the status/headers it got back. */
interface Exchange {
  method: string;
  headers: Headers;
  body: SentRequest | undefined;
  status: number;
  responseHeaders: Headers;
}

function recordingFetch(log: Exchange[]): typeof fetch {
  return async (input, init) => {
    const res = await fetch(input, init);
    const headers = new Headers(init?.headers);
    log.push({
      method: init?.method ?? 'GET',
      headers,
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
      status: res.status,
      responseHeaders: res.headers,
    });
    return res;
  };
}

/** A raw POST to /mcp. */
function post(body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(mcpUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

describe('A. legacy era: v1 SDK Client', () => {
  const log: Exchange[] = [];
  let client: Client;

  beforeAll(async () => {
    client = new Client({ name: 'v1-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(mcpUrl, { fetch: recordingFetch(log) }));
  });
  afterAll(async () => {
    await client?.close();
  });

  it('A1 connects at 2025-11-25 with our serverInfo; no session id anywhere; GET /mcp is 405', async () => {
    expect(client.getServerVersion()).toMatchObject({ name: SERVER_NAME, version: expect.any(String) });
    expect(client.getServerCapabilities()).toEqual(SERVER_CAPABILITIES);
    expect(client.getInstructions()).toContain('search_articles');
    const init = log.find((e) => e.body?.method === 'initialize')!;
    expect(init.status).toBe(200);
    expect(init.body?.params?.protocolVersion).toBe('2025-11-25');
    expect(log.find((e) => e.body?.method === 'notifications/initialized')?.status).toBe(202);
    // The SDK opens its optional SSE stream in the background; on a loaded machine that can take a while.
    await expect.poll(() => log.find((e) => e.method === 'GET')?.status, { timeout: 15_000 }).toBe(405);
    await client.ping();
    expect(log.every((e) => !e.responseHeaders.has('mcp-session-id'))).toBe(true);
    expect(
      log.filter((e) => e.body && e.body.method !== 'initialize').every((e) => e.headers.get('mcp-protocol-version') === '2025-11-25'),
    ).toBe(true);
  });

  it('A2 lists exactly six tools in a stable order with object schemas; all read-only but submit_feedback', async () => {
    const first = await client.listTools();
    expect(first.tools.map((t) => t.name)).toEqual(TOOL_NAMES);
    for (const tool of first.tools) {
      const reads = tool.name !== 'submit_feedback';
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.annotations).toMatchObject({ readOnlyHint: reads, openWorldHint: false, destructiveHint: false, idempotentHint: reads });
    }
    expect(first.tools.find((t) => t.name === 'export_article_index')!.description).toContain('content:export');
    expect(await client.listTools()).toEqual(first);
  });

  it('A3 calls every public tool, submit_feedback too (the SDK validates structuredContent against outputSchema)', async () => {
    const search = await client.callTool({ name: 'search_articles', arguments: { query: 'speculative decoding', limit: 3 } });
    expect(search.isError).toBeFalsy();
    expect((search.content as { type: string }[])[0]!.type).toBe('text');
    const results = (search.structuredContent as { results: { slug: string; url: string; type: string }[] }).results;
    expect(results.length).toBeGreaterThan(0);
    expect(results.length).toBeLessThanOrEqual(3);
    expect(results[0]!.url).toBe(`${TEST_ORIGIN}/${results[0]!.type === 'article' ? 'blog' : 'solutions'}/${results[0]!.slug}`);

    const article = await client.callTool({ name: 'get_article', arguments: { slug: results[0]!.slug } });
    expect(article.structuredContent).toMatchObject({ slug: results[0]!.slug, url: results[0]!.url });
    expect((article.structuredContent as { markdown: string }).markdown.length).toBeGreaterThan(200);

    const products = await client.callTool({ name: 'list_products', arguments: {} });
    expect((products.structuredContent as { products: { slug: string }[] }).products.map((p) => p.slug)).toEqual([
      'llm-platform',
      'agent-studio',
      'aigc-suite',
      'llm-gateway',
    ]);

    const company = await client.callTool({ name: 'get_company_info', arguments: {} });
    const info = company.structuredContent as { name: string; resources: { url: string }[] };
    expect(info.name).toBe('Acme AI');
    for (const path of ['/llms.txt', '/docs/api', '/openapi.json', '/auth.md', '/blog'])
      expect(info.resources.map((r) => r.url)).toContain(`${TEST_ORIGIN}${path}`);

    // The one tool that stores: a page of the built site is taken, any other path is a tool error.
    const feedback = await client.callTool({
      name: 'submit_feedback',
      arguments: { page: `${results[0]!.url}/`, kind: 'outdated', text: "The example uses last year's SDK." },
    });
    expect(feedback.isError).toBeFalsy();
    expect(feedback.structuredContent).toMatchObject({ status: 'stored', page: new URL(results[0]!.url).pathname, kind: 'outdated' });
    const nowhere = await client.callTool({ name: 'submit_feedback', arguments: { page: '/wp-login.php', kind: 'helpful' } });
    expect(nowhere.isError).toBe(true);
    expect(JSON.stringify(nowhere.content)).toContain('page must be a page of');
  });

  it('A4 search uses the same engine and ranking as /api/search', async () => {
    const q = '私有化部署 LLM';
    const api = await (await fetch(new URL(`/api/search?q=${encodeURIComponent(q)}&limit=5`, mcpUrl))).json();
    const tool = await client.callTool({ name: 'search_articles', arguments: { query: q, limit: 5 } });
    expect((tool.structuredContent as { results: unknown[] }).results).toEqual(api);
  });

  it('A4 errors: unknown slug and bad arguments are tool errors; an unknown tool is McpError -32602', async () => {
    const missing = await client.callTool({ name: 'get_article', arguments: { slug: 'does-not-exist' } });
    expect(missing.isError).toBe(true);
    expect(JSON.stringify(missing.content)).toContain('search_articles');
    const bad = await client.callTool({ name: 'search_articles', arguments: { query: 5 } });
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bad.content)).toContain('Invalid arguments');
    const unknown = await client.callTool({ name: 'nope', arguments: {} }).catch((error: unknown) => error);
    expect(unknown).toBeInstanceOf(McpError);
    expect((unknown as McpError).code).toBe(-32602);
  });

  it('export_article_index without a token: the SDK (no auth provider) throws on the 401, naming the scope', async () => {
    const error = await client.callTool({ name: 'export_article_index', arguments: { limit: 5 } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StreamableHTTPError);
    expect((error as StreamableHTTPError).code).toBe(401);
    expect((error as Error).message).toContain('content:export');
  });
});

describe('B. modern era: v2 SDK Client', () => {
  it('B1 auto negotiation: server/discover, then tools with 2026-07-28 headers; every public tool works', async () => {
    const log: Exchange[] = [];
    const client = new ClientV2({ name: 'v2-test', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new TransportV2(mcpUrl, { fetch: recordingFetch(log) }));
    try {
      expect(log[0]!.body?.method).toBe('server/discover');
      expect(log.some((e) => e.body?.method === 'initialize')).toBe(false);
      expect(client.getServerVersion()).toMatchObject({ name: SERVER_NAME });

      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(TOOL_NAMES);
      const search = await client.callTool({ name: 'search_articles', arguments: { query: 'RAG', limit: 2 } });
      expect((search.structuredContent as { results: unknown[] }).results).toHaveLength(2);
      const article = await client.callTool({ name: 'get_article', arguments: { slug: 'mcp-oauth-agent-integrations' } });
      expect(article.structuredContent).toMatchObject({ slug: 'mcp-oauth-agent-integrations', type: 'article' });
      const products = await client.callTool({ name: 'list_products', arguments: {} });
      expect((products.structuredContent as { products: unknown[] }).products).toHaveLength(4);
      const company = await client.callTool({ name: 'get_company_info', arguments: {} });
      expect(company.structuredContent).toMatchObject({ name: 'Acme AI' });
      const missing = await client.callTool({ name: 'get_article', arguments: { slug: 'does-not-exist' } });
      expect(missing.isError).toBe(true);

      const call = log.find((e) => e.body?.method === 'tools/call')!;
      expect(call.status).toBe(200);
      expect(call.headers.get('mcp-protocol-version')).toBe('2026-07-28');
      expect(call.headers.get('mcp-method')).toBe('tools/call');
      expect(call.headers.get('mcp-name')).toBe('search_articles');
      expect(log.every((e) => !e.responseHeaders.has('mcp-session-id'))).toBe(true);

      const denied = await client.callTool({ name: 'export_article_index', arguments: {} }).catch((e: unknown) => e);
      expect(denied).toBeInstanceOf(SdkHttpError);
      expect((denied as Error).message).toContain('content:export');
    } finally {
      await client.close();
    }
  });

  it('pinned to 2026-07-28: lists and calls public tools', async () => {
    const client = new ClientV2({ name: 'v2-pin', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new TransportV2(mcpUrl));
    try {
      expect((await client.listTools()).tools).toHaveLength(6);
      const result = await client.callTool({ name: 'list_products', arguments: {} });
      expect(result.isError).toBeFalsy();
    } finally {
      await client.close();
    }
  });
});

const ARTICLE_SLUG = 'mcp-oauth-agent-integrations';
const ARTICLE_URI = `${TEST_ORIGIN}/blog/${ARTICLE_SLUG}.md`;
const ARTICLE_TEMPLATE = `${TEST_ORIGIN}/blog/{slug}.md`;

/** What both SDK generations expose for resources and completion. */
interface ResourceClient {
  listResources(): Promise<{ resources: { uri: string; mimeType?: string }[]; nextCursor?: string }>;
  listResourceTemplates(): Promise<{ resourceTemplates: { uriTemplate: string }[] }>;
  readResource(params: { uri: string }): Promise<{ contents: { uri: string; mimeType?: string; text?: string }[] }>;
  complete(params: {
    ref: { type: 'ref/resource'; uri: string };
    argument: { name: string; value: string };
  }): Promise<{ completion: { values: string[] } }>;
}

/** Lists, reads a listed article and its template form, and completes a slug; the twin is the served .md. */
async function exerciseResources(client: ResourceClient): Promise<void> {
  const { resources } = await client.listResources();
  expect(resources.map((r) => r.uri)).toContain(ARTICLE_URI);
  expect(resources.every((r) => r.mimeType === 'text/markdown')).toBe(true);
  const { resourceTemplates } = await client.listResourceTemplates();
  expect(resourceTemplates.map((t) => t.uriTemplate)).toContain(ARTICLE_TEMPLATE);
  const { completion } = await client.complete({
    ref: { type: 'ref/resource', uri: ARTICLE_TEMPLATE },
    argument: { name: 'slug', value: 'mcp-oauth' },
  });
  expect(completion.values).toContain(ARTICLE_SLUG);
  const read = await client.readResource({ uri: ARTICLE_TEMPLATE.replace('{slug}', completion.values[0]!) });
  expect(read.contents).toHaveLength(1);
  expect(read.contents[0]).toMatchObject({ mimeType: 'text/markdown' });
  const twin = await (await fetch(new URL(`/blog/${completion.values[0]}.md`, mcpUrl))).text();
  // The served twin less its YAML front matter, whose fields the resource's listing carries.
  expect(read.contents[0]!.text).toBe(withoutFrontMatter(twin));
}

describe('resources and completion with both SDK generations', () => {
  it('v1 Client, handshake era (2025-11-25)', async () => {
    const client = new Client({ name: 'v1-resources', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(mcpUrl));
    try {
      await exerciseResources(client);
      const missing = await client.readResource({ uri: `${TEST_ORIGIN}/blog/does-not-exist.md` }).catch((e: unknown) => e);
      expect(missing).toBeInstanceOf(McpError);
      expect((missing as McpError).code).toBe(-32002);
    } finally {
      await client.close();
    }
  });

  it('v2 Client, handshake era (its default negotiation)', async () => {
    const log: Exchange[] = [];
    const client = new ClientV2({ name: 'v2-resources-legacy', version: '1.0.0' });
    await client.connect(new TransportV2(mcpUrl, { fetch: recordingFetch(log) }));
    try {
      expect(log[0]!.body?.method).toBe('initialize');
      await exerciseResources(client as unknown as ResourceClient);
    } finally {
      await client.close();
    }
  });

  it('v2 Client, 2026-07-28 (auto negotiation): Mcp-Name carries the URI; results carry cache hints', async () => {
    const log: Exchange[] = [];
    const client = new ClientV2({ name: 'v2-resources-modern', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new TransportV2(mcpUrl, { fetch: recordingFetch(log) }));
    try {
      expect(log[0]!.body?.method).toBe('server/discover');
      await exerciseResources(client as unknown as ResourceClient);
      const read = log.find((e) => e.body?.method === 'resources/read')!;
      expect(read.status).toBe(200);
      expect(read.headers.get('mcp-name')).toBe(read.body?.params?.uri);
      const direct = await client.readResource({ uri: ARTICLE_URI });
      expect(direct).toMatchObject({ ttlMs: expect.any(Number), cacheScope: 'public' });
    } finally {
      await client.close();
    }
  });
});

describe('raw HTTP: transport rows (A5)', () => {
  it.each(['GET', 'DELETE'])('%s /mcp -> 405 Allow: POST', async (method) => {
    const res = await fetch(mcpUrl, { method, headers: { accept: 'text/event-stream' } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });

  it.each([
    ['notifications/initialized -> 202, empty', { jsonrpc: '2.0', method: 'notifications/initialized' }, {}, 202, null],
    ['malformed JSON -> 400 -32700 id null', '{bad', {}, 400, -32700],
    ['batch -> 400 -32600', [{ jsonrpc: '2.0', id: 1, method: 'ping' }], {}, 400, -32600],
    [
      'MCP-Protocol-Version 1999-01-01 -> 400',
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { 'mcp-protocol-version': '1999-01-01' },
      400,
      -32600,
    ],
    ['text/plain -> 415', { jsonrpc: '2.0', id: 1, method: 'ping' }, { 'content-type': 'text/plain' }, 415, -32600],
    ['Accept text/html -> 406', { jsonrpc: '2.0', id: 1, method: 'ping' }, { accept: 'text/html' }, 406, -32600],
    ['foreign Origin -> 403', { jsonrpc: '2.0', id: 1, method: 'ping' }, { origin: 'https://evil.example' }, 403, -32600],
    [
      'DNS rebinding (Host + Origin evil) -> 403',
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { host: 'evil.example', origin: 'http://evil.example' },
      403,
      -32600,
    ],
  ])('%s', async (_name, body, headers, status, code) => {
    const res = await post(body, headers);
    expect(res.status).toBe(status);
    const text = await res.text();
    if (code === null) return expect(text).toBe('');
    expect(JSON.parse(text).error.code).toBe(code);
  });

  it('ping -> {}; the site origin is allowed; a 2 MiB body -> 413', async () => {
    expect(await (await post({ jsonrpc: '2.0', id: 'p', method: 'ping' }, { origin: TEST_ORIGIN })).json()).toEqual({
      jsonrpc: '2.0',
      id: 'p',
      result: {},
    });
    const big = await post({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(2 * 1024 * 1024) } });
    expect(big.status).toBe(413);
  });

  it('OPTIONS preflight from the site origin -> 204 with CORS', async () => {
    const res = await fetch(mcpUrl, {
      method: 'OPTIONS',
      headers: {
        origin: TEST_ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, mcp-protocol-version',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(TEST_ORIGIN);
  });

  it('export_article_index without a token -> 401, challenge, tool-error body with the id', async () => {
    const res = await post({
      jsonrpc: '2.0',
      id: 42,
      method: 'tools/call',
      params: { name: 'export_article_index', arguments: { limit: 5 } },
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${PRM_URL}", scope="content:export"`);
    const body = await res.json();
    expect(body).toMatchObject({
      jsonrpc: '2.0',
      id: 42,
      result: { isError: true, structuredContent: { required_scope: 'content:export' } },
    });
    expect(body.result.content[0].text).toContain('scope content:export');
  });
});

describe('raw HTTP: modern headers (B2–B5)', () => {
  const modern = (method: string, params: Record<string, unknown> = {}, headers: Record<string, string> = {}, id: number | string = 1) =>
    post(
      { jsonrpc: '2.0', id, method, params: { ...params, _meta: { ...MODERN_META, ...(params._meta as object) } } },
      {
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': method,
        ...(typeof params.name === 'string' ? { 'mcp-name': params.name } : {}),
        ...headers,
      },
    );

  it('B2 server/discover and B3 tools/list carry resultType, cache hints and serverInfo', async () => {
    const discover = (await (await modern('server/discover')).json()).result;
    expect(discover.supportedVersions).toEqual(expect.arrayContaining(['2026-07-28', '2025-11-25']));
    expect(discover.resultType).toBe('complete');
    expect(discover._meta['io.modelcontextprotocol/serverInfo'].name).toBe(SERVER_NAME);
    const list = (await (await modern('tools/list')).json()).result;
    expect(list.ttlMs).toBeGreaterThanOrEqual(0);
    expect(['public', 'private']).toContain(list.cacheScope);
    expect(list.resultType).toBe('complete');
  });

  it.each([
    ['missing clientCapabilities', 'tools/list', { _meta: { 'io.modelcontextprotocol/clientCapabilities': undefined } }, {}, 400, -32602],
    [
      'header version differs from _meta',
      'tools/list',
      { _meta: { 'io.modelcontextprotocol/protocolVersion': '2025-06-18' } },
      {},
      400,
      -32020,
    ],
    [
      'an unsupported header version, said first',
      'tools/list',
      {},
      { 'mcp-protocol-version': '2099-01-01', 'mcp-method': '' },
      400,
      -32022,
    ],
    ['Mcp-Name differs from params.name', 'tools/call', { name: 'list_products' }, { 'mcp-name': 'get_article' }, 400, -32020],
    [
      'unsupported 2030-01-01',
      'tools/list',
      { _meta: { 'io.modelcontextprotocol/protocolVersion': '2030-01-01' } },
      { 'mcp-protocol-version': '2030-01-01' },
      400,
      -32022,
    ],
    ['initialize removed', 'initialize', { protocolVersion: '2026-07-28' }, {}, 404, -32601],
    ['ping removed', 'ping', {}, {}, 404, -32601],
    ['unknown/method', 'unknown/method', {}, {}, 404, -32601],
  ])('B4/B5 %s: status and code, id echoed', async (_name, method, params, headers, status, code) => {
    const res = await modern(method, params, headers, 'b-1');
    expect(res.status).toBe(status);
    const body = await res.json();
    expect(body).toMatchObject({ id: 'b-1', error: { code } });
    if (code === -32022) expect(body.error.data.supported).toContain('2026-07-28');
  });
});

describe('article bodies: read from the deploy store, not carried by the function', () => {
  const slug = 'mcp-oauth-agent-integrations';
  /** The reply of a raw call: a resources/read or tools/call result, or an error (the fields these tests read). */
  interface Reply {
    id: number;
    result?: { contents?: { text: string }[]; structuredContent?: { markdown: string } };
    error?: { code: number };
  }
  const call = async (method: string, params: object): Promise<{ status: number; json: Reply }> => {
    const res = await post({ jsonrpc: '2.0', id: 7, method, params }, { 'mcp-protocol-version': '2025-11-25' });
    return { status: res.status, json: await res.json() };
  };

  it('get_article and resources/read answer with what the deploy store holds; a body missing from it is a 500 -32603', async () => {
    // The local deploy store (scripts/runtime/deploy-blobs.ts) in this file's Blobs folder.
    const stored = path.join(runtime.blobsDir, 'entries', '0', 'deploy:0', 'bodies', slug);
    const original = readFileSync(stored, 'utf8');
    const uri = `${TEST_ORIGIN}/blog/${slug}.md`;
    const twin = (await call('resources/read', { uri })).json.result?.contents?.[0]?.text;
    expect(twin).toBe(withoutFrontMatter(readFileSync(path.join('dist', 'blog', `${slug}.md`), 'utf8')));
    try {
      writeFileSync(stored, 'A BODY ONLY THE DEPLOY STORE HAS');
      expect((await call('tools/call', { name: 'get_article', arguments: { slug } })).json.result?.structuredContent?.markdown).toBe(
        'A BODY ONLY THE DEPLOY STORE HAS',
      );
      expect((await call('resources/read', { uri })).json.result?.contents?.[0]?.text).toContain('A BODY ONLY THE DEPLOY STORE HAS');
      rmSync(stored);
      const missing = await call('tools/call', { name: 'get_article', arguments: { slug } });
      expect(missing).toMatchObject({ status: 500, json: { id: 7, error: { code: -32603 } } });
    } finally {
      writeFileSync(stored, original);
    }
    expect((await call('tools/call', { name: 'get_article', arguments: { slug } })).json.result?.structuredContent?.markdown).toBe(
      original,
    );
  });
});
