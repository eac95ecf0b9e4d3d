/** The resource server's bearer check in-process: which Authorization headers carry a token, and what the token must be. */
import { beforeAll, describe, expect, it } from 'vitest';
import { memoryStore } from '../../kernel/memory-store.ts';
import { oauthConfig } from '../config.ts';
import { generateKeyRecord, keySetOf, type KeySet } from './keys.ts';
import { checkBearer } from './resource-server.ts';
import { mintAccessToken, revokeJti } from './tokens.ts';

const ORIGIN = 'https://site.example';
const CONFIG = oauthConfig(ORIGIN);
const T0 = 1_800_000_000;

let keys: KeySet;
let token: string;
let jti: string;
beforeAll(async () => {
  keys = await keySetOf([await generateKeyRecord(T0)], T0);
  const minted = await mintAccessToken(keys, {
    issuer: ORIGIN,
    audience: CONFIG.mcpResource,
    clientId: 'agt_rs',
    subject: 'agt_rs',
    scope: ' articles:read  content:export ',
    nowSeconds: T0,
  });
  token = minted.token;
  jti = minted.claims.jti;
});

const check = (authorization: string | null, revocations = memoryStore(), config = CONFIG) =>
  checkBearer(new Request(`${ORIGIN}/mcp`, { headers: authorization === null ? {} : { authorization } }), {
    config,
    keys: async () => keys,
    revocations,
    nowSeconds: T0 + 10,
  });

describe('checkBearer', () => {
  it('no Authorization header: no credentials', async () => {
    expect(await check(null)).toEqual({ kind: 'none' });
  });

  it.each([
    ['Bearer <token>', (t: string) => `Bearer ${t}`],
    ['bearer in lower case', (t: string) => `bearer ${t}`],
    ['several spaces and a trailing one', (t: string) => `Bearer   ${t} `],
  ])('%s: valid, with the client and its scopes', async (_name, header) => {
    expect(await check(header(token))).toEqual({ kind: 'valid', clientId: 'agt_rs', scopes: ['articles:read', 'content:export'] });
  });

  it.each([
    ['Basic credentials', 'Basic YTpi'],
    ['Bearer without a token', 'Bearer '],
    ['a token with a space inside', 'Bearer abc def'],
    ['a prefix before Bearer', 'xBearer abc'],
    ['a character no token has', 'Bearer abc!'],
  ])('%s: not a bearer token', async (_name, header) => {
    expect(await check(header)).toEqual({ kind: 'invalid', reason: 'not_bearer' });
  });

  it('a revoked token, a token for another resource, garbage: invalid with the reason', async () => {
    const revocations = memoryStore();
    await revokeJti(revocations, jti, T0 + 3600);
    expect(await check(`Bearer ${token}`, revocations)).toEqual({ kind: 'invalid', reason: 'revoked' });
    expect(await check(`Bearer ${token}`, memoryStore(), { ...CONFIG, mcpResource: `${ORIGIN}/other` })).toEqual({
      kind: 'invalid',
      reason: 'wrong_audience',
    });
    expect(await check(`Bearer ${token}`, memoryStore(), { ...CONFIG, issuer: 'https://other.example' })).toEqual({
      kind: 'invalid',
      reason: 'wrong_issuer',
    });
    expect(await check('Bearer a.b.c')).toEqual({ kind: 'invalid', reason: 'malformed' });
  });
});
