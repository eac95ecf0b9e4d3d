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
