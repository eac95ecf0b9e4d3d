/** `POST /oauth/revoke` (RFC 7009) in-process: who may revoke what, and what a revocation reaches. */
import { beforeAll, describe, expect, it } from 'vitest';
import { useBlobs } from '../../../../tests/support/blobs.ts';
import { sha256Hex } from '../../kernel/crypto.ts';
import { fakeClock, memoryStore } from '../../kernel/memory-store.ts';
import { shardKeys } from '../../kernel/rate-limit.ts';
import type { Store } from '../../kernel/store.ts';
import { oauthConfig, UNCLAIMED_CLIENT_TTL_SECONDS } from '../config.ts';
import { withOAuthErrors } from '../errors.ts';
import { clientKey, type ClientRecord } from '../grants/clients.ts';
import { createGrant, type GrantRecord, issueRefreshToken, recordAccessToken } from '../grants/grants.ts';
import { generateKeyRecord, keySetOf, type KeySet } from '../grants/keys.ts';
import { isRevoked, mintAccessToken } from '../grants/tokens.ts';
import { handleRevoke, REVOCATION_RATE_LIMIT, type RevokeDeps } from './revoke.ts';

const blobs = useBlobs();
const ORIGIN = 'https://site.example';
const CONFIG = oauthConfig(ORIGIN);
const SECRET = 'revoke-test-secret';
let keys: KeySet;
let foreignKeys: KeySet;
beforeAll(async () => {
  [keys, foreignKeys] = await Promise.all([
    generateKeyRecord(1_800_000_000).then((r) => keySetOf([r], 1_800_000_000)),
    generateKeyRecord(1_800_000_000).then((r) => keySetOf([r], 1_800_000_000)),
  ]);
});

function setup() {
  const store: Store = memoryStore();
  const clock = fakeClock(new Date('2027-02-01T00:00:00Z'));
  const limits: Store = memoryStore();
  const deps: RevokeDeps = {
    config: CONFIG,
    clients: store,
    grants: store,
    keys: async () => keys,
    nowSeconds: clock.nowSeconds,
    limits,
    clientNetworkDigest: async () => 'net-a',
  };
  return { store, clock, deps, limits };
}

async function addClient(store: Store, now: number, id: string): Promise<ClientRecord> {
  const client: ClientRecord = {
    client_id: id,
    client_secret_sha256: await sha256Hex(SECRET),
    client_name: id,
    grant_types: ['client_credentials', 'authorization_code', 'refresh_token'],
    response_types: ['code'],
    redirect_uris: ['http://127.0.0.1:4000/cb'],
    token_endpoint_auth_method: 'client_secret_post',
    scope: ['articles:read', 'content:export'],
    client_id_issued_at: now,
    registration_type: 'anonymous',
    claim: { status: 'unclaimed', token_sha256: null, token_expires_at: now },
    expires_at: now + UNCLAIMED_CLIENT_TTL_SECONDS,
    last_used_at: now,
  };
  await store.set(clientKey(id), client);
  return client;
}

const mint = (clientId: string, now: number, signer = keys) =>
  mintAccessToken(signer, {
    issuer: ORIGIN,
    audience: CONFIG.mcpResource,
    clientId,
    subject: clientId,
    scope: 'articles:read',
    nowSeconds: now,
  });

async function revoke(deps: RevokeDeps, params: Record<string, string>, init: { method?: string; type?: string } = {}) {
  const req = () =>
    new Request(`${ORIGIN}/oauth/revoke`, {
      method: init.method ?? 'POST',
      headers: { 'content-type': init.type ?? 'application/x-www-form-urlencoded' },
      ...((init.method ?? 'POST') === 'POST' ? { body: new URLSearchParams(params).toString() } : {}),
    });
  const res = await withOAuthErrors(req(), () => handleRevoke(req(), deps));
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, headers: res.headers };
}

describe('POST /oauth/revoke', () => {
  it.each([
    ['GET', {}, { method: 'GET' }, 405, 'invalid_request'],
    ['a JSON body', {}, { type: 'application/json' }, 400, 'invalid_request'],
    ['no client', { token: 'x' }, {}, 401, 'invalid_client'],
  ] as const)('refuses %s (%i %s)', async (_name, params, init, status, error) => {
    const { deps } = setup();
    const answer = await revoke(deps, params, init);
    expect(answer).toMatchObject({ status, body: { error } });
  });

  it.each([
    ['GET', {}, { method: 'GET' }, 405, 'invalid_request', 'Use POST.'],
    ['no token', { client_id: 'agt_a', client_secret: SECRET }, {}, 400, 'invalid_request', 'token is required.'],
    [
      'a wrong secret',
      { token: 'x', client_id: 'agt_a', client_secret: 'nope' },
      {},
      401,
      'invalid_client',
      'Client authentication failed.',
    ],
  ] as const)('%s: %i %s, with its description', async (_name, params, init, status, error, description) => {
    const { deps, store, clock } = setup();
    await addClient(store, clock.nowSeconds(), 'agt_a');
    const answer = await revoke(deps, params, init);
    expect(answer.status).toBe(status);
    expect(answer.body).toEqual({ error, error_description: description });
    if (status === 405) expect(answer.headers.get('allow')).toBe('POST, OPTIONS');
  });

  it('lists a revoked access token until its own expiry, and the answer is not cached', async () => {
    const { deps, store, clock } = setup();
    await addClient(store, clock.nowSeconds(), 'agt_a');
    const { token, claims } = await mint('agt_a', clock.nowSeconds());
    const answer = await revoke(deps, { token, client_id: 'agt_a', client_secret: SECRET });
    expect(answer).toMatchObject({ status: 200, body: {} });
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect((await store.get<{ exp: number }>(`revoked/${claims.jti}`))?.value.exp).toBe(claims.exp);
  });

  it('a token signed by a key that is not ours: 200, and nothing is listed', async () => {
    const { deps, store, clock } = setup();
    await addClient(store, clock.nowSeconds(), 'agt_a');
    const { token, claims } = await mint('agt_a', clock.nowSeconds(), foreignKeys);
    expect((await revoke(deps, { token, client_id: 'agt_a', client_secret: SECRET })).status).toBe(200);
    expect(await isRevoked(store, claims.jti)).toBe(false);
  });

  it('requires the token', async () => {
    const { deps, store, clock } = setup();
    await addClient(store, clock.nowSeconds(), 'agt_a');
    expect((await revoke(deps, { client_id: 'agt_a', client_secret: SECRET })).body.error).toBe('invalid_request');
  });

  it("revokes the client's own access token until it would have expired; another client's token is untouched (200 either way)", async () => {
    const { deps, store, clock } = setup();
    const now = clock.nowSeconds();
    await addClient(store, now, 'agt_a');
    await addClient(store, now, 'agt_b');
    const own = await mint('agt_a', now);
    const foreign = await mint('agt_b', now);
    expect(await revoke(deps, { token: foreign.token, client_id: 'agt_a', client_secret: SECRET })).toMatchObject({
      status: 200,
      body: {},
    });
    expect(await isRevoked(store, foreign.claims.jti)).toBe(false);
    expect((await revoke(deps, { token: own.token, client_id: 'agt_a', client_secret: SECRET })).status).toBe(200);
    expect(await isRevoked(store, own.claims.jti)).toBe(true);
  });

  it('a refresh token ends its whole grant, the access tokens under it included; a foreign one ends nothing', async () => {
    const { deps, store, clock } = setup();
    const now = clock.nowSeconds();
    await addClient(store, now, 'agt_a');
    await addClient(store, now, 'agt_b');
    const grant = (await createGrant(
      store,
      {
        grant_id: 'grt_AAAAAAAAAAAAAAAAAAAAAA',
        client_id: 'agt_a',
        subject: 'anon',
        scope: 'articles:read',
        resource: CONFIG.mcpResource,
        refreshable: true,
      },
      now,
    ))!;
    await recordAccessToken(store, grant.grant_id, { jti: 'under-grant', exp: now + 3600 }, now);
    const refresh = await issueRefreshToken(store, grant, now);
    await revoke(deps, { token: refresh, client_id: 'agt_b', client_secret: SECRET });
    expect((await store.get<GrantRecord>(`grant/${grant.grant_id}`))!.value.revoked_at).toBeNull();
    expect(
      (await revoke(deps, { token: refresh, token_type_hint: 'refresh_token', client_id: 'agt_a', client_secret: SECRET })).status,
    ).toBe(200);
    expect((await store.get<GrantRecord>(`grant/${grant.grant_id}`))!.value.revoked_at).not.toBeNull();
    expect(await isRevoked(store, 'under-grant')).toBe(true);
  });

  it('garbage, an expired token and an unknown hint all answer 200 {} (RFC 7009 §2.2) and revoke nothing', async () => {
    const { deps, store, clock } = setup();
    const now = clock.nowSeconds();
    await addClient(store, now, 'agt_a');
    const old = await mint('agt_a', now - 7200);
    const cases: Record<string, string>[] = [{ token: 'not-a-token' }, { token: old.token }, { token: 'x', token_type_hint: 'id_token' }];
    for (const params of cases)
      expect(await revoke(deps, { ...params, client_id: 'agt_a', client_secret: SECRET })).toMatchObject({ status: 200, body: {} });
    expect(await store.list('revoked/')).toEqual([]);
  });

  it("revocations sent all at once (on real Blobs): every one within the hour's limit is listed, only those past it are refused", async () => {
    // s10a: 70 at once were refused 51 times "at most 60 … per hour" (the memory store's writes never interleave here).
    const { deps: memoryDeps, store, clock } = setup();
    const deps = { ...memoryDeps, limits: blobs.store('ratelimit') };
    const now = clock.nowSeconds();
    await addClient(store, now, 'agt_a');
    const extra = 10;
    const tokens = await Promise.all(Array.from({ length: REVOCATION_RATE_LIMIT.limit + extra }, () => mint('agt_a', now)));
    const answers = await Promise.all(tokens.map(({ token }) => revoke(deps, { token, client_id: 'agt_a', client_secret: SECRET })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(REVOCATION_RATE_LIMIT.limit);
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused).toHaveLength(extra);
    for (const answer of refused) {
      expect(answer.status).toBe(429);
      expect(answer.body.error_description).toMatch(/^At most 60 access tokens revoked per hour per client network/);
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(3500);
    }
    expect(await store.list('revoked/')).toHaveLength(REVOCATION_RATE_LIMIT.limit);
  });

  it('a revocation whose count kept losing to other writers is refused as busy, not as a used-up hour', async () => {
    const { deps, store, clock, limits } = setup();
    const now = clock.nowSeconds();
    await addClient(store, now, 'agt_a');
    const { token, claims } = await mint('agt_a', now);
    const contended: Store = {
      ...limits,
      set: async (key, value, condition) => (condition ? { modified: false } : limits.set(key, value)),
    };
    const busy = await revoke({ ...deps, limits: contended }, { token, client_id: 'agt_a', client_secret: SECRET });
    expect(busy.status).toBe(429);
    expect(busy.body).toMatchObject({ error: 'rate_limited' });
    expect(busy.body.error_description).toBe(
      'Revocation is busy (too many requests counted at the same moment); retry in 1 s. None of the allowance was used. The token stays valid until it is revoked or expires.',
    );
    expect(busy.headers.get('retry-after')).toBe('1');
    expect(await isRevoked(store, claims.jti)).toBe(false);
  }, 10_000);

  it("bounds what one network can list: the listing past the hour's limit is 429 rate_limited with Retry-After, and stores nothing", async () => {
    const { deps, store, clock } = setup();
    const now = clock.nowSeconds();
    await addClient(store, now, 'agt_a');
    await addClient(store, now, 'agt_b');
    for (let i = 0; i < REVOCATION_RATE_LIMIT.limit; i++) {
      const clientId = i % 2 ? 'agt_a' : 'agt_b';
      const { token } = await mint(clientId, now);
      expect((await revoke(deps, { token, client_id: clientId, client_secret: SECRET })).status).toBe(200);
    }
    expect(await store.list('revoked/')).toHaveLength(REVOCATION_RATE_LIMIT.limit);
    // Another client on the same network shares the window: registering more clients buys nothing.
    await addClient(store, now, 'agt_c');
    const { token, claims } = await mint('agt_c', now);
    const refused = await revoke(deps, { token, client_id: 'agt_c', client_secret: SECRET });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ error: 'rate_limited' });
    expect(refused.body.error_description).toMatch(/At most 60 access tokens revoked per hour per client network.*retry in 3600 s/);
    expect(refused.headers.get('retry-after')).toBe('3600');
    expect(await isRevoked(store, claims.jti)).toBe(false);
    expect(await store.list('revoked/')).toHaveLength(REVOCATION_RATE_LIMIT.limit);
    // Another network has its own window; the first one's reopens after the hour.
    const other = await revoke({ ...deps, clientNetworkDigest: async () => 'net-b' }, { token, client_id: 'agt_c', client_secret: SECRET });
    expect(other.status).toBe(200);
    expect(await isRevoked(store, claims.jti)).toBe(true);
    clock.advanceSeconds(REVOCATION_RATE_LIMIT.windowSeconds);
    const later = await mint('agt_c', clock.nowSeconds());
    expect((await revoke(deps, { token: later.token, client_id: 'agt_c', client_secret: SECRET })).status).toBe(200);
  });

  it('a revocation that lists nothing takes nothing from the limit: unknown, foreign, expired or already revoked tokens, at any pace', async () => {
    const { deps, store, clock, limits } = setup();
    const now = clock.nowSeconds();
    await addClient(store, now, 'agt_a');
    await addClient(store, now, 'agt_b');
    const own = await mint('agt_a', now);
    const foreign = await mint('agt_b', now);
    const expired = await mint('agt_a', now - 7200);
    expect((await revoke(deps, { token: own.token, client_id: 'agt_a', client_secret: SECRET })).status).toBe(200);
    const windows = await limits.list('');
    for (let i = 0; i < REVOCATION_RATE_LIMIT.limit + 5; i++) {
      for (const token of [own.token, foreign.token, expired.token, 'not-a-token'])
        expect(await revoke(deps, { token, client_id: 'agt_a', client_secret: SECRET })).toMatchObject({ status: 200, body: {} });
    }
    expect(await store.list('revoked/')).toHaveLength(1);
    expect(await limits.list('')).toEqual(windows);
    const counts = await Promise.all(
      shardKeys('revoke/net-a', REVOCATION_RATE_LIMIT.limit).map(
        async (key) => (await limits.get<{ count: number }>(key))?.value.count ?? 0,
      ),
    );
    expect(counts.reduce((a, b) => a + b)).toBe(1);
  });
});
