/**
 * Behaviour checks: what they send and what they leave behind. MCP in each era the server card claims, an
 * OAuth client registered, used and revoked only when self-service registration is advertised, an A2A
 * message; secrets never printed whole.
 */
import { describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from './http.ts';
import { BEHAVIOUR } from './rubrics/behaviour.ts';
import { MINTLIFY } from './rubrics/mintlify.ts';
import { scan } from './scan.ts';
import { doc, FIXTURE_ORIGIN, goodRoutes, json, memoryFetch, type Routes, stateOf } from './test/good-site.ts';
import { SEARCH_TOOL } from './test/fixture-services.ts';
import type { CheckResult } from './types.ts';

const O = FIXTURE_ORIGIN;

async function behaviour(routes: Routes, log: Request[] = [], enabled = true): Promise<Record<string, CheckResult>> {
  const report = await scan({ baseUrl: O, fetch: memoryFetch(routes, log), behaviour: enabled }, [BEHAVIOUR]);
  return Object.fromEntries(report.rubrics[0]!.checks.map((c) => [c.id, c]));
}

async function editJson(routes: Routes, path: string, edit: (doc: Record<string, unknown>) => void): Promise<void> {
  const res = await routes.get(path)!(new Request(`${O}${path}`));
  const body = (await res.json()) as Record<string, unknown>;
  edit(body);
  routes.set(path, json(body, Object.fromEntries(res.headers)));
}

/** Wraps /mcp so `change` may rewrite a JSON-RPC answer. */
function rewriteMcp(
  routes: Routes,
  change: (method: string, body: Record<string, unknown>, req: Request) => Record<string, unknown> | Response,
): void {
  const mcp = routes.get('/mcp')!;
  routes.set('/mcp', async (req) => {
    const sent = (await req.clone().json()) as { method: string };
    const res = await mcp(req);
    if (!res.headers.get('content-type')?.includes('json')) return res;
    const changed = change(sent.method, (await res.json()) as Record<string, unknown>, req);
    return changed instanceof Response ? changed : new Response(JSON.stringify(changed), { status: res.status, headers: res.headers });
  });
}

describe('without --behaviour', () => {
  it('sends nothing but GETs and reports each behaviour as not evaluated', async () => {
    const log: Request[] = [];
    const checks = await behaviour(goodRoutes(O), log, false);
    expect(log.every((r) => r.method === 'GET')).toBe(true);
    for (const id of ['mcp-session', 'mcp-tool-call', 'oauth-registration', 'oauth-token', 'oauth-cleanup', 'a2a-send-message'])
      expect(checks[id]!.reason, id).toMatch(/^not evaluated: needs --behaviour/);
    expect(checks['markdown-twins']!.status).toBe('pass');
  });
});

describe('with --behaviour on a site that offers everything', () => {
  it('opens an MCP session and calls the read-only tool in both eras the card claims', async () => {
    const routes = goodRoutes(O);
    const checks = await behaviour(routes);
    expect(checks['mcp-session']).toMatchObject({
      status: 'pass',
      reason: '/mcp answers 2025-11-25 (example.fixture/site, 1 tools) and 2026-07-28 (example.fixture/site, 1 tools)',
    });
    expect(checks['mcp-tool-call']).toMatchObject({
      status: 'pass',
      reason: 'called search_docs (2025-11-25), search_docs (2026-07-28): content returned',
    });
    expect(stateOf(routes).mcpCalls).toEqual([
      'legacy initialize',
      'legacy notifications/initialized',
      'legacy tools/list',
      '2026-07-28 server/discover',
      '2026-07-28 tools/list',
      'legacy tools/call',
      '2026-07-28 tools/call',
    ]);
    expect(checks['mcp-tool-call']!.evidence).toContain(
      '[2026-07-28] POST tools/call search_docs {"q":"install"} → 200 application/json, result {resultType, content}',
    );
  });

  it('registers a client, gets a token, revokes it, and prints no secret whole', async () => {
    const routes = goodRoutes(O);
    const checks = await behaviour(routes);
    const state = stateOf(routes);
    expect(checks['oauth-registration']).toMatchObject({
      status: 'pass',
      reason: 'registered client client-1 (registration_endpoint https://fixture.example/oauth/register (RFC 7591))',
    });
    expect(checks['oauth-token']).toMatchObject({ status: 'pass', reason: 'client_credentials → a bearer token (expires_in 3600)' });
    expect(checks['oauth-cleanup']).toMatchObject({
      status: 'pass',
      reason: 'token revoked → 200; no RFC 7592 client management: the client registration stays (it holds no token)',
    });
    expect([state.clients.size, state.liveTokens.size, state.revokedTokens.size]).toEqual([1, 0, 1]);
    const evidence = checks['oauth-cleanup']!.evidence!.join('\n');
    for (const secret of [...state.clients.values(), ...state.revokedTokens]) expect(evidence).not.toContain(secret);
    expect(evidence).toMatch(/access_token at-.…\(39 chars\), token_type Bearer/);
  });

  it('sends an A2A 1.0 SendMessage with a skill example and reads the Message back', async () => {
    const routes = goodRoutes(O);
    const checks = await behaviour(routes);
    expect(checks['a2a-send-message']).toMatchObject({ status: 'pass', reason: 'SendMessage answered with a Message' });
    expect(stateOf(routes).a2aMessages).toEqual([
      { messageId: expect.any(String), role: 'ROLE_USER', parts: [{ text: 'find the API reference' }] },
    ]);
  });

  it('exercises only the eras the server card claims', async () => {
    const routes = goodRoutes(O);
    await editJson(routes, '/.well-known/mcp/server-card.json', (card) => {
      (card.remotes as { supportedProtocolVersions: string[] }[])[0]!.supportedProtocolVersions = ['2025-06-18'];
    });
    const checks = await behaviour(routes);
    expect(checks['mcp-session']!.reason).toBe('/mcp answers 2025-06-18 (example.fixture/site, 1 tools)');
    expect(stateOf(routes).mcpCalls.some((c) => c.startsWith('2026-07-28'))).toBe(false);
  });
});

describe('nothing is written to a site that does not advertise self-service registration', () => {
  it('no registration endpoint and no anonymous agent_auth: no request reaches the OAuth endpoints', async () => {
    const routes = goodRoutes(O);
    await editJson(routes, '/.well-known/oauth-authorization-server', (as) => {
      delete as.registration_endpoint;
      delete as.agent_auth;
      as.client_id_metadata_document_supported = true;
    });
    const log: Request[] = [];
    const checks = await behaviour(routes, log);
    expect(log.filter((r) => new URL(r.url).pathname.startsWith('/oauth/'))).toEqual([]);
    expect(stateOf(routes).clients.size).toBe(0);
    for (const id of ['oauth-registration', 'oauth-token', 'oauth-cleanup'])
      expect(checks[id]).toMatchObject({
        status: 'neutral',
        reason: expect.stringMatching(/^the site advertises no self-service registration \(CIMD is advertised, .*\): nothing was sent$/),
      });
  });
});

describe('failures name the step and show the exchange', () => {
  it('a modern era that is claimed but not served', async () => {
    const routes = goodRoutes(O);
    rewriteMcp(routes, (method, body) =>
      method === 'server/discover' ? { jsonrpc: '2.0', id: body.id, error: { code: -32601, message: 'Method not found' } } : body,
    );
    const checks = await behaviour(routes);
    expect(checks['mcp-session']).toMatchObject({ status: 'fail', reason: '2026-07-28: server/discover: Method not found' });
    expect(checks['mcp-session']!.evidence).toContain(
      'POST https://fixture.example/mcp server/discover (MCP-Protocol-Version 2026-07-28) → 200 application/json, JSON-RPC error -32601 Method not found',
    );
  });

  it('a read-only tool that answers isError', async () => {
    const routes = goodRoutes(O);
    rewriteMcp(routes, (method, body) =>
      method === 'tools/call' ? { ...body, result: { content: [{ type: 'text', text: 'broken' }], isError: true } } : body,
    );
    expect((await behaviour(routes))['mcp-tool-call']).toMatchObject({
      status: 'fail',
      reason: '2025-11-25 tools/call search_docs answered isError: true',
    });
  });

  it('a server with no read-only tool is not called at all', async () => {
    const routes = goodRoutes(O);
    rewriteMcp(routes, (method, body) =>
      method === 'tools/list'
        ? { ...body, result: { ...(body.result as object), tools: [{ ...SEARCH_TOOL, annotations: { readOnlyHint: false } }] } }
        : body,
    );
    const checks = await behaviour(routes);
    expect(checks['mcp-tool-call']).toMatchObject({
      status: 'neutral',
      reason: expect.stringMatching(/^no tool is annotated readOnlyHint: true/),
    });
    expect(stateOf(routes).mcpCalls.filter((c) => c.endsWith('tools/call'))).toEqual([]);
  });

  it('a token endpoint that refuses the new client, and a server without revocation', async () => {
    const routes = goodRoutes(O);
    routes.set('/oauth/token', doc('{"error":"invalid_client"}', { 'content-type': 'application/json' }, 401));
    expect((await behaviour(routes))['oauth-token']).toMatchObject({ status: 'fail', reason: 'client_credentials → 401' });
    const noRevoke = goodRoutes(O);
    await editJson(noRevoke, '/.well-known/oauth-authorization-server', (as) => void delete as.revocation_endpoint);
    expect((await behaviour(noRevoke))['oauth-cleanup']).toMatchObject({
      status: 'fail',
      reason: expect.stringMatching(/^no revocation_endpoint: the token cannot be revoked/),
    });
  });

  it('a registration that answers 200 instead of 201', async () => {
    const routes = goodRoutes(O);
    const register = routes.get('/oauth/register')!;
    routes.set('/oauth/register', async (req) => {
      const res = await register(req);
      return new Response(res.body, { status: 200, headers: res.headers });
    });
    expect((await behaviour(routes))['oauth-registration']).toMatchObject({
      status: 'fail',
      reason: expect.stringMatching(/answered 200 \(RFC 7591 §3\.2\.1: 201 Created\)$/),
    });
  });

  it('an A2A endpoint that refuses the message', async () => {
    const routes = goodRoutes(O);
    routes.set(
      '/a2a',
      () =>
        new Response(JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32005, message: 'Content type not supported' } }), {
          headers: { 'content-type': 'application/json' },
        }),
    );
    expect((await behaviour(routes))['a2a-send-message']).toMatchObject({
      status: 'fail',
      reason: 'SendMessage: Content type not supported',
    });
  });
});

describe('reasons that name what actually went wrong (recheck-30 finding 9)', () => {
  const huge = (): string => JSON.stringify({ pad: 'x'.repeat(MAX_BODY_BYTES + 1) });

  it('a tools/list answer over the body cap: mcp-tool-call names it, not "the session did not open"', async () => {
    const routes = goodRoutes(O);
    rewriteMcp(routes, (method, body) =>
      method === 'tools/list' ? new Response(huge(), { headers: { 'content-type': 'application/json' } }) : body,
    );
    const checks = await behaviour(routes);
    expect(checks['mcp-tool-call']).toMatchObject({
      status: 'neutral',
      reason: expect.stringMatching(/stopped at tools\/list: body larger than \d+ bytes/),
    });
    expect(checks['mcp-tool-call']!.reason).not.toContain('did not open');
  });

  it('an MCP endpoint that never answers: the evidence says "no answer within" once', async () => {
    const routes = goodRoutes(O);
    routes.set('/mcp', (req) => new Promise((_resolve, reject) => req.signal.addEventListener('abort', () => reject(req.signal.reason))));
    const hanging: typeof fetch = (input, init) =>
      new URL(new Request(input).url).pathname === '/mcp'
        ? new Promise((_resolve, reject) => init!.signal!.addEventListener('abort', () => reject(init!.signal!.reason)))
        : memoryFetch(routes)(input, init);
    const report = await scan({ baseUrl: O, fetch: hanging, behaviour: true, requestTimeoutMs: 50 }, [BEHAVIOUR]);
    const session = report.rubrics[0]!.checks.find((c) => c.id === 'mcp-session')!;
    expect(session.evidence!.join('\n')).toMatch(/→ no answer within 50 ms$/m);
    expect(session.evidence!.join('\n')).not.toMatch(/no answer within 50 ms, no answer within/);
  });

  it('a skills index that cannot be read: skill-md says so, not "lists no skill with a url"', async () => {
    const routes = goodRoutes(O);
    routes.set('/.well-known/agent-skills/index.json', doc(huge(), { 'content-type': 'application/json' }));
    const report = await scan({ baseUrl: O, fetch: memoryFetch(routes) }, [MINTLIFY]);
    const skill = report.rubrics[0]!.checks.find((c) => c.id === 'skill-md')!;
    expect(skill).toMatchObject({
      status: 'fail',
      reason: expect.stringMatching(/^the skills index could not be read \(GET .*body larger than/),
    });
  });
});

describe('a site built for another origin than the one scanned (stranger s10b, finding 8)', () => {
  /** The fixture site built for `BUILT` and served at the scanned origin; nothing answers at `BUILT`. */
  const BUILT = 'http://localhost:8888';
  const servedElsewhere = (routes: Routes): typeof fetch => {
    const serve = memoryFetch(routes);
    return (input, init) =>
      new URL(new Request(input, init).url).origin === O ? serve(input, init) : Promise.reject(new TypeError('fetch failed'));
  };

  it('each behaviour names the other origin instead of asking to publish what is published, and the summary names what did not run', async () => {
    const report = await scan({ baseUrl: O, fetch: servedElsewhere(goodRoutes(BUILT)), behaviour: true }, [BEHAVIOUR]);
    const rubric = report.rubrics[0]!;
    const checks = Object.fromEntries(rubric.checks.map((c) => [c.id, c]));
    for (const id of ['mcp-session', 'mcp-tool-call', 'oauth-registration', 'oauth-token', 'oauth-cleanup', 'a2a-send-message']) {
      expect(checks[id], id).toMatchObject({ status: 'neutral', otherOrigin: BUILT });
      expect(checks[id]!.reason, id).toContain(`${BUILT}, not the scanned ${O}: was the site built for another origin?`);
      expect(checks[id]!.fix, id).not.toMatch(/^Publish/);
    }
    expect(checks['mcp-session']!.reason).toMatch(new RegExp(`^the MCP server card names ${BUILT}/mcp, on `));
    expect(checks['mcp-session']!.fix).toBe(
      `Name this origin's endpoint in the server card (${O}/mcp): build the site for the origin it is served at.`,
    );
    expect(checks['markdown-twins']!.status).toBe('pass');
    // Never "all work" when six of seven behaviours did not run.
    expect(rubric.summary.headline).toBe(
      `1 of 7 behaviour(s) exercised, it works; 6 not exercised: mcp-session, mcp-tool-call, oauth-registration, oauth-token, oauth-cleanup, a2a-send-message (the site names another origin, ${BUILT}: was it built for the scanned one?)`,
    );
    expect(rubric.summary).toMatchObject({ failed: [], otherOrigins: [BUILT] });
  });

  it('a site without a server card is still told to publish one', async () => {
    const routes = goodRoutes(O);
    routes.delete('/.well-known/mcp/server-card.json');
    routes.delete('/.well-known/mcp.json');
    const checks = await behaviour(routes);
    expect(checks['mcp-session']).toMatchObject({ status: 'neutral', reason: 'no MCP server card: nothing to exercise' });
    expect(checks['mcp-session']!.fix).toMatch(/^Publish an MCP server card/);
  });

  it('"all work" only when every behaviour ran', async () => {
    const report = await scan({ baseUrl: O, fetch: memoryFetch(goodRoutes(O)), behaviour: true }, [BEHAVIOUR]);
    expect(report.rubrics[0]!.summary.headline).toBe('7 behaviour(s) exercised, all work');
    const readOnly = await scan({ baseUrl: O, fetch: memoryFetch(goodRoutes(O)), behaviour: false }, [BEHAVIOUR]);
    expect(readOnly.rubrics[0]!.summary.headline).toMatch(/^1 of 7 behaviour\(s\) exercised, it works; 6 not exercised: mcp-session, /);
  });
});
