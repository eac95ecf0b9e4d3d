/**
 * `GET|POST /oauth/authorize` in-process: which requests get an error page and which an error at the
 * client's redirect URI, the consent page, and its answer (CSRF binding, one answer per ticket, the
 * registration re-checked when the answer comes), with the memory store and a fake clock.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { answerFormPage, type Fetch, openFormPage } from '../../../../tests/support/consent.ts';
import { sha256Base64url } from '../../kernel/crypto.ts';
import { fakeClock, memoryStore } from '../../kernel/memory-store.ts';
import type { Store } from '../../kernel/store.ts';
import { oauthConfig, UNCLAIMED_CLIENT_TTL_SECONDS } from '../config.ts';
import { OAuthError } from '../errors.ts';
import { clientKey, type ClientRecord } from '../grants/clients.ts';
import type { CodeRecord } from '../grants/codes.ts';
import { generateKeyRecord, keySetOf, type KeySet } from '../grants/keys.ts';
import { type AuthorizeDeps, authorizationResponseUrl, CONSENT_ANSWER_RATE_LIMIT, handleAuthorize } from './authorize.ts';

const ORIGIN = 'https://site.example';
const CONFIG = oauthConfig(ORIGIN);
const AUTHORIZE = CONFIG.endpoints.authorize;
const REDIRECT = 'http://127.0.0.1:3000/cb';
const SECOND_REDIRECT = 'https://app.example/cb?tenant=7';
const VERIFIER = 'v'.repeat(43);

let keys: KeySet;
let challenge: string;
beforeAll(async () => {
  keys = await keySetOf([await generateKeyRecord(1_800_000_000)], 1_800_000_000);
  challenge = await sha256Base64url(VERIFIER);
});

interface Setup {
  deps: AuthorizeDeps;
  store: Store;
  clock: ReturnType<typeof fakeClock>;
  fetch: Fetch;
}

function setup(overrides: Partial<AuthorizeDeps> = {}): Setup {
  const store = memoryStore();
  const clock = fakeClock(new Date('2027-01-01T00:00:00Z'));
  const deps: AuthorizeDeps = {
    config: CONFIG,
    clients: store,
    grants: store,
    keys: async () => keys,
    nowSeconds: clock.nowSeconds,
    siteName: 'Acme AI',
    ...overrides,
  };
  const fetch: Fetch = (input, init) => handleAuthorize(new Request(new URL(input, ORIGIN), init), deps);
  return { deps, store, clock, fetch };
}

let serial = 0;
async function addClient(s: Setup, overrides: Partial<ClientRecord> = {}): Promise<ClientRecord> {
  const now = s.clock.nowSeconds();
  const client: ClientRecord = {
    client_id: `agt_authz${++serial}`,
    client_secret_sha256: null,
    client_name: 'Test <b>app</b>',
    grant_types: ['authorization_code'],
    response_types: ['code'],
    redirect_uris: [REDIRECT, SECOND_REDIRECT],
    token_endpoint_auth_method: 'none',
    scope: ['articles:read', 'content:export'],
    client_id_issued_at: now,
    registration_type: 'anonymous',
    claim: { status: 'unclaimed', token_sha256: null, token_expires_at: now },
    expires_at: now + UNCLAIMED_CLIENT_TTL_SECONDS,
    last_used_at: now,
    ...overrides,
  };
  await s.store.set(clientKey(client.client_id), client);
  return client;
}

/** An authorization URL; a null parameter is left out. */
function authorizeUrl(clientId: string | null, extra: Record<string, string | null> = {}): string {
  const url = new URL(AUTHORIZE);
  const params: Record<string, string | null> = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    state: 'st@te 1',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...extra,
  };
  for (const [name, value] of Object.entries(params)) if (value !== null) url.searchParams.set(name, value);
  return url.href;
}

const get = (s: Setup, url: string, headers: Record<string, string> = {}) => s.fetch(url, { headers });

async function pageError(res: Response): Promise<string> {
  expect(res.headers.get('location')).toBeNull();
  expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(res.headers.get('cache-control')).toBe('no-store');
  const html = await res.text();
  expect(html).toContain('<title>Authorization failed – Acme AI</title>');
  expect(html).toContain('<h1>Authorization failed</h1>');
  expect(html).toContain('Nothing was sent to the application.');
  return /<p class="error" role="alert">([^<]*)<\/p>/.exec(html)?.[1] ?? '';
}

function redirectError(res: Response): URLSearchParams {
  expect(res.status).toBe(303);
  const location = new URL(res.headers.get('location')!);
  expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
  expect(location.searchParams.getAll('iss')).toEqual([ORIGIN]);
  return location.searchParams;
}

async function storedCodes(store: Store): Promise<CodeRecord[]> {
  const keysFound = await store.list('code/');
  return Promise.all(keysFound.map(async (key) => (await store.get<CodeRecord>(key))!.value));
}

describe('authorizationResponseUrl', () => {
  it('keeps the redirect URI query, adds the parameters, and sets iss exactly once', () => {
    const url = new URL(
      authorizationResponseUrl('https://app.example/cb?tenant=7&iss=spoof', 'https://site.example', {
        code: 'abc',
        state: 's 1',
        error: null,
      }),
    );
    expect(url.searchParams.get('tenant')).toBe('7');
    expect(url.searchParams.get('code')).toBe('abc');
    expect(url.searchParams.get('state')).toBe('s 1');
    expect(url.searchParams.has('error')).toBe(false);
    expect(url.searchParams.getAll('iss')).toEqual(['https://site.example']);
  });
});

describe('GET: while the client or the redirect URI is in doubt, an error page that never redirects', () => {
  it.each([
    ['an unknown client_id', (c: ClientRecord) => authorizeUrl(`${c.client_id}x`), 'not registered here'],
    ['no client_id', () => authorizeUrl(null), 'The request has no client_id.'],
    [
      'an unregistered redirect_uri',
      (c: ClientRecord) => authorizeUrl(c.client_id, { redirect_uri: 'https://evil.example/cb' }),
      'match a registered URI exactly',
    ],
    [
      'a trailing slash added',
      (c: ClientRecord) => authorizeUrl(c.client_id, { redirect_uri: `${REDIRECT}/` }),
      'is not registered for this client',
    ],
    [
      'no redirect_uri with two registered',
      (c: ClientRecord) => authorizeUrl(c.client_id, { redirect_uri: null }),
      'registered more than one',
    ],
    ['client_id twice', (c: ClientRecord) => `${authorizeUrl(c.client_id)}&client_id=${c.client_id}`, 'must each appear once'],
    [
      'redirect_uri twice',
      (c: ClientRecord) => `${authorizeUrl(c.client_id)}&redirect_uri=${encodeURIComponent(REDIRECT)}`,
      'must each appear once',
    ],
  ])('%s', async (_name, url, message) => {
    const s = setup();
    const client = await addClient(s);
    const res = await get(s, url(client));
    expect(res.status).toBe(400);
    expect(await pageError(res)).toContain(message);
  });

  it('a client not registered for authorization_code, and an expired one', async () => {
    const s = setup();
    const machine = await addClient(s, { grant_types: ['client_credentials'] });
    expect(await pageError(await get(s, authorizeUrl(machine.client_id)))).toContain('not registered for the authorization_code grant');
    const expired = await addClient(s, { expires_at: s.clock.nowSeconds() });
    const res = await get(s, authorizeUrl(expired.client_id));
    expect(res.status).toBe(400);
    expect(await pageError(res)).toContain('its registration has expired');
    // One second earlier it was still good.
    const live = await addClient(s, { expires_at: s.clock.nowSeconds() + 1 });
    expect((await get(s, authorizeUrl(live.client_id))).status).toBe(200);
  });

  it('a metadata document that cannot be used: 400 saying why, 429 with Retry-After when too many were fetched', async () => {
    const url = authorizeUrl('https://app.example/client.json');
    const refused = setup({
      clientMetadata: async () => {
        throw new OAuthError('invalid_client', 'The client metadata document could not be fetched.');
      },
    });
    const res = await get(refused, url);
    expect(res.status).toBe(400);
    expect(await pageError(res)).toBe('The client metadata document could not be fetched.');
    const limited = setup({
      clientMetadata: async () => {
        throw new OAuthError('rate_limited', 'Too many metadata documents.', { headers: { 'retry-after': '30' } });
      },
    });
    const tooMany = await get(limited, url);
    expect(tooMany.status).toBe(429);
    expect(tooMany.headers.get('retry-after')).toBe('30');
    expect(await pageError(tooMany)).toBe('Too many metadata documents.');
    // A URL client id without a resolver is an unknown client.
    expect(await pageError(await get(setup(), url))).toContain('not registered here');
  });

  it('an unexpected failure is not turned into a page (the caller logs it and answers 500)', async () => {
    const s = setup({
      clientMetadata: async () => {
        throw new TypeError('boom');
      },
    });
    await expect(get(s, authorizeUrl('https://app.example/client.json'))).rejects.toThrow('boom');
  });

  it('a query over 8 KB is 414', async () => {
    const s = setup();
    const client = await addClient(s);
    const res = await get(s, authorizeUrl(client.client_id, { state: 's'.repeat(8 * 1024) }));
    expect(res.status).toBe(414);
    // Exactly 8 KB of query is still read.
    const base = authorizeUrl(client.client_id, { state: null });
    const exact = `${base}&pad=${'p'.repeat(8 * 1024 - new URL(base).search.length - 5)}`;
    expect(new URL(exact).search.length).toBe(8 * 1024);
    expect((await get(s, exact)).status).toBe(200);
    expect(await pageError(res)).toBe('The authorization request is too long.');
    const justUnder = authorizeUrl(client.client_id, { state: '' });
    const padding = 8 * 1024 - new URL(justUnder).search.length;
    expect((await get(s, authorizeUrl(client.client_id, { state: null, pad: 'p'.repeat(padding - 5) }))).status).toBe(200);
  });
});

describe('GET: once the client and redirect URI are known, errors go back to the client with state and iss', () => {
  it.each([
    ['response_type=token', { response_type: 'token' }, 'unsupported_response_type', 'Only response_type=code is supported.'],
    ['no response_type', { response_type: null }, 'invalid_request', 'response_type is required (use "code").'],
    ['a request object', { request: 'eyJ' }, 'invalid_request', 'Request objects are not supported.'],
    ['a request_uri', { request_uri: 'urn:x' }, 'invalid_request', 'Request objects are not supported.'],
    ['no code_challenge', { code_challenge: null }, 'invalid_request', 'code_challenge is required: this server requires PKCE with S256.'],
    [
      'code_challenge_method=plain',
      { code_challenge_method: 'plain' },
      'invalid_request',
      'code_challenge_method "plain" is not supported; use S256.',
    ],
    [
      'no code_challenge_method (plain)',
      { code_challenge_method: null },
      'invalid_request',
      'code_challenge_method is required and must be S256 (absent means plain, which is not allowed).',
    ],
    [
      'a challenge of 42 characters',
      { code_challenge: 'c'.repeat(42) },
      'invalid_request',
      'code_challenge must be the 43-character base64url SHA-256 of the code_verifier.',
    ],
    ['a challenge of 44 characters', { code_challenge: 'c'.repeat(44) }, 'invalid_request', 'code_challenge must be the 43-character'],
    ['a challenge with padding', { code_challenge: `${'c'.repeat(42)}=` }, 'invalid_request', 'code_challenge must be the 43-character'],
    ['an unknown scope', { scope: 'admin' }, 'invalid_scope', 'it may request: articles:read'],
    ['a scope the client did not register', { scope: 'content:export' }, 'invalid_scope', 'None of the requested scopes is registered'],
    ['another resource', { resource: 'https://other.example/mcp' }, 'invalid_target', `resource must be ${ORIGIN}/mcp.`],
  ])('%s → %s', async (_name, change, code, description) => {
    const s = setup();
    const client = await addClient(s, { scope: ['articles:read'] });
    const params = redirectError(await get(s, authorizeUrl(client.client_id, change)));
    expect(params.get('error')).toBe(code);
    expect(params.get('error_description')).toContain(description);
    expect(params.get('state')).toBe('st@te 1');
    expect(params.has('code')).toBe(false);
  });

  it('another parameter given twice is invalid_request naming it', async () => {
    const s = setup();
    const client = await addClient(s);
    const params = redirectError(await get(s, `${authorizeUrl(client.client_id)}&scope=a&scope=b`));
    expect(params.get('error')).toBe('invalid_request');
    expect(params.get('error_description')).toBe('Parameter scope appears more than once.');
  });

  it('a state over 1024 characters is refused and not echoed; 1024 is shown the consent page', async () => {
    const s = setup();
    const client = await addClient(s);
    const params = redirectError(await get(s, authorizeUrl(client.client_id, { state: 's'.repeat(1025) })));
    expect(params.get('error')).toBe('invalid_request');
    expect(params.get('error_description')).toBe('state must be at most 1024 characters.');
    expect(params.has('state')).toBe(false);
    expect((await get(s, authorizeUrl(client.client_id, { state: 's'.repeat(1024) }))).status).toBe(200);
  });

  it("keeps the redirect URI's own query", async () => {
    const s = setup();
    const client = await addClient(s);
    const res = await get(s, authorizeUrl(client.client_id, { redirect_uri: SECOND_REDIRECT, response_type: 'token' }));
    const location = new URL(res.headers.get('location')!);
    expect(location.searchParams.get('tenant')).toBe('7');
    expect(location.searchParams.get('error')).toBe('unsupported_response_type');
  });
});

describe('GET: the consent page', () => {
  it('names the unverified client, the redirect host, the resource and the scopes, and binds its form to a cookie', async () => {
    const s = setup();
    const client = await addClient(s, { client_name: 'Test <b>app</b>\u200b' });
    const page = await openFormPage(s.fetch, authorizeUrl(client.client_id, { scope: 'content:export admin' }));
    expect(page.response.status).toBe(200);
    expect(page.html).toContain('<title>Authorize Test &lt;b&gt;app&lt;/b&gt; – Acme AI</title>');
    expect(page.html).toContain('<h1>Allow “<bdi>Test &lt;b&gt;app&lt;/b&gt;</bdi>” to use Acme AI?</h1>');
    expect(page.html).toContain('<dd><bdi>Test &lt;b&gt;app&lt;/b&gt;</bdi> (unverified)</dd>');
    expect(page.html).toContain(`<dd><code>${client.client_id}</code></dd>`);
    expect(page.html).toContain(`<dd><strong>127.0.0.1:3000</strong> (${REDIRECT})</dd>`);
    expect(page.html).toContain(`<dd>${ORIGIN}/mcp</dd>`);
    expect(page.html).toContain('<li><code>content:export</code>: Export the whole article index');
    expect(page.html).not.toContain('articles:read');
    expect(page.html).not.toContain('admin');
    expect(page.action).toBe(AUTHORIZE);
    expect(page.ticket).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(page.response.headers.get('set-cookie')).toMatch(/^__Host-oauth_consent_[\w-]+=[\w-]+; Path=\/; Max-Age=600; HttpOnly/);
    const csp = page.response.headers.get('content-security-policy')!;
    expect(csp).toContain("form-action 'self' http://127.0.0.1:3000;");
    expect(page.response.headers.get('x-frame-options')).toBe('DENY');
    expect(page.response.headers.get('cache-control')).toBe('no-store');
  });

  it('naming the MCP resource itself is fine', async () => {
    const s = setup();
    const client = await addClient(s);
    expect((await get(s, authorizeUrl(client.client_id, { resource: `${ORIGIN}/mcp` }))).status).toBe(200);
  });

  it('without a scope asks for every scope the client registered', async () => {
    const s = setup();
    const client = await addClient(s);
    const page = await openFormPage(s.fetch, authorizeUrl(client.client_id));
    expect(page.html).toContain('<li><code>articles:read</code>');
    expect(page.html).toContain('<li><code>content:export</code>');
  });

  it('speaks the browser language', async () => {
    const s = setup();
    const client = await addClient(s);
    const res = await get(s, authorizeUrl(client.client_id), { 'accept-language': 'zh-CN,zh;q=0.9' });
    const html = await res.text();
    expect(html).toContain('<html lang="zh-CN">');
    expect(html).toContain('批准');
    const error = await get(s, authorizeUrl(null), { 'accept-language': 'zh' });
    expect(await error.text()).toContain('<h1>授权失败</h1>');
  });

  it('other methods: 405 with Allow', async () => {
    const s = setup();
    const res = await s.fetch(AUTHORIZE, { method: 'PUT' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
    expect(await pageError(res)).toBe('Use GET to start an authorization request.');
  });
});

describe('POST: the answer', () => {
  it('Approve: 303 to the client with a code bound to the request, the state and one iss; the cookie is cleared', async () => {
    const s = setup();
    const client = await addClient(s);
    const page = await openFormPage(s.fetch, authorizeUrl(client.client_id, { scope: 'articles:read' }));
    const res = await answerFormPage(s.fetch, page, 'approve');
    expect(res.status).toBe(303);
    expect(res.headers.get('set-cookie')).toMatch(/^__Host-oauth_consent_[\w-]+=; Path=\/; Max-Age=0; HttpOnly/);
    const location = new URL(res.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    expect(location.searchParams.get('state')).toBe('st@te 1');
    expect(location.searchParams.getAll('iss')).toEqual([ORIGIN]);
    expect(location.searchParams.get('code')).toMatch(/^[\w-]{43}$/);
    const [code] = await storedCodes(s.store);
    expect(code).toMatchObject({
      client_id: client.client_id,
      redirect_uri: REDIRECT,
      redirect_uri_in_request: true,
      code_challenge: challenge,
      scope: 'articles:read',
      resource: `${ORIGIN}/mcp`,
      issued_at: s.clock.nowSeconds(),
    });
    expect(code!.subject).toMatch(/^anon_[\w-]{16}$/);
  });

  it('a request without redirect_uri (one registered) is remembered as such in the code', async () => {
    const s = setup();
    const client = await addClient(s, { redirect_uris: [REDIRECT] });
    const page = await openFormPage(s.fetch, authorizeUrl(client.client_id, { redirect_uri: null, state: null }));
    const res = await answerFormPage(s.fetch, page, 'approve');
    const location = new URL(res.headers.get('location')!);
    expect(location.searchParams.has('state')).toBe(false);
    expect(await storedCodes(s.store)).toMatchObject([{ redirect_uri: REDIRECT, redirect_uri_in_request: false }]);
  });

  it('a loopback redirect URI may change its port; the code is for the URI asked for', async () => {
    const s = setup();
    const client = await addClient(s);
    const page = await openFormPage(s.fetch, authorizeUrl(client.client_id, { redirect_uri: 'http://127.0.0.1:49152/cb' }));
    const res = await answerFormPage(s.fetch, page, 'approve');
    expect(res.headers.get('location')).toMatch(/^http:\/\/127\.0\.0\.1:49152\/cb\?code=/);
    expect(await storedCodes(s.store)).toMatchObject([{ redirect_uri: 'http://127.0.0.1:49152/cb' }]);
  });

  it('Deny: 303 with access_denied and the state; no code is stored', async () => {
    const s = setup();
    const client = await addClient(s);
    const page = await openFormPage(s.fetch, authorizeUrl(client.client_id));
    const params = redirectError(await answerFormPage(s.fetch, page, 'deny'));
    expect(params.get('error')).toBe('access_denied');
    expect(params.get('error_description')).toBe('The request was denied on the consent page.');
    expect(params.get('state')).toBe('st@te 1');
    expect(await storedCodes(s.store)).toEqual([]);
  });

  it('a ticket is answered once: a replayed Approve, or Approve after Deny, gets "already answered" and no code', async () => {
    const s = setup();
    const client = await addClient(s);
    const page = await openFormPage(s.fetch, authorizeUrl(client.client_id));
    expect((await answerFormPage(s.fetch, page, 'approve')).status).toBe(303);
    const replay = await answerFormPage(s.fetch, page, 'approve');
    expect(replay.status).toBe(403);
    expect(await pageError(replay)).toContain('already answered');
    const second = await openFormPage(s.fetch, authorizeUrl(client.client_id));
    expect((await answerFormPage(s.fetch, second, 'deny')).status).toBe(303);
    expect((await answerFormPage(s.fetch, second, 'approve')).status).toBe(403);
    expect(await storedCodes(s.store)).toHaveLength(1);
  });

  it.each([
    ['no cookie', { cookie: null }, 'not opened in this browser'],
    ['a tampered ticket', { ticket: 'tampered' }, 'expired or is not valid'],
    ['a cross-site Origin', { headers: { origin: 'https://evil.example' } }, 'only be sent from this site'],
    ['Sec-Fetch-Site: cross-site', { headers: { 'sec-fetch-site': 'cross-site' } }, 'only be sent from this site'],
  ] as const)('CSRF: %s → 403 page, no redirect, no code', async (_name, override, message) => {
    const s = setup();
    const client = await addClient(s);
    const page = await openFormPage(s.fetch, authorizeUrl(client.client_id));
    const change = 'ticket' in override ? { ticket: `${page.ticket!.slice(0, -4)}AAAA` } : override;
    const res = await answerFormPage(s.fetch, page, 'approve', change);
    expect(res.status).toBe(403);
    expect(await pageError(res)).toContain(message);
    expect(await storedCodes(s.store)).toEqual([]);
  });

  it('a form answered after its ten minutes is refused', async () => {
    const s = setup();
    const client = await addClient(s);
    const page = await openFormPage(s.fetch, authorizeUrl(client.client_id));
    s.clock.advanceSeconds(601);
    const res = await answerFormPage(s.fetch, page, 'approve');
    expect(res.status).toBe(403);
    expect(await storedCodes(s.store)).toEqual([]);
  });

  it('the redirect URI is checked again: one removed while the page was open gets an error page, no code', async () => {
    const s = setup();
    const client = await addClient(s);
    const page = await openFormPage(s.fetch, authorizeUrl(client.client_id));
    await s.store.set(clientKey(client.client_id), { ...client, redirect_uris: [SECOND_REDIRECT] });
    const res = await answerFormPage(s.fetch, page, 'approve');
    expect(res.status).toBe(400);
    expect(await pageError(res)).toBe('The redirect_uri is no longer registered for this client.');
    expect(await storedCodes(s.store)).toEqual([]);
  });

  it('the registration is checked again: one that expired while the page was open gets an error page, no code', async () => {
    const s = setup();
    const client = await addClient(s, { expires_at: s.clock.nowSeconds() + 60 });
    const page = await openFormPage(s.fetch, authorizeUrl(client.client_id));
    s.clock.advanceSeconds(60);
    const res = await answerFormPage(s.fetch, page, 'approve');
    expect(res.status).toBe(400);
    expect(await pageError(res)).toContain('its registration has expired');
    expect(await storedCodes(s.store)).toEqual([]);
  });

  it.each([
    ['a JSON body', { 'content-type': 'application/json' }, '{}', 415, 'Send the consent form as application/x-www-form-urlencoded.'],
    ['a body over 8 KB', {}, `decision=approve&ticket=${'t'.repeat(8 * 1024)}`, 413, 'The form is too large.'],
    ['a body that is not UTF-8', {}, new Uint8Array([0x64, 0x3d, 0xff]), 400, 'The form is not valid UTF-8.'],
    ['a field twice', {}, 'decision=approve&decision=deny', 400, 'Field decision appears more than once.'],
    ['no decision', {}, 'ticket=x', 400, 'Choose Approve or Deny.'],
    ['another decision', {}, 'ticket=x&decision=maybe', 400, 'Choose Approve or Deny.'],
  ])('%s → %i', async (_name, headers, body, status, message) => {
    const s = setup();
    const res = await s.fetch(AUTHORIZE, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body,
    });
    expect(res.status).toBe(status);
    expect(await pageError(res)).toBe(message);
  });

  it('consent answers are limited per client network, with Retry-After; other networks are not affected', async () => {
    const limits = memoryStore();
    let network = 'net-a';
    const s = setup({ limits, clientNetworkDigest: async () => network });
    const answer = () =>
      s.fetch(AUTHORIZE, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'ticket=x&decision=deny',
      });
    for (let i = 0; i < CONSENT_ANSWER_RATE_LIMIT.limit; i++) expect((await answer()).status).toBe(403);
    const limited = await answer();
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await pageError(limited)).toMatch(/^Too many consent answers from your network; try again in \d+ s\.$/);
    network = 'net-b';
    expect((await answer()).status).toBe(403);
    // One set of windows per network.
    expect(new Set((await limits.list('consent/')).map((key) => key.split('/')[1]))).toEqual(new Set(['net-a', 'net-b']));
    // The window ends after ten minutes.
    network = 'net-a';
    s.clock.advanceSeconds(600);
    expect((await answer()).status).toBe(403);
  });
});
