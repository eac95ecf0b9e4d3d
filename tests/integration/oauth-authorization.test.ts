/**
 * The interactive half of the authorization server through the real runtime: authorization code
 * with PKCE through the consent page (oauth4webapi as the client, the page driven over HTTP like a
 * browser without JavaScript), the authorization endpoint's error rules, CSRF on the forms, code
 * redemption rules including 20 concurrent redemptions, the claim ceremony, and /auth.md.
 * Checklist numbers refer to docs/reference/mcp-oauth.md §6.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { decodeJwt } from 'jose';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerFormPage, authorizeThroughConsent, openFormPage, type Fetch } from '../support/consent.ts';
import { TEST_ORIGIN } from '../support/origin.ts';
import { useRuntime } from '../support/runtime.ts';

const site = useRuntime();
const ISSUER = new URL(TEST_ORIGIN);
const MCP = `${TEST_ORIGIN}/mcp`;
const REDIRECT = 'http://127.0.0.1:3000/cb';
let ip = 0;
const nextIp = (): string => `192.0.2.${++ip}`;
/** A browser-ish fetch from one address (rate limits are per IP). */
const web =
  (address = nextIp()): Fetch =>
  (input, init) => {
    const request = new Request(new URL(input, TEST_ORIGIN), init);
    request.headers.set('x-forwarded-for', address);
    return site.runtime.handle(request);
  };
/**
 * A browser-ish fetch from this machine (127.0.0.x, one network each): a loopback site fetches
 * metadata documents from loopback only for clients on its own machine, as these tests' documents are.
 */
let localIp = 0;
const localWeb = (): Fetch => web(`127.0.0.${++localIp % 250}`);
const options = () => ({ [oauth.customFetch]: web() as typeof fetch, [oauth.allowInsecureRequests]: true });
const localOptions = () => ({ [oauth.customFetch]: localWeb() as typeof fetch, [oauth.allowInsecureRequests]: true });

let as: oauth.AuthorizationServer;

async function registerClient(metadata: Record<string, unknown>): Promise<Record<string, string>> {
  const res = await web()('/oauth/register', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(metadata),
  });
  expect(res.status).toBe(201);
  return res.json();
}
const publicClient = () =>
  registerClient({
    client_name: 'Test <b>app</b>',
    grant_types: ['authorization_code'],
    redirect_uris: [REDIRECT],
    token_endpoint_auth_method: 'none',
  });

interface AuthRequest {
  url: string;
  verifier: string;
  state: string;
}
async function authorizationRequest(clientId: string, extra: Record<string, string | null> = {}): Promise<AuthRequest> {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL('/oauth/authorize', TEST_ORIGIN);
  const params: Record<string, string | null> = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    scope: 'content:export',
    ...extra,
  };
  for (const [name, value] of Object.entries(params)) if (value !== null) url.searchParams.set(name, value);
  return { url: url.href, verifier, state };
}

const tokenForm = (body: Record<string, string>, headers: Record<string, string> = {}) =>
  web()('/oauth/token', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(body).toString(),
  });

async function mcpExport(token: string): Promise<Response> {
  return site.fetchPath('/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'export_article_index', arguments: { limit: 1 } },
    }),
  });
}

/** A code for a fresh public client, approved on the consent page. */
async function approvedCode(extra: Record<string, string | null> = {}): Promise<{ clientId: string; code: string; verifier: string }> {
  const client = await publicClient();
  const request = await authorizationRequest(client.client_id!, extra);
  const location = await authorizeThroughConsent(web(), request.url);
  return { clientId: client.client_id!, code: location.searchParams.get('code')!, verifier: request.verifier };
}

beforeAll(async () => {
  as = await oauth.processDiscoveryResponse(ISSUER, await oauth.discoveryRequest(ISSUER, options()));
});

describe('authorization code + PKCE through the consent page (oauth4webapi)', () => {
  it('a public client gets a code (state, iss), redeems it once for an RFC 9068 token, and the export tool accepts it', async () => {
    const registered = await publicClient();
    const client: oauth.Client = { client_id: registered.client_id!, token_endpoint_auth_method: 'none' };
    const request = await authorizationRequest(client.client_id);
    const callback = await authorizeThroughConsent(web(), request.url);
    expect(`${callback.origin}${callback.pathname}`).toBe(REDIRECT);
    expect(callback.searchParams.getAll('iss')).toEqual([TEST_ORIGIN]);
    const params = oauth.validateAuthResponse(as, client, callback, request.state);
    const res = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, REDIRECT, request.verifier, {
      ...options(),
      additionalParameters: { resource: MCP },
    });
    expect(res.headers.get('cache-control')).toBe('no-store');
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, res);
    expect(tokens.token_type).toBe('bearer');
    expect(tokens.expires_in).toBe(3600);
    expect(tokens.scope).toBe('content:export');
    expect(tokens.refresh_token).toBeUndefined();
    const claims = decodeJwt(tokens.access_token);
    expect(claims).toMatchObject({ iss: TEST_ORIGIN, aud: MCP, client_id: client.client_id, scope: 'content:export' });
    expect(String(claims.sub)).toMatch(/^anon_/);
    await oauth.validateJwtAccessToken(
      as,
      new Request(MCP, { headers: { authorization: `Bearer ${tokens.access_token}` } }),
      MCP,
      options(),
    );
    expect((await mcpExport(tokens.access_token)).status).toBe(200);

    // §6.7: the same code again fails, and the token issued from it is revoked.
    const replay = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, REDIRECT, request.verifier, options());
    expect(replay.status).toBe(400);
    expect((await replay.json()).error).toBe('invalid_grant');
    expect((await mcpExport(tokens.access_token)).status).toBe(401);
  });

  it('a confidential client (client_secret_basic) uses the same flow with its secret', async () => {
    const registered = await registerClient({
      client_name: 'web app',
      grant_types: ['authorization_code', 'client_credentials'],
      redirect_uris: [REDIRECT],
      scope: 'articles:read content:export',
    });
    const client: oauth.Client = { client_id: registered.client_id! };
    const request = await authorizationRequest(client.client_id, { scope: 'articles:read' });
    const params = oauth.validateAuthResponse(as, client, await authorizeThroughConsent(web(), request.url), request.state);
    const res = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.ClientSecretBasic(registered.client_secret!),
      params,
      REDIRECT,
      request.verifier,
      options(),
    );
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, res);
    expect(tokens.scope).toBe('articles:read');
    expect((await mcpExport(tokens.access_token)).status).toBe(403);
  });

  it('§6.5 the consent page names the unverified client, the redirect host and the scopes, and cannot be framed or cached', async () => {
    const client = await publicClient();
    const page = await openFormPage(web(), (await authorizationRequest(client.client_id!, { scope: 'articles:read content:export' })).url);
    expect(page.response.status).toBe(200);
    expect(page.html).toContain('<bdi>Test &lt;b&gt;app&lt;/b&gt;</bdi> (unverified)');
    expect(page.html).not.toContain('<b>app</b>');
    expect(page.html).toContain('<strong>127.0.0.1:3000</strong>');
    expect(page.html).toContain('<code>articles:read</code>');
    expect(page.html).toContain('<code>content:export</code>');
    expect(page.html).not.toMatch(/<script/i);
    const h = page.response.headers;
    expect(h.get('x-frame-options')).toBe('DENY');
    expect(h.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(h.get('content-security-policy')).toContain("form-action 'self' http://127.0.0.1:3000");
    expect(h.get('referrer-policy')).toBe('same-origin');
    expect(h.get('cache-control')).toBe('no-store');
    expect(h.get('set-cookie')).toMatch(/HttpOnly; SameSite=Strict/);
  });

  it('§6.5 Deny redirects with access_denied, the state unchanged and iss exactly once', async () => {
    const client = await publicClient();
    const request = await authorizationRequest(client.client_id!, { state: 'a b&c=d/é' });
    const location = await authorizeThroughConsent(web(), request.url, 'deny');
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe('a b&c=d/é');
    expect(location.searchParams.getAll('iss')).toEqual([TEST_ORIGIN]);
    expect(location.searchParams.has('code')).toBe(false);
  });

  it('§6.1 a loopback redirect may change only its port (RFC 8252 §7.3)', async () => {
    const client = await publicClient();
    const location = await authorizeThroughConsent(
      web(),
      (await authorizationRequest(client.client_id!, { redirect_uri: 'http://127.0.0.1:49152/cb' })).url,
    );
    expect(location.origin).toBe('http://127.0.0.1:49152');
    expect(location.searchParams.get('code')).toBeTruthy();
    const otherPath = await web()((await authorizationRequest(client.client_id!, { redirect_uri: 'http://127.0.0.1:49152/other' })).url, {
      redirect: 'manual',
    });
    expect(otherPath.status).toBe(400);
    expect(otherPath.headers.get('location')).toBeNull();
  });

  it.each([
    'http://0x7f.1:49152/cb',
    'http://2130706433:49152/cb',
    'http://127.1:49152/cb',
    'http://user@127.0.0.1:49152/cb',
    'http://127.0.0.1:49152/x/../cb',
    'http://127.0.0.1:49152/%2e%2e/cb',
  ])('§6.1 the loopback exception is for the port only: %s gets the error page, never a redirect', async (redirectUri) => {
    const client = await publicClient();
    const res = await web()((await authorizationRequest(client.client_id!, { redirect_uri: redirectUri })).url, { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
  });

  it('scope: the requested scopes the client registered are shown and granted; unknown ones are left out', async () => {
    const client = await publicClient();
    const request = await authorizationRequest(client.client_id!, { scope: 'content:export offline_access openid' });
    const page = await openFormPage(web(), request.url);
    expect(page.html).toContain('<code>content:export</code>');
    expect(page.html).not.toContain('offline_access');
    const location = new URL((await answerFormPage(web(), page, 'approve')).headers.get('location')!);
    const res = await tokenForm({
      grant_type: 'authorization_code',
      code: location.searchParams.get('code')!,
      redirect_uri: REDIRECT,
      code_verifier: request.verifier,
      client_id: client.client_id!,
    });
    expect((await res.json()).scope).toBe('content:export');
  });
});

describe('§6.1–6.4 authorization endpoint errors', () => {
  let clientId = '';
  let ccClientId = '';
  beforeAll(async () => {
    clientId = (
      await registerClient({
        grant_types: ['authorization_code'],
        redirect_uris: [REDIRECT, 'https://app.example/cb?tenant=7'],
        token_endpoint_auth_method: 'none',
        scope: 'articles:read',
      })
    ).client_id!;
    ccClientId = (await registerClient({ grant_types: ['client_credentials'] })).client_id!;
  });

  it.each([
    ['unknown client_id', () => ({ client_id: 'agt_unknown' })],
    ['missing client_id', () => ({ client_id: null })],
    ['redirect_uri not registered', () => ({ redirect_uri: 'https://evil.example/cb' })],
    ['redirect_uri differing by a trailing slash', () => ({ redirect_uri: `${REDIRECT}/` })],
    ['redirect_uri missing with two registered', () => ({ redirect_uri: null })],
    ['javascript: redirect_uri', () => ({ redirect_uri: 'javascript:alert(1)' })],
    ['client without authorization_code', () => ({ client_id: ccClientId })],
  ])('%s -> 400 error page, never a redirect', async (_name, change) => {
    const request = await authorizationRequest(clientId, { scope: null, ...change() });
    const res = await web()(request.url, { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(await res.text()).toMatch(/<h1>Authorization failed<\/h1>/);
  });

  it('a repeated redirect_uri is an error page too', async () => {
    const request = await authorizationRequest(clientId, { scope: null });
    const res = await web()(`${request.url}&redirect_uri=${encodeURIComponent(REDIRECT)}`, { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
  });

  it.each([
    ['response_type=token', { response_type: 'token' }, 'unsupported_response_type'],
    ['missing response_type', { response_type: null }, 'invalid_request'],
    ['missing code_challenge', { code_challenge: null }, 'invalid_request'],
    ['code_challenge_method=plain', { code_challenge_method: 'plain' }, 'invalid_request'],
    ['missing code_challenge_method (means plain)', { code_challenge_method: null }, 'invalid_request'],
    ['malformed code_challenge', { code_challenge: 'short' }, 'invalid_request'],
    ['unknown scope', { scope: 'admin' }, 'invalid_scope'],
    ['scope not registered', { scope: 'content:export' }, 'invalid_scope'],
    ['foreign resource', { resource: 'https://other.example/mcp' }, 'invalid_target'],
  ])('%s -> 303 to the client with the error, state and one iss', async (_name, change, code) => {
    const request = await authorizationRequest(clientId, { scope: null, state: 'st@te 1', ...change });
    const res = await web()(request.url, { redirect: 'manual' });
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    expect(location.searchParams.get('error')).toBe(code);
    expect(location.searchParams.get('error_description')).toBeTruthy();
    expect(location.searchParams.get('state')).toBe('st@te 1');
    expect(location.searchParams.getAll('iss')).toEqual([TEST_ORIGIN]);
  });

  it("keeps the redirect URI's own query and adds the response parameters", async () => {
    const request = await authorizationRequest(clientId, {
      scope: null,
      redirect_uri: 'https://app.example/cb?tenant=7',
      response_type: 'token',
    });
    const location = new URL((await web()(request.url, { redirect: 'manual' })).headers.get('location')!);
    expect(location.searchParams.get('tenant')).toBe('7');
    expect(location.searchParams.get('error')).toBe('unsupported_response_type');
  });

  it('other methods get 405 with Allow', async () => {
    const res = await web()('/oauth/authorize', { method: 'PUT' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
  });
});

describe('§6.5 the consent form resists CSRF', () => {
  it.each([
    ['no cookie', { cookie: null }],
    ['the cookie of another consent page', { cookie: 'other' }],
    ['a tampered ticket', { ticket: 'tampered' }],
    ['a cross-site Origin', { headers: { origin: 'https://evil.example' } }],
    ['Sec-Fetch-Site: cross-site', { headers: { 'sec-fetch-site': 'cross-site' } }],
  ] as const)('%s -> 403 page, no redirect, no code', async (_name, override) => {
    const client = await publicClient();
    const page = await openFormPage(web(), (await authorizationRequest(client.client_id!)).url);
    let change: Parameters<typeof answerFormPage>[3] = { ...override };
    if ('cookie' in override && override.cookie === 'other') {
      const other = await openFormPage(web(), (await authorizationRequest(client.client_id!)).url);
      change = { cookie: other.cookie };
    }
    if ('ticket' in override) change = { ticket: `${page.ticket!.slice(0, -4)}AAAA` };
    const res = await answerFormPage(web(), page, 'approve', change);
    expect(res.status).toBe(403);
    expect(res.headers.get('location')).toBeNull();
    expect(await res.text()).toContain('Authorization failed');
  });

  it('an answered form cannot be answered again from the same browser state: the cookie is cleared', async () => {
    const client = await publicClient();
    const page = await openFormPage(web(), (await authorizationRequest(client.client_id!)).url);
    const first = await answerFormPage(web(), page, 'approve');
    expect(first.status).toBe(303);
    expect(first.headers.get('set-cookie')).toMatch(/Max-Age=0/);
  });

  it('a consent is answered once on the server: a replayed Approve, or Approve after Deny, gets "already answered" and no code', async () => {
    const client = await publicClient();
    const page = await openFormPage(web(), (await authorizationRequest(client.client_id!)).url);
    // A script that kept the cookie replays the same post.
    expect((await answerFormPage(web(), page, 'approve')).status).toBe(303);
    const replay = await answerFormPage(web(), page, 'approve');
    expect(replay.status).toBe(403);
    expect(replay.headers.get('location')).toBeNull();
    expect(await replay.text()).toContain('already answered');

    const second = await openFormPage(web(), (await authorizationRequest(client.client_id!)).url);
    const denied = await answerFormPage(web(), second, 'deny');
    expect(new URL(denied.headers.get('location')!).searchParams.get('error')).toBe('access_denied');
    const approveAfterDeny = await answerFormPage(web(), second, 'approve');
    expect(approveAfterDeny.status).toBe(403);
    expect(approveAfterDeny.headers.get('location')).toBeNull();
  });

  it('the client name is isolated in <bdi> on the consent page', async () => {
    const client = await registerClient({
      client_name: 'مثال app',
      grant_types: ['authorization_code'],
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
    });
    const page = await openFormPage(web(), (await authorizationRequest(client.client_id!)).url);
    expect(page.html).toContain('<dd><bdi>مثال app</bdi> (unverified)</dd>');
  });

  it('rejects a non-form body (415) and a missing decision (400)', async () => {
    const client = await publicClient();
    const page = await openFormPage(web(), (await authorizationRequest(client.client_id!)).url);
    expect(
      (
        await web()('/oauth/authorize', {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie: page.cookie! },
          body: '{}',
        })
      ).status,
    ).toBe(415);
    expect(
      (
        await web()('/oauth/authorize', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: page.cookie! },
          body: `ticket=${page.ticket}&decision=maybe`,
        })
      ).status,
    ).toBe(400);
  });
});

describe('§6.7–6.9, §6.13 redeeming codes', () => {
  it.each([
    [
      'a wrong code_verifier',
      (c: { clientId: string }) => ({ client_id: c.clientId, code_verifier: oauth.generateRandomCodeVerifier() }),
      400,
      'invalid_grant',
    ],
    [
      'a different redirect_uri',
      (c: { clientId: string }) => ({ client_id: c.clientId, redirect_uri: 'http://127.0.0.1:3000/other' }),
      400,
      'invalid_grant',
    ],
    [
      'no redirect_uri although the request had one',
      (c: { clientId: string }) => ({ client_id: c.clientId, redirect_uri: null }),
      400,
      'invalid_grant',
    ],
    [
      'another resource',
      (c: { clientId: string }) => ({ client_id: c.clientId, resource: 'https://other.example/mcp' }),
      400,
      'invalid_target',
    ],
    ['no code_verifier', (c: { clientId: string }) => ({ client_id: c.clientId, code_verifier: null }), 400, 'invalid_request'],
    [
      'a malformed code_verifier',
      (c: { clientId: string }) => ({ client_id: c.clientId, code_verifier: 'too-short' }),
      400,
      'invalid_request',
    ],
  ])('%s fails and does not consume the code', async (_name, change, status, error) => {
    const issued = await approvedCode();
    const good: Record<string, string | null> = {
      grant_type: 'authorization_code',
      code: issued.code,
      redirect_uri: REDIRECT,
      code_verifier: issued.verifier,
      client_id: issued.clientId,
    };
    const bad = Object.fromEntries(Object.entries({ ...good, ...change(issued) }).filter(([, v]) => v !== null)) as Record<string, string>;
    const res = await tokenForm(bad);
    expect(res.status).toBe(status);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect((await res.json()).error).toBe(error);
    expect((await tokenForm(good as Record<string, string>)).status).toBe(200);
  });

  it('a code issued to client A is refused for client B', async () => {
    const issued = await approvedCode();
    const other = await publicClient();
    const res = await tokenForm({
      grant_type: 'authorization_code',
      code: issued.code,
      redirect_uri: REDIRECT,
      code_verifier: issued.verifier,
      client_id: other.client_id!,
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe('invalid_grant');
  });

  it('an unknown code is invalid_grant', async () => {
    const client = await publicClient();
    const res = await tokenForm({
      grant_type: 'authorization_code',
      code: 'x'.repeat(43),
      redirect_uri: REDIRECT,
      code_verifier: oauth.generateRandomCodeVerifier(),
      client_id: client.client_id!,
    });
    expect((await res.json()).error).toBe('invalid_grant');
  });

  it('20 concurrent redemptions of one code: at most one token, revoked by the replays; every other answer invalid_grant', async () => {
    const issued = await approvedCode();
    const body = {
      grant_type: 'authorization_code',
      code: issued.code,
      redirect_uri: REDIRECT,
      code_verifier: issued.verifier,
      client_id: issued.clientId,
    };
    const results = await Promise.all(Array.from({ length: 20 }, () => tokenForm(body)));
    const statuses = results.map((r) => r.status);
    // A replay that lands before the winner wrote its grant revokes the grant first: then nobody gets a token.
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(1);
    expect(statuses.filter((s) => s === 400).length).toBeGreaterThanOrEqual(19);
    for (const loser of results.filter((r) => r.status === 400)) expect((await loser.json()).error).toBe('invalid_grant');
    if (statuses.includes(200)) {
      const winner = await results[statuses.indexOf(200)]!.json();
      expect((await mcpExport(winner.access_token)).status).toBe(401);
    }
  });

  it('§6.11 no code, verifier or token is stored in plaintext', async () => {
    const issued = await approvedCode();
    const res = await tokenForm({
      grant_type: 'authorization_code',
      code: issued.code,
      redirect_uri: REDIRECT,
      code_verifier: issued.verifier,
      client_id: issued.clientId,
    });
    const { access_token: accessToken } = await res.json();
    const dump = readTree(site.runtime.blobsDir);
    expect(dump).toContain(issued.clientId);
    expect(dump).not.toContain(issued.code);
    expect(dump).not.toContain(issued.verifier);
    expect(dump).not.toContain(accessToken);
  });
});

describe('the claim ceremony', () => {
  const claim = (body: unknown, address?: string) =>
    web(address)('/oauth/claim', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('register -> start -> a person approves the user code -> the agent polls "claimed"; the claim token is spent', async () => {
    const registered = await registerClient({ client_name: 'claimer', grant_types: ['client_credentials'] });
    expect(registered.claim_token).toMatch(/^clm_/);
    expect(registered.claim_url).toBe(`${TEST_ORIGIN}/oauth/claim`);
    const startRes = await claim({ claim_token: registered.claim_token });
    expect(startRes.status).toBe(200);
    expect(startRes.headers.get('cache-control')).toBe('no-store');
    const started = await startRes.json();
    expect(started).toMatchObject({
      status: 'pending',
      client_id: registered.client_id,
      verification_uri: `${TEST_ORIGIN}/oauth/claim/verify`,
      expires_in: 600,
      interval: 5,
    });
    expect(started.user_code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    expect(started.verification_uri_complete).toBe(`${TEST_ORIGIN}/oauth/claim/verify?user_code=${started.user_code}`);

    // Polling at once is too fast.
    const early = await claim({ claim_attempt_id: started.claim_attempt_id });
    expect(early.status).toBe(400);
    expect((await early.json()).error).toBe('slow_down');

    // The person types the code loosely (lower case, no dash); the page normalises it.
    const page = await openFormPage(web(), `/oauth/claim/verify?user_code=${started.user_code.replace('-', '').toLowerCase()}`);
    expect(page.response.status).toBe(200);
    expect(page.html).toContain(started.user_code);
    expect(page.html).toContain('claimer');
    expect(page.response.headers.get('x-frame-options')).toBe('DENY');
    const approved = await answerFormPage(web(), page, 'approve');
    expect(approved.status).toBe(200);
    expect(await approved.text()).toContain('Registration claimed');

    const done = await claim({ claim_attempt_id: started.claim_attempt_id });
    expect(done.status).toBe(200);
    expect(await done.json()).toMatchObject({ status: 'claimed', client_id: registered.client_id });

    const again = await claim({ claim_token: registered.claim_token });
    expect(again.status).toBe(409);
    expect((await again.json()).error).toBe('already_claimed');
    // A claimed registration expires only after a year without use.
    const stored = JSON.parse(
      readFileSync(path.join(site.runtime.blobsDir, `entries/0/site:oauth/client/${registered.client_id}`), 'utf8'),
    );
    expect(stored.expires_at - Date.now() / 1000).toBeGreaterThan(364 * 86400);
    expect(stored.expires_at - Date.now() / 1000).toBeLessThanOrEqual(365 * 86400);
    expect(stored.claim.status).toBe('claimed');
    expect(stored.claim.token_sha256).toBeNull();
  });

  it('a denied claim is reported to the polling agent as access_denied', async () => {
    const registered = await registerClient({ grant_types: ['client_credentials'] });
    const started = await (await claim({ claim_token: registered.claim_token })).json();
    const page = await openFormPage(web(), started.verification_uri_complete);
    expect((await answerFormPage(web(), page, 'deny')).status).toBe(200);
    const poll = await claim({ claim_attempt_id: started.claim_attempt_id });
    expect(poll.status).toBe(403);
    expect((await poll.json()).error).toBe('access_denied');
  });

  it('a new start replaces the previous attempt: its user code and attempt id stop working', async () => {
    const registered = await registerClient({ grant_types: ['client_credentials'] });
    const first = await (await claim({ claim_token: registered.claim_token })).json();
    const second = await (await claim({ claim_token: registered.claim_token })).json();
    expect(second.user_code).not.toBe(first.user_code);
    expect((await web()(first.verification_uri_complete)).status).toBe(404);
    const poll = await claim({ claim_attempt_id: first.claim_attempt_id });
    expect((await poll.json()).error).toBe('invalid_claim_attempt');
  });

  it.each([
    ['an unknown claim token', { claim_token: 'clm_AAAAAAAAAAAAAAAAAAAAAAAA' }, 400, 'invalid_claim_token'],
    ['a malformed claim token', { claim_token: 42 }, 400, 'invalid_claim_token'],
    ['an unknown attempt', { claim_attempt_id: 'cla_AAAAAAAAAAAAAAAAAAAAAAAA' }, 400, 'invalid_claim_attempt'],
    [
      'both fields',
      { claim_token: 'clm_AAAAAAAAAAAAAAAAAAAAAAAA', claim_attempt_id: 'cla_AAAAAAAAAAAAAAAAAAAAAAAA' },
      400,
      'invalid_request',
    ],
    ['neither field', {}, 400, 'invalid_request'],
    ['a JSON array', [], 400, 'invalid_request'],
  ])('%s', async (_name, body, status, code) => {
    const res = await claim(body);
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect((await res.json()).error).toBe(code);
  });

  it('wrong content type and method are refused with JSON errors', async () => {
    const text = await web()('/oauth/claim', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' });
    expect(text.status).toBe(415);
    expect((await text.json()).error).toBe('invalid_request');
    const get = await web()('/oauth/claim');
    expect(get.status).toBe(405);
    expect((await web()('/oauth/claim', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{bad' })).status).toBe(
      400,
    );
  });

  it('claim starts are rate limited per IP (429 rate_limited with Retry-After)', async () => {
    const registered = await registerClient({ grant_types: ['client_credentials'] });
    const address = nextIp();
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await claim({ claim_token: registered.claim_token }, address)).status);
    expect(statuses.slice(0, 30).every((s) => s === 200)).toBe(true);
    const limited = await claim({ claim_token: registered.claim_token }, address);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await limited.json()).error).toBe('rate_limited');
  });

  it('the verification page: a form without a code, 400 for a malformed code, 404 for an unknown one, 403 without the cookie', async () => {
    const blank = await web()('/oauth/claim/verify');
    expect(blank.status).toBe(200);
    expect(await blank.text()).toContain('name="user_code"');
    expect((await web()('/oauth/claim/verify?user_code=AEIOU')).status).toBe(400);
    expect((await web()('/oauth/claim/verify?user_code=BBBB-BBBB')).status).toBe(404);
    const registered = await registerClient({ grant_types: ['client_credentials'] });
    const started = await (await claim({ claim_token: registered.claim_token })).json();
    const page = await openFormPage(web(), started.verification_uri_complete);
    expect((await answerFormPage(web(), page, 'approve', { cookie: null })).status).toBe(403);
  });

  it('guessing user codes is rate limited per IP', async () => {
    const guess = web(nextIp());
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await guess('/oauth/claim/verify?user_code=BBBB-BBBC')).status);
    expect(statuses.slice(0, 30).every((s) => s === 404)).toBe(true);
    expect(statuses[30]).toBe(429);
  });
});

describe('/auth.md', () => {
  let text = '';
  beforeAll(async () => {
    const res = await site.fetchPath('/auth.md', { headers: { accept: 'text/markdown, text/plain, */*' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    text = await res.text();
  });

  it('has an ATX H1 containing "auth.md" and the steps of the convention', () => {
    expect(text).toMatch(/^#[ \t]+.*auth\.md/m);
    for (const heading of ['Discover', 'Pick a method', 'Register', 'Claim', 'Exchange', 'Use', 'Errors', 'Revocation'])
      expect(text).toMatch(new RegExp(`^## \\d\\. ${heading}`, 'm'));
    for (const term of ['agentic registration', 'agent_auth', 'register_uri', '/oauth/register', 'client_secret', 'bearer_token'])
      expect(text).toContain(term);
  });

  it('states the same endpoints and scopes as the metadata, and every site URL it names resolves', async () => {
    const metadata = await (await site.fetchPath('/.well-known/oauth-authorization-server')).json();
    for (const key of ['token_endpoint', 'registration_endpoint', 'revocation_endpoint', 'jwks_uri', 'authorization_endpoint'])
      expect(text).toContain(new URL(metadata[key]).pathname);
    for (const scope of metadata.scopes_supported) expect(text).toContain(scope);
    const urls = [...new Set([...text.matchAll(/https?:\/\/localhost:8899[^\s`"')|,?]*/g)].map((m) => m[0].replace(/[.:]$/, '')))];
    expect(urls.length).toBeGreaterThan(5);
    for (const url of urls) expect((await site.fetchPath(new URL(url).pathname)).status, url).not.toBe(404);
  });
});

function readTree(dir: string): string {
  return readdirSync(dir)
    .map((name) => {
      const full = path.join(dir, name);
      return statSync(full).isDirectory() ? readTree(full) : readFileSync(full, 'utf8');
    })
    .join('\n');
}

describe('Client ID Metadata Documents (the client_id is the URL of its metadata)', () => {
  let documentServer: Server;
  let docBase = '';
  const documents = new Map<string, { status?: number; body: unknown; location?: string }>();

  beforeAll(async () => {
    documentServer = createServer((req, res) => {
      const doc = documents.get(req.url ?? '');
      if (!doc) return void res.writeHead(404).end();
      res.writeHead(doc.status ?? 200, {
        'content-type': 'application/json',
        'cache-control': 'no-store',
        ...(doc.location ? { location: doc.location } : {}),
      });
      res.end(JSON.stringify(doc.body));
    });
    await new Promise<void>((resolve) => documentServer.listen(0, '127.0.0.1', resolve));
    docBase = `http://127.0.0.1:${(documentServer.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    documentServer.closeAllConnections();
    await new Promise<void>((resolve) => documentServer.close(() => resolve()));
  });

  const publish = (pathname: string, body: Record<string, unknown>, extra: { status?: number; location?: string } = {}): string => {
    const url = `${docBase}${pathname}`;
    documents.set(pathname, { body: { client_id: url, ...body }, ...extra });
    return url;
  };

  it('the metadata advertises it, and a client known only by its document completes the flow: consent, token with refresh, export', async () => {
    expect((as as unknown as Record<string, unknown>).client_id_metadata_document_supported).toBe(true);
    expect(as.token_endpoint_auth_methods_supported).toContain('none');
    const clientId = publish('/app/client.json', {
      client_name: 'Document App',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
    });
    const client: oauth.Client = { client_id: clientId, token_endpoint_auth_method: 'none' };
    const request = await authorizationRequest(clientId);
    const page = await openFormPage(localWeb(), request.url);
    expect(page.response.status).toBe(200);
    expect(page.html).toContain('<bdi>Document App</bdi> (unverified)');
    const callback = new URL((await answerFormPage(localWeb(), page, 'approve')).headers.get('location')!);
    const params = oauth.validateAuthResponse(as, client, callback, request.state);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, REDIRECT, request.verifier, localOptions()),
    );
    expect(tokens.refresh_token).toMatch(/^rt_/);
    expect(decodeJwt(tokens.access_token).client_id).toBe(clientId);
    expect((await mcpExport(tokens.access_token)).status).toBe(200);
    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, localOptions()),
    );
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
  });

  it.each([
    [
      'a redirect URI the document does not list',
      () => publish('/other/client.json', { redirect_uris: ['http://127.0.0.1:3000/elsewhere'] }),
      /not registered/,
    ],
    [
      'a document whose client_id is another URL',
      () => {
        const url = `${docBase}/liar/client.json`;
        documents.set('/liar/client.json', { body: { client_id: `${docBase}/someone-else.json`, redirect_uris: [REDIRECT] } });
        return url;
      },
      /not exactly its URL/,
    ],
    [
      'a document that redirects',
      () => publish('/moved/client.json', { redirect_uris: [REDIRECT] }, { status: 302, location: '/app/client.json' }),
      /redirect/,
    ],
    // What failed stays in the log: the page says only that the document could not be fetched.
    ['a missing document', () => `${docBase}/absent/client.json`, /could not be fetched \(reference/],
    ['an http document off loopback', () => 'http://app.example/client.json', /https/],
    ['a document on a private address', () => 'https://10.0.0.1/client.json', /could not be fetched \(reference/],
    ['the cloud metadata address', () => 'https://169.254.169.254/latest/client.json', /could not be fetched \(reference/],
  ])('%s: an error page naming the problem, never a redirect', async (_name, clientIdOf, why) => {
    const res = await localWeb()((await authorizationRequest(clientIdOf())).url, { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(await res.text()).toMatch(why);
  });

  it('at the token endpoint a document client is public: a secret is refused', async () => {
    const clientId = publish('/public/client.json', { redirect_uris: [REDIRECT] });
    const res = await tokenForm({
      grant_type: 'authorization_code',
      client_id: clientId,
      client_secret: 'x',
      code: 'c',
      code_verifier: 'v'.repeat(43),
    });
    expect(res.status).toBe(401);
    expect((await res.json()).error).toBe('invalid_client');
  });
});
