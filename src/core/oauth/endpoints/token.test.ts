/**
 * `POST /oauth/token` in-process: every grant, the refresh rules (narrowing, binding, a refused
 * refresh that must not burn the token) and the client bookkeeping, with the memory store and a
 * fake clock.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { fakeClock, memoryStore } from '../../kernel/memory-store.ts';
import { sha256Base64url, sha256Hex } from '../../kernel/crypto.ts';
import type { Store } from '../../kernel/store.ts';
import { CLAIMED_CLIENT_TTL_SECONDS, oauthConfig, UNCLAIMED_CLIENT_TTL_SECONDS } from '../config.ts';
import type { OAuthDeps } from '../deps.ts';
import { withOAuthErrors } from '../errors.ts';
import { clientKey, type ClientRecord, type GrantType } from '../grants/clients.ts';
import { issueCode } from '../grants/codes.ts';
import { generateKeyRecord, keySetOf, type KeySet } from '../grants/keys.ts';
import type { GrantRecord } from '../grants/grants.ts';
import { verifyAccessToken } from '../grants/tokens.ts';
import { handleToken } from './token.ts';

const ORIGIN = 'https://site.example';
const CONFIG = oauthConfig(ORIGIN);
const VERIFIER = 'v'.repeat(43);
const SECRET = 'the-client-secret';

let keys: KeySet;
beforeAll(async () => {
  keys = await keySetOf([await generateKeyRecord(1_800_000_000)], 1_800_000_000);
});

interface Setup {
  deps: OAuthDeps;
  store: Store;
  clock: ReturnType<typeof fakeClock>;
}

function setup(): Setup {
  const store = memoryStore();
  const clock = fakeClock(new Date('2027-01-01T00:00:00Z'));
  return { store, clock, deps: { config: CONFIG, clients: store, grants: store, keys: async () => keys, nowSeconds: clock.nowSeconds } };
}

async function addClient(s: Setup, overrides: Partial<ClientRecord> = {}): Promise<ClientRecord> {
  const now = s.clock.nowSeconds();
  const client: ClientRecord = {
    client_id: `agt_${Math.random().toString(36).slice(2, 12)}`,
    client_secret_sha256: await sha256Hex(SECRET),
    client_name: 'test agent',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    redirect_uris: ['http://127.0.0.1:4000/cb'],
    token_endpoint_auth_method: 'client_secret_post',
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

function tokenRequest(params: Record<string, string>, init: { query?: string; method?: string; headers?: Record<string, string> } = {}) {
  const method = init.method ?? 'POST';
  return new Request(`${ORIGIN}/oauth/token${init.query ?? ''}`, {
    method,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...init.headers },
    ...(method === 'POST' ? { body: new URLSearchParams(params).toString() } : {}),
  });
}

async function call(s: Setup, params: Record<string, string>, init?: Parameters<typeof tokenRequest>[1]) {
  const res = await withOAuthErrors(tokenRequest(params, init), () => handleToken(tokenRequest(params, init), s.deps));
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

/** A consent for `scope` turned into tokens: the code is issued as the consent page would, then redeemed. */
async function consent(s: Setup, client: ClientRecord, scope: string) {
  const code = await issueCode(
    s.store,
    {
      client_id: client.client_id,
      redirect_uri: client.redirect_uris[0]!,
      redirect_uri_in_request: true,
      code_challenge: await sha256Base64url(VERIFIER),
      scope,
      resource: CONFIG.mcpResource,
      subject: 'anon_1',
    },
    s.clock.nowSeconds(),
  );
  return call(s, {
    grant_type: 'authorization_code',
    code,
    code_verifier: VERIFIER,
    redirect_uri: client.redirect_uris[0]!,
    client_id: client.client_id,
    client_secret: SECRET,
  });
}

const refresh = (client: ClientRecord, token: string, extra: Record<string, string> = {}) => ({
  grant_type: 'refresh_token',
  refresh_token: token,
  client_id: client.client_id,
  client_secret: SECRET,
  ...extra,
});

async function claimsOf(s: Setup, accessToken: unknown) {
  const check = await verifyAccessToken(String(accessToken), {
    keys,
    issuer: ORIGIN,
    audience: CONFIG.mcpResource,
    nowSeconds: s.clock.nowSeconds(),
    revocations: s.store,
  });
  if (!check.ok) throw new Error(`token refused: ${check.reason}`);
  return check.claims;
}

describe('POST /oauth/token: requests it refuses before any grant', () => {
  it.each([
    ['GET', {}, { method: 'GET' }, 405, 'invalid_request'],
    ['parameters in the query', { grant_type: 'client_credentials' }, { query: '?grant_type=client_credentials' }, 400, 'invalid_request'],
    ['no grant_type', {}, {}, 400, 'invalid_request'],
    ['an unknown grant_type', { grant_type: 'password' }, {}, 400, 'unsupported_grant_type'],
    ['a JSON body', { grant_type: 'client_credentials' }, { headers: { 'content-type': 'application/json' } }, 400, 'invalid_request'],
    ['no client', { grant_type: 'client_credentials' }, {}, 401, 'invalid_client'],
  ] as const)('%s → %i %s', async (_name, params, init, status, error) => {
    const s = setup();
    const answer = await call(s, params, init);
    expect(answer.status).toBe(status);
    expect(answer.body.error).toBe(error);
    expect(answer.headers.get('cache-control')).toBe('no-store');
  });

  it.each(['gzip', 'br', 'gzip, identity'])(
    'a body with Content-Encoding %s → 415 invalid_request naming it, Accept-Encoding: identity',
    async (coding) => {
      const s = setup();
      const answer = await call(s, { grant_type: 'client_credentials' }, { headers: { 'content-encoding': coding } });
      expect(answer.status).toBe(415);
      expect(answer.body).toEqual({
        error: 'invalid_request',
        error_description: `Content-Encoding ${coding.replace(', identity', '')} is not supported: send the body without a content coding (identity).`,
      });
      expect(answer.headers.get('accept-encoding')).toBe('identity');
    },
  );

  it('a grant the client is not registered for is unauthorized_client', async () => {
    const s = setup();
    const client = await addClient(s, { grant_types: ['authorization_code'] });
    const answer = await call(s, { grant_type: 'client_credentials', client_id: client.client_id, client_secret: SECRET });
    expect(answer).toMatchObject({ status: 400, body: { error: 'unauthorized_client' } });
  });
});

describe('client_credentials', () => {
  it('grants the requested scopes the client registered, for the MCP resource, with no refresh token', async () => {
    const s = setup();
    const client = await addClient(s, { grant_types: ['client_credentials'], scope: ['articles:read'] });
    const answer = await call(s, {
      grant_type: 'client_credentials',
      client_id: client.client_id,
      client_secret: SECRET,
      scope: 'articles:read content:export',
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ token_type: 'Bearer', scope: 'articles:read', expires_in: 3600 });
    expect(answer.body.refresh_token).toBeUndefined();
    const claims = await claimsOf(s, answer.body.access_token);
    expect(claims).toMatchObject({ sub: client.client_id, client_id: client.client_id, scope: 'articles:read', aud: CONFIG.mcpResource });
  });

  it('refuses a scope it is not registered for and another resource', async () => {
    const s = setup();
    const client = await addClient(s, { grant_types: ['client_credentials'], scope: ['articles:read'] });
    const base = { grant_type: 'client_credentials', client_id: client.client_id, client_secret: SECRET };
    expect((await call(s, { ...base, scope: 'content:export' })).body.error).toBe('invalid_scope');
    expect((await call(s, { ...base, resource: 'https://other.example/mcp' })).body.error).toBe('invalid_target');
  });
});

describe('refresh_token', () => {
  it('mints the scope the person consented to, never every scope the client registered', async () => {
    const s = setup();
    const client = await addClient(s);
    const first = await consent(s, client, 'articles:read');
    expect(first).toMatchObject({ status: 200, body: { scope: 'articles:read' } });
    const refreshed = await call(s, refresh(client, String(first.body.refresh_token)));
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.scope).toBe('articles:read');
    expect((await claimsOf(s, refreshed.body.access_token)).scope).toBe('articles:read');
    // Asking for a scope beyond the consent is refused, even though the client registered it.
    const widened = await call(s, refresh(client, String(refreshed.body.refresh_token), { scope: 'content:export' }));
    expect(widened.body.error).toBe('invalid_scope');
  });

  it('may narrow the scope per token', async () => {
    const s = setup();
    const client = await addClient(s);
    const first = await consent(s, client, 'articles:read content:export');
    const narrowed = await call(s, refresh(client, String(first.body.refresh_token), { scope: 'content:export' }));
    expect(narrowed.body.scope).toBe('content:export');
    expect((await claimsOf(s, narrowed.body.access_token)).scope).toBe('content:export');
  });

  it.each([
    ['another resource', { resource: 'https://other.example/mcp' }, 'invalid_target'],
    ['a scope beyond the consent', { scope: 'content:export' }, 'invalid_scope'],
  ] as const)('a refused refresh (%s) leaves the token usable: the corrected retry works and the grant lives', async (_n, extra, error) => {
    const s = setup();
    const client = await addClient(s);
    const first = await consent(s, client, 'articles:read');
    const token = String(first.body.refresh_token);
    expect((await call(s, refresh(client, token, extra))).body.error).toBe(error);
    const grantKeys = await s.store.list('grant/');
    expect((await s.store.get<GrantRecord>(grantKeys[0]!))?.value.refresh?.current_sha256).toBe(await sha256Hex(token));
    const retry = await call(s, refresh(client, token));
    expect(retry.status).toBe(200);
    // The first access token was not revoked by reuse detection.
    await expect(claimsOf(s, first.body.access_token)).resolves.toMatchObject({ scope: 'articles:read' });
  });

  it('a refresh token is bound to its client', async () => {
    const s = setup();
    const owner = await addClient(s);
    const other = await addClient(s);
    const first = await consent(s, owner, 'articles:read');
    expect((await call(s, refresh(other, String(first.body.refresh_token)))).body.error).toBe('invalid_grant');
  });

  it('a spent refresh token presented again revokes the grant and its access tokens', async () => {
    const s = setup();
    const client = await addClient(s);
    const first = await consent(s, client, 'articles:read');
    const token = String(first.body.refresh_token);
    const second = await call(s, refresh(client, token));
    expect(second.status).toBe(200);
    expect((await call(s, refresh(client, token))).body.error).toBe('invalid_grant');
    await expect(claimsOf(s, second.body.access_token)).rejects.toThrow('revoked');
    const grants = await s.store.list('grant/');
    expect((await s.store.get<GrantRecord>(grants[0]!))?.value.revoked_at).not.toBeNull();
  });
});

describe('client bookkeeping', () => {
  it('a use an hour after the last pushes the expiry forward, by the lifetime of the client as stored now', async () => {
    const s = setup();
    const client = await addClient(s, { grant_types: ['client_credentials'] });
    s.clock.advanceSeconds(7200);
    await call(s, { grant_type: 'client_credentials', client_id: client.client_id, client_secret: SECRET });
    const touched = (await s.store.get<ClientRecord>(clientKey(client.client_id)))!.value;
    expect(touched.last_used_at).toBe(s.clock.nowSeconds());
    expect(touched.expires_at).toBe(s.clock.nowSeconds() + UNCLAIMED_CLIENT_TTL_SECONDS);
  });

  it('never reverts a claim approved while the request was in flight', async () => {
    const s = setup();
    const client = await addClient(s, { grant_types: ['client_credentials'] as GrantType[] });
    s.clock.advanceSeconds(7200);
    // The claim lands between the token endpoint's read of the client and its touch.
    const realGet = s.store.get.bind(s.store);
    let reads = 0;
    s.deps = {
      ...s.deps,
      clients: {
        ...s.store,
        get: async <T>(key: string) => {
          const found = await realGet<T>(key);
          if (key === clientKey(client.client_id) && ++reads === 1) {
            const current = (await realGet<ClientRecord>(key))!;
            const claimed: ClientRecord = {
              ...current.value,
              claim: { ...current.value.claim, status: 'claimed', claimed_at: s.clock.nowSeconds() },
              expires_at: s.clock.nowSeconds() + CLAIMED_CLIENT_TTL_SECONDS,
            };
            await s.store.set(key, claimed);
          }
          return found;
        },
      },
    };
    const answer = await call(s, { grant_type: 'client_credentials', client_id: client.client_id, client_secret: SECRET });
    expect(answer.status).toBe(200);
    const stored = (await s.store.get<ClientRecord>(clientKey(client.client_id)))!.value;
    expect(stored.claim.status).toBe('claimed');
    expect(stored.expires_at).toBe(s.clock.nowSeconds() + CLAIMED_CLIENT_TTL_SECONDS);
  });
});

describe('authorization_code: what a redemption must match (every check before the code is spent)', () => {
  /** A code issued for `client` as the consent page would; the token request's defaults match it. */
  async function issued(s: Setup, client: ClientRecord, over: { redirect_uri_in_request?: boolean } = {}) {
    const code = await issueCode(
      s.store,
      {
        client_id: client.client_id,
        redirect_uri: client.redirect_uris[0]!,
        redirect_uri_in_request: over.redirect_uri_in_request ?? true,
        code_challenge: await sha256Base64url(VERIFIER),
        scope: 'articles:read',
        resource: CONFIG.mcpResource,
        subject: 'anon_1',
      },
      s.clock.nowSeconds(),
    );
    const params: Record<string, string> = {
      grant_type: 'authorization_code',
      code,
      code_verifier: VERIFIER,
      redirect_uri: client.redirect_uris[0]!,
      client_id: client.client_id,
      client_secret: SECRET,
    };
    return { code, params };
  }
  const without = (params: Record<string, string>, name: string) => Object.fromEntries(Object.entries(params).filter(([k]) => k !== name));

  it.each([
    ['no code', (p: Record<string, string>) => without(p, 'code'), 'invalid_request', 'code is required.'],
    [
      'no code_verifier',
      (p: Record<string, string>) => without(p, 'code_verifier'),
      'invalid_request',
      'code_verifier is required: this server requires PKCE (S256).',
    ],
    [
      'a verifier of 42 characters',
      (p: Record<string, string>) => ({ ...p, code_verifier: 'v'.repeat(42) }),
      'invalid_request',
      'code_verifier must be 43-128 characters of [A-Za-z0-9-._~] (RFC 7636 §4.1).',
    ],
    [
      'a verifier of 129 characters',
      (p: Record<string, string>) => ({ ...p, code_verifier: 'v'.repeat(129) }),
      'invalid_request',
      'code_verifier must be 43-128',
    ],
    [
      'a verifier with a space',
      (p: Record<string, string>) => ({ ...p, code_verifier: `${'v'.repeat(43)} ` }),
      'invalid_request',
      'code_verifier must be 43-128',
    ],
    [
      'a verifier with a prefix',
      (p: Record<string, string>) => ({ ...p, code_verifier: `+${'v'.repeat(43)}` }),
      'invalid_request',
      'code_verifier must be 43-128',
    ],
    [
      'an unknown code',
      (p: Record<string, string>) => ({ ...p, code: 'x'.repeat(43) }),
      'invalid_grant',
      'The authorization code is not valid.',
    ],
    [
      'another verifier',
      (p: Record<string, string>) => ({ ...p, code_verifier: 'w'.repeat(43) }),
      'invalid_grant',
      'code_verifier does not match the code_challenge.',
    ],
    [
      'another redirect_uri',
      (p: Record<string, string>) => ({ ...p, redirect_uri: 'http://127.0.0.1:4000/other' }),
      'invalid_grant',
      'redirect_uri does not match the one of the authorization request.',
    ],
    [
      'no redirect_uri when the request named one',
      (p: Record<string, string>) => without(p, 'redirect_uri'),
      'invalid_grant',
      'redirect_uri does not match the one of the authorization request.',
    ],
    [
      'another resource',
      (p: Record<string, string>) => ({ ...p, resource: 'https://other.example/mcp' }),
      'invalid_target',
      `resource must be the one authorized: ${CONFIG.mcpResource}.`,
    ],
  ])('%s: %s, and the code still works after', async (_name, change, error, description) => {
    const s = setup();
    const client = await addClient(s);
    const { params } = await issued(s, client);
    const refused = await call(s, change(params));
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe(error);
    expect(String(refused.body.error_description).startsWith(description)).toBe(true);
    expect((await call(s, params)).status).toBe(200);
  });

  it('the right resource, named again, is accepted', async () => {
    const s = setup();
    const client = await addClient(s);
    const { params } = await issued(s, client);
    expect((await call(s, { ...params, resource: CONFIG.mcpResource })).status).toBe(200);
  });

  it('a code for another client is refused', async () => {
    const s = setup();
    const owner = await addClient(s);
    const other = await addClient(s);
    const { params } = await issued(s, owner);
    const refused = await call(s, { ...params, client_id: other.client_id });
    expect(refused.body).toEqual({ error: 'invalid_grant', error_description: 'The authorization code was issued to another client.' });
  });

  it('a code lives 60 s: at its expiry it is refused', async () => {
    const s = setup();
    const client = await addClient(s);
    const { params } = await issued(s, client);
    s.clock.advanceSeconds(60);
    expect((await call(s, params)).body).toEqual({
      error: 'invalid_grant',
      error_description: 'The authorization code has expired (codes are valid for 60 s).',
    });
  });

  it('when the authorization request named no redirect_uri, the token request may omit it, but not name another', async () => {
    const s = setup();
    const client = await addClient(s);
    const first = await issued(s, client, { redirect_uri_in_request: false });
    expect((await call(s, { ...first.params, redirect_uri: 'http://127.0.0.1:4000/other' })).body.error).toBe('invalid_grant');
    expect((await call(s, without(first.params, 'redirect_uri'))).status).toBe(200);
  });

  it('a replayed code is refused and revokes what the first redemption issued', async () => {
    const s = setup();
    const client = await addClient(s);
    const { params } = await issued(s, client);
    const first = await call(s, params);
    expect(first.status).toBe(200);
    expect(await call(s, params)).toMatchObject({
      status: 400,
      body: {
        error: 'invalid_grant',
        error_description: 'The authorization code was already used; the tokens issued from it are revoked.',
      },
    });
    await expect(claimsOf(s, first.body.access_token)).rejects.toThrow('revoked');
  });

  it('a client registered without refresh_token gets no refresh token, and its grant lives one access token long', async () => {
    const s = setup();
    const client = await addClient(s, { grant_types: ['authorization_code'] });
    const { params } = await issued(s, client);
    const answer = await call(s, params);
    expect(answer.body).toMatchObject({ token_type: 'Bearer', scope: 'articles:read', expires_in: 3600 });
    expect(answer.body.refresh_token).toBeUndefined();
    const [key] = await s.store.list('grant/');
    const grant = (await s.store.get<GrantRecord>(key!))!.value;
    expect(grant.ends_at - grant.created_at).toBe(3600);
    expect(grant.access_tokens).toHaveLength(1);
  });

  it('the access token names the consent subject, the client and the MCP resource; the answer says how long it lives', async () => {
    const s = setup();
    const client = await addClient(s);
    const { params } = await issued(s, client);
    const answer = await call(s, params);
    expect(answer.body.expires_in).toBe(3600);
    expect(await claimsOf(s, answer.body.access_token)).toMatchObject({
      sub: 'anon_1',
      client_id: client.client_id,
      aud: CONFIG.mcpResource,
      iss: ORIGIN,
      scope: 'articles:read',
    });
    expect(String(answer.body.refresh_token)).toMatch(/^rt_grt_[\w-]{22}\.[\w-]{43}$/);
  });

  it('an operator’s access token lifetime is used', async () => {
    const s = setup();
    s.deps = { ...s.deps, accessTokenTtlSeconds: 600 };
    const client = await addClient(s);
    const { params } = await issued(s, client);
    expect((await call(s, params)).body.expires_in).toBe(600);
  });
});

describe('token endpoint messages', () => {
  it.each([
    ['GET', {}, { method: 'GET' }, 'Use POST.'],
    [
      'parameters in the query',
      { grant_type: 'client_credentials' },
      { query: '?x=1' },
      'Send parameters in the form body, not the query string.',
    ],
    ['no grant_type', {}, {}, 'grant_type is required.'],
    [
      'an unknown grant_type',
      { grant_type: 'password' },
      {},
      'grant_type "password" is not supported; use client_credentials, authorization_code, refresh_token.',
    ],
  ] as const)('%s', async (_name, params, init, description) => {
    const answer = await call(setup(), params, init);
    expect(answer.body.error_description).toBe(description);
    if (init && 'method' in init) expect(answer.headers.get('allow')).toBe('POST, OPTIONS');
  });

  it('a grant the client did not register, a refresh without its token, a scope it may not have', async () => {
    const s = setup();
    const client = await addClient(s, { grant_types: ['authorization_code'], scope: ['articles:read'] });
    const auth = { client_id: client.client_id, client_secret: SECRET };
    expect((await call(s, { grant_type: 'client_credentials', ...auth })).body.error_description).toBe(
      'This client is not registered for client_credentials.',
    );
    const refresher = await addClient(s);
    expect((await call(s, { grant_type: 'refresh_token', client_id: refresher.client_id, client_secret: SECRET })).body).toEqual({
      error: 'invalid_request',
      error_description: 'refresh_token is required.',
    });
    const machine = await addClient(s, { grant_types: ['client_credentials'], scope: ['articles:read'] });
    const base = { grant_type: 'client_credentials', client_id: machine.client_id, client_secret: SECRET };
    expect((await call(s, { ...base, scope: 'content:export' })).body.error_description).toBe(
      'None of the requested scopes is available to this client; it may request: articles:read.',
    );
    expect((await call(s, { ...base, resource: `${CONFIG.mcpResource}#x` })).body.error_description).toBe(
      `resource must be ${CONFIG.mcpResource}.`,
    );
    expect((await call(s, { ...base, resource: CONFIG.mcpResource })).status).toBe(200);
  });

  it('a refresh naming the grant’s own resource, and a refused one naming it', async () => {
    const s = setup();
    const client = await addClient(s);
    const first = await consent(s, client, 'articles:read');
    const refused = await call(s, refresh(client, String(first.body.refresh_token), { resource: 'https://other.example/mcp' }));
    expect(refused.body.error_description).toBe(`resource must be the one authorized: ${CONFIG.mcpResource}.`);
    const same = await call(s, refresh(client, String(first.body.refresh_token), { resource: CONFIG.mcpResource }));
    expect(same.status).toBe(200);
  });

  it('a refresh of a revoked grant is refused with invalid_grant', async () => {
    const s = setup();
    const client = await addClient(s);
    const first = await consent(s, client, 'articles:read');
    const [key] = await s.store.list('grant/');
    const grant = (await s.store.get<GrantRecord>(key!))!;
    await s.store.set(key!, { ...grant.value, revoked_at: s.clock.nowSeconds() });
    expect((await call(s, refresh(client, String(first.body.refresh_token)))).body.error).toBe('invalid_grant');
  });
});

describe('races the token endpoint survives', () => {
  async function issuedParams(s: Setup, client: ClientRecord) {
    const code = await issueCode(
      s.store,
      {
        client_id: client.client_id,
        redirect_uri: client.redirect_uris[0]!,
        redirect_uri_in_request: true,
        code_challenge: await sha256Base64url(VERIFIER),
        scope: 'articles:read',
        resource: CONFIG.mcpResource,
        subject: 'anon_1',
      },
      s.clock.nowSeconds(),
    );
    return {
      grant_type: 'authorization_code',
      code,
      code_verifier: VERIFIER,
      redirect_uri: client.redirect_uris[0]!,
      client_id: client.client_id,
      client_secret: SECRET,
    };
  }

  it('a replay that revoked the grant before it was written: the redemption fails', async () => {
    const s = setup();
    const client = await addClient(s);
    const params = await issuedParams(s, client);
    // A tombstone is already there: every create-only write of a grant loses.
    s.deps = {
      ...s.deps,
      grants: {
        ...s.store,
        set: (key, value, condition) =>
          key.startsWith('grant/') && condition && 'onlyIfNew' in condition
            ? Promise.resolve({ modified: false })
            : s.store.set(key, value, condition),
      },
    };
    expect((await call(s, params)).body).toEqual({
      error: 'invalid_grant',
      error_description: 'The authorization code was replayed; the tokens issued from it are revoked.',
    });
  });

  it('a grant revoked while its token was being issued: the request fails and the token is revoked', async () => {
    const s = setup();
    const client = await addClient(s);
    const params = await issuedParams(s, client);
    const realGet = s.store.get.bind(s.store);
    s.deps = {
      ...s.deps,
      grants: {
        ...s.store,
        get: async <T>(key: string) => {
          const found = await realGet<T>(key);
          if (!key.startsWith('grant/') || !found) return found;
          return { ...found, value: { ...(found.value as GrantRecord), revoked_at: s.clock.nowSeconds() } as T };
        },
      },
    };
    expect((await call(s, params)).body).toEqual({
      error: 'invalid_grant',
      error_description: 'The grant was revoked while the token was being issued (the code or refresh token was replayed).',
    });
    expect(await s.store.list('revoked/')).toHaveLength(1);
  });

  it('a client registered for refresh_token gets a grant that lives 90 days', async () => {
    const s = setup();
    const client = await addClient(s);
    await call(s, await issuedParams(s, client));
    const [key] = await s.store.list('grant/');
    const grant = (await s.store.get<GrantRecord>(key!))!.value;
    expect(grant.ends_at - grant.created_at).toBe(90 * 86_400);
  });
});

describe('code records', () => {
  it('a code that cannot be stored is a server_error, not a code that does not exist', async () => {
    const s = setup();
    const full: Store = {
      ...s.store,
      set: async (key, value, condition) => (key.startsWith('code/') ? { modified: false } : s.store.set(key, value, condition)),
    };
    await expect(
      issueCode(
        full,
        {
          client_id: 'agt_x',
          redirect_uri: 'http://127.0.0.1/cb',
          redirect_uri_in_request: true,
          code_challenge: 'c',
          scope: 'articles:read',
          resource: 'r',
          subject: 's',
        },
        s.clock.nowSeconds(),
      ),
    ).rejects.toMatchObject({ code: 'server_error', status: 500, message: 'Could not store the authorization code; try again.' });
  });

  it('a redeemed code is remembered while a replay could still revoke its access token', async () => {
    const s = setup();
    const client = await addClient(s);
    const answer = await consent(s, client, 'articles:read');
    expect(answer.status).toBe(200);
    const [code] = await s.store.list('code/');
    const [marker] = await s.store.list('code-used/');
    const issued = (await s.store.get<{ expires_at: number }>(code!))!.value;
    expect((await s.store.get<{ expires_at: number; grant_id: string }>(marker!))?.value).toEqual({
      grant_id: expect.stringMatching(/^grt_[\w-]{22}$/),
      expires_at: issued.expires_at + 3600 + 30,
    });
  });
});
