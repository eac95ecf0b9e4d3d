/**
 * `POST /oauth/revoke` in-process (RFC 7009): what a client may revoke, and that everything else is a
 * quiet 200, with the memory store and a fake clock.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../kernel/crypto.ts';
import { fakeClock, memoryStore } from '../../kernel/memory-store.ts';
import type { Store } from '../../kernel/store.ts';
import { oauthConfig, UNCLAIMED_CLIENT_TTL_SECONDS } from '../config.ts';
import type { OAuthDeps } from '../deps.ts';
import { withOAuthErrors } from '../errors.ts';
import { clientKey, type ClientRecord } from '../grants/clients.ts';
import { createGrant, issueRefreshToken, newGrantId, recordAccessToken } from '../grants/grants.ts';
import { generateKeyRecord, keySetOf, type KeySet } from '../grants/keys.ts';
import { isRevoked, mintAccessToken } from '../grants/tokens.ts';
import { handleRevoke } from './revoke.ts';

const ORIGIN = 'https://site.example';
const CONFIG = oauthConfig(ORIGIN);
const SECRET = 'the-client-secret';

let keys: KeySet;
let foreignKeys: KeySet;
beforeAll(async () => {
  [keys, foreignKeys] = await Promise.all([
    generateKeyRecord(1_800_000_000).then((r) => keySetOf([r], 1_800_000_000)),
    generateKeyRecord(1_800_000_000).then((r) => keySetOf([r], 1_800_000_000)),
  ]);
});

function setup() {
  const store = memoryStore();
  const clock = fakeClock(new Date('2027-01-01T00:00:00Z'));
  const deps: OAuthDeps = { config: CONFIG, clients: store, grants: store, keys: async () => keys, nowSeconds: clock.nowSeconds };
  return { store, clock, deps };
}

async function addClient(store: Store, now: number, id: string): Promise<ClientRecord> {
  const client: ClientRecord = {
    client_id: id,
    client_secret_sha256: await sha256Hex(SECRET),
    client_name: id,
    grant_types: ['client_credentials', 'authorization_code', 'refresh_token'],
    response_types: ['code'],
    redirect_uris: ['http://127.0.0.1/cb'],
    token_endpoint_auth_method: 'client_secret_post',
    scope: ['articles:read'],
    client_id_issued_at: now,
    registration_type: 'anonymous',
    claim: { status: 'unclaimed', token_sha256: null, token_expires_at: now },
    expires_at: now + UNCLAIMED_CLIENT_TTL_SECONDS,
    last_used_at: now,
  };
  await store.set(clientKey(id), client);
  return client;
}

async function revoke(deps: OAuthDeps, params: Record<string, string>, method = 'POST') {
  const req = () =>
    new Request(`${ORIGIN}/oauth/revoke`, {
      method,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      ...(method === 'POST' ? { body: new URLSearchParams(params).toString() } : {}),
    });
  const res = await withOAuthErrors(req(), () => handleRevoke(req(), deps));
  return { status: res.status, headers: res.headers, body: await res.json() };
}

async function accessToken(clientId: string, now: number, signer = keys) {
  return mintAccessToken(signer, {
    issuer: ORIGIN,
    audience: CONFIG.mcpResource,
    clientId,
    subject: clientId,
    scope: 'articles:read',
    nowSeconds: now,
  });
}

describe('POST /oauth/revoke', () => {
  it('an access token of the client goes on the revocation list until it would have expired', async () => {
    const { store, clock, deps } = setup();
    await addClient(store, clock.nowSeconds(), 'agt_owner');
    const { token, claims } = await accessToken('agt_owner', clock.nowSeconds());
    const answer = await revoke(deps, { token, client_id: 'agt_owner', client_secret: SECRET });
    expect(answer).toMatchObject({ status: 200, body: {} });
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(await isRevoked(store, claims.jti)).toBe(true);
    expect((await store.get<{ exp: number }>(`revoked/${claims.jti}`))?.value.exp).toBe(claims.exp);
  });

  it.each([
    ['another client', 'agt_other', (id: string, now: number) => accessToken(id === 'agt_other' ? 'agt_owner' : id, now)],
    ['a token signed by a key that is not ours', 'agt_owner', (id: string, now: number) => accessToken(id, now, foreignKeys)],
  ])('a token of %s: 200, and it stays valid', async (_name, caller, make) => {
    const { store, clock, deps } = setup();
    await addClient(store, clock.nowSeconds(), 'agt_owner');
    await addClient(store, clock.nowSeconds(), 'agt_other');
    const { token, claims } = await make(caller, clock.nowSeconds());
    expect((await revoke(deps, { token, client_id: caller, client_secret: SECRET })).status).toBe(200);
    expect(await isRevoked(store, claims.jti)).toBe(false);
  });

  it('an expired token is not listed (it is refused anyway); garbage is a quiet 200', async () => {
    const { store, clock, deps } = setup();
    await addClient(store, clock.nowSeconds(), 'agt_owner');
    const { token, claims } = await accessToken('agt_owner', clock.nowSeconds());
    clock.advanceSeconds(claims.exp - claims.iat);
    expect((await revoke(deps, { token, client_id: 'agt_owner', client_secret: SECRET })).status).toBe(200);
    expect(await store.list('revoked/')).toEqual([]);
    expect((await revoke(deps, { token: 'garbage', client_id: 'agt_owner', client_secret: SECRET })).status).toBe(200);
    expect(await store.list('revoked/')).toEqual([]);
  });

  it('a refresh token of the client ends its grant and the access tokens under it', async () => {
    const { store, clock, deps } = setup();
    const now = clock.nowSeconds();
    await addClient(store, now, 'agt_owner');
    const grant = (await createGrant(
      store,
      {
        grant_id: newGrantId(),
        client_id: 'agt_owner',
        subject: 'anon_1',
        scope: 'articles:read',
        resource: CONFIG.mcpResource,
        refreshable: true,
      },
      now,
    ))!;
    await recordAccessToken(store, grant.grant_id, { jti: 'under-grant', exp: now + 3600 }, now);
    const refresh = await issueRefreshToken(store, grant, now);
    expect((await revoke(deps, { token: refresh, client_id: 'agt_owner', client_secret: SECRET })).status).toBe(200);
    expect(await isRevoked(store, 'under-grant')).toBe(true);
  });

  it.each([
    ['GET', {}, 'GET', 405, 'invalid_request', 'Use POST.'],
    ['no token', { client_id: 'agt_owner', client_secret: SECRET }, 'POST', 400, 'invalid_request', 'token is required.'],
    [
      'a wrong secret',
      { token: 'x', client_id: 'agt_owner', client_secret: 'nope' },
      'POST',
      401,
      'invalid_client',
      'Client authentication failed.',
    ],
  ])('%s: %i %s', async (_name, params, method, status, error, description) => {
    const { store, clock, deps } = setup();
    await addClient(store, clock.nowSeconds(), 'agt_owner');
    const answer = await revoke(deps, params, method);
    expect(answer.status).toBe(status);
    expect(answer.body).toEqual({ error, error_description: description });
    if (status === 405) expect(answer.headers.get('allow')).toBe('POST, OPTIONS');
  });
});
