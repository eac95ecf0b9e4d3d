/**
 * The fixture site's protocol endpoints, in memory: an MCP server speaking both eras, an OAuth server with
 * open registration, client credentials and revocation, and an A2A agent. They keep what they were sent
 * (`FixtureState`), so tests can assert what the checker wrote and that it cleaned up.
 */
import type { Handler } from './good-site.ts';

/** What the fixture's endpoints saw and hold. */
export interface FixtureState {
  /** Every JSON-RPC method called on /mcp, with the revision it was sent in. */
  mcpCalls: string[];
  /** Registered clients: id → secret. */
  clients: Map<string, string>;
  /** Issued access tokens that are still live. */
  liveTokens: Set<string>;
  revokedTokens: Set<string>;
  a2aMessages: unknown[];
}

export const newFixtureState = (): FixtureState => ({
  mcpCalls: [],
  clients: new Map(),
  liveTokens: new Set(),
  revokedTokens: new Set(),
  a2aMessages: [],
});

export const MODERN = '2026-07-28';
export const LEGACY_VERSIONS = ['2025-06-18', '2025-11-25'];
export const SERVER_INFO = { name: 'example.fixture/site', version: '1.0.0' };

/** The fixture's one tool: read-only, with a required query the checker fills from `examples`. */
export const SEARCH_TOOL = {
  name: 'search_docs',
  description: 'Full-text search over the fixture docs.',
  inputSchema: { type: 'object', properties: { q: { type: 'string', examples: ['install'] } }, required: ['q'] },
  annotations: { readOnlyHint: true },
};

const rpc = (id: unknown, result: unknown, status = 200): Response =>
  new Response(JSON.stringify({ jsonrpc: '2.0', id, result }), { status, headers: { 'content-type': 'application/json' } });
const rpcError = (id: unknown, code: number, message: string, status = 200): Response =>
  new Response(JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } }), {
    status,
    headers: { 'content-type': 'application/json' },
  });

/** `/mcp`: stateless MCP over Streamable HTTP in the handshake era and in 2026-07-28. */
export function mcpRoute(state: FixtureState): Handler {
  return async (req) => {
    if (req.method !== 'POST') return new Response(null, { status: 405, headers: { allow: 'POST' } });
    const body = (await req.json().catch(() => null)) as { id?: unknown; method?: string; params?: Record<string, unknown> } | null;
    if (!body?.method) return rpcError(null, -32700, 'Parse error', 400);
    const meta = body.params?._meta as Record<string, unknown> | undefined;
    const version = req.headers.get('mcp-protocol-version') ?? (meta?.['io.modelcontextprotocol/protocolVersion'] as string | undefined);
    const modern = version === MODERN;
    state.mcpCalls.push(`${modern ? MODERN : 'legacy'} ${body.method}`);
    if (modern) {
      if (req.headers.get('mcp-method') !== body.method) return rpcError(body.id, -32020, 'Mcp-Method header missing or mismatched', 400);
      if (!meta?.['io.modelcontextprotocol/clientCapabilities']) return rpcError(body.id, -32602, 'missing _meta', 400);
      if (body.method === 'server/discover')
        return rpc(body.id, {
          resultType: 'complete',
          supportedVersions: [...LEGACY_VERSIONS, MODERN],
          capabilities: { tools: {} },
          _meta: { 'io.modelcontextprotocol/serverInfo': SERVER_INFO },
        });
      if (body.method === 'tools/list')
        return rpc(body.id, { resultType: 'complete', tools: [SEARCH_TOOL], ttlMs: 0, cacheScope: 'public' });
      if (body.method === 'tools/call') {
        if (req.headers.get('mcp-name') !== (body.params?.name as string))
          return rpcError(body.id, -32020, 'Mcp-Name header missing or mismatched', 400);
        return rpc(body.id, { resultType: 'complete', content: [{ type: 'text', text: '1 result: Getting started' }] });
      }
      return rpcError(body.id, -32601, 'Method not found', 404);
    }
    if (body.method === 'initialize') {
      const requested = body.params?.protocolVersion as string;
      return rpc(body.id, {
        protocolVersion: LEGACY_VERSIONS.includes(requested) ? requested : LEGACY_VERSIONS.at(-1),
        capabilities: { tools: {} },
        serverInfo: SERVER_INFO,
      });
    }
    if (body.method === 'notifications/initialized') return new Response(null, { status: 202 });
    if (body.method === 'tools/list') return rpc(body.id, { tools: [SEARCH_TOOL] });
    if (body.method === 'tools/call') {
      if (body.params?.name !== SEARCH_TOOL.name) return rpcError(body.id, -32602, 'Unknown tool');
      if (typeof (body.params.arguments as { q?: unknown } | undefined)?.q !== 'string')
        return rpc(body.id, { content: [{ type: 'text', text: 'q is required' }], isError: true });
      return rpc(body.id, { content: [{ type: 'text', text: '1 result: Getting started' }] });
    }
    return rpcError(body.id, -32601, 'Method not found');
  };
}

const oauthError = (error: string, status = 400): Response =>
  new Response(JSON.stringify({ error }), { status, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } });

/** The client a request authenticates as (Basic or body credentials), or null. */
function clientOf(req: Request, form: URLSearchParams, state: FixtureState): string | null {
  const basic = /^Basic (.+)$/.exec(req.headers.get('authorization') ?? '')?.[1];
  const [id, secret] = basic ? atob(basic).split(':').map(decodeURIComponent) : [form.get('client_id'), form.get('client_secret')];
  return id && secret && state.clients.get(id) === secret ? id : null;
}

/** `/oauth/register`, `/oauth/token`, `/oauth/revoke`: RFC 7591 open registration, client credentials, RFC 7009. */
export function oauthRoutes(state: FixtureState): Record<string, Handler> {
  let counter = 0;
  return {
    '/oauth/register': async (req) => {
      if (req.method !== 'POST') return oauthError('invalid_request', 405);
      const meta = (await req.json().catch(() => null)) as { grant_types?: string[]; token_endpoint_auth_method?: string } | null;
      if (!meta?.grant_types?.every((g) => ['client_credentials', 'authorization_code'].includes(g)))
        return oauthError('invalid_client_metadata');
      const id = `client-${++counter}`;
      const secret = `secret-${counter}-${crypto.randomUUID()}`;
      state.clients.set(id, secret);
      return new Response(
        JSON.stringify({ client_id: id, client_secret: secret, client_id_issued_at: 1, client_secret_expires_at: 0, ...meta }),
        { status: 201, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } },
      );
    },
    '/oauth/token': async (req) => {
      const form = new URLSearchParams(await req.text());
      if (form.get('grant_type') !== 'client_credentials') return oauthError('unsupported_grant_type');
      if (!clientOf(req, form, state)) return oauthError('invalid_client', 401);
      const token = `at-${crypto.randomUUID()}`;
      state.liveTokens.add(token);
      return new Response(JSON.stringify({ access_token: token, token_type: 'Bearer', expires_in: 3600 }), {
        headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
      });
    },
    '/oauth/revoke': async (req) => {
      const form = new URLSearchParams(await req.text());
      if (!clientOf(req, form, state)) return oauthError('invalid_client', 401);
      const token = form.get('token') ?? '';
      if (state.liveTokens.delete(token)) state.revokedTokens.add(token);
      return new Response(null, { status: 200 });
    },
  };
}

/** `/a2a`: A2A 1.0 JSON-RPC `SendMessage`, answered with a Message. */
export function a2aRoute(state: FixtureState): Handler {
  return async (req) => {
    if (req.method !== 'POST') return new Response(null, { status: 405 });
    if (req.headers.get('a2a-version') !== '1.0') return rpcError(null, -32009, 'A2A-Version 1.0 required', 400);
    const body = (await req.json().catch(() => null)) as { id?: unknown; method?: string; params?: { message?: unknown } } | null;
    if (body?.method !== 'SendMessage') return rpcError(body?.id ?? null, -32601, 'Method not found');
    state.a2aMessages.push(body.params?.message);
    return rpc(body.id, {
      message: { messageId: 'reply-1', role: 'ROLE_AGENT', parts: [{ text: 'The fixture docs cover install and the API.' }] },
    });
  };
}
