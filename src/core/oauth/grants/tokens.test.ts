import { CompactSign, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { useBlobs } from '../../../../tests/support/blobs.ts';
import { ACCESS_TOKEN_TTL_SECONDS } from '../config.ts';
import {
  generateKeyRecord,
  keySetOf,
  liveRecords,
  loadKeyRecords,
  parseKeyRecords,
  RETIRED_KEY_GRACE_SECONDS,
  rotate,
  rotateStoredKeys,
} from './keys.ts';
import { mintAccessToken, revokeJti, verifyAccessToken } from './tokens.ts';
import { CLOCK_SKEW_SECONDS } from '../config.ts';

const blobs = useBlobs();
const ISSUER = 'https://acme.example';
const AUD = 'https://acme.example/mcp';
const T0 = 1_800_000_000;

async function mint(records: Parameters<typeof keySetOf>[0], now: number, overrides: Partial<{ audience: string; issuer: string }> = {}) {
  const keys = await keySetOf(records, now);
  return mintAccessToken(keys, {
    issuer: overrides.issuer ?? ISSUER,
    audience: overrides.audience ?? AUD,
    clientId: 'agt_x',
    subject: 'agt_x',
    scope: 'content:export',
    nowSeconds: now,
  });
}

describe('access tokens', () => {
  it('verify with the right claims and refuse expiry, audience, issuer and revocation', async () => {
    const records = [await generateKeyRecord(T0)];
    const keys = await keySetOf(records, T0);
    const { token, claims } = await mint(records, T0);
    const verify = (now: number, extra: Partial<Parameters<typeof verifyAccessToken>[1]> = {}) =>
      verifyAccessToken(token, { keys, issuer: ISSUER, audience: AUD, nowSeconds: now, revocations: blobs.store('oauth'), ...extra });
    expect(await verify(T0 + 10)).toEqual({ ok: true, claims });
    expect(claims.exp - claims.iat).toBe(ACCESS_TOKEN_TTL_SECONDS);
    expect(await verify(T0 + ACCESS_TOKEN_TTL_SECONDS + 60)).toEqual({ ok: false, reason: 'expired' });
    expect(await verify(T0, { audience: 'https://other.example/mcp' })).toEqual({ ok: false, reason: 'wrong_audience' });
    expect(await verify(T0, { issuer: 'https://other.example' })).toEqual({ ok: false, reason: 'wrong_issuer' });
    await revokeJti(blobs.store('oauth'), claims.jti, claims.exp);
    expect(await verify(T0 + 10)).toEqual({ ok: false, reason: 'revoked' });
    expect(await verifyAccessToken('a.b.c', { keys, issuer: ISSUER, nowSeconds: T0, revocations: null })).toEqual({
      ok: false,
      reason: 'malformed',
    });
  });

  it('rotation: new tokens carry the new kid, old tokens verify until the grace period ends, then fail', async () => {
    const first = [await generateKeyRecord(T0)];
    const old = await mint(first, T0);
    const rotated = await rotate(first, T0 + 100);
    const fresh = await mint(rotated, T0 + 100);
    expect(fresh.token.split('.')[0]).not.toBe(old.token.split('.')[0]);
    const keysNow = await keySetOf(rotated, T0 + 200);
    expect(keysNow.publicJwks).toHaveLength(2);
    expect(
      (await verifyAccessToken(old.token, { keys: keysNow, issuer: ISSUER, audience: AUD, nowSeconds: T0 + 200, revocations: null })).ok,
    ).toBe(true);
    const later = T0 + 100 + RETIRED_KEY_GRACE_SECONDS + 1;
    expect(liveRecords(rotated, later)).toHaveLength(1);
    const keysLater = await keySetOf(rotated, later);
    expect(keysLater.publicJwks).toHaveLength(1);
    expect(
      await verifyAccessToken(old.token, { keys: keysLater, issuer: ISSUER, audience: AUD, nowSeconds: T0 + 200, revocations: null }),
    ).toEqual({ ok: false, reason: 'unknown_key' });
  });

  it('keys come from the environment when set, else one key is created in Blobs on first use and rotated there', async () => {
    const store = blobs.store('keys');
    const [a, b] = await Promise.all([loadKeyRecords({ store, nowSeconds: T0 }), loadKeyRecords({ store, nowSeconds: T0 })]);
    expect(a[0]!.kid).toBe(b[0]!.kid);
    const rotated = await rotateStoredKeys(store, T0 + 5);
    expect(rotated).toHaveLength(2);
    expect((await loadKeyRecords({ store, nowSeconds: T0 + 6 }))[0]!.kid).toBe(rotated[0]!.kid);
    const fromEnv = await loadKeyRecords({ envValue: JSON.stringify(rotated), store, nowSeconds: T0 });
    expect(fromEnv.map((r) => r.kid)).toEqual(rotated.map((r) => r.kid));
    expect(() => parseKeyRecords('{}')).toThrow(/non-empty JSON array/);
    expect(() => parseKeyRecords('[{"kid":"x"}]')).toThrow(/RSA private_jwk/);
  });
});

/** Every claim a token of ours carries, signed by the active key with the header our tokens have. */
const FULL_CLAIMS = {
  iss: ISSUER,
  aud: AUD,
  sub: 'agt_x',
  client_id: 'agt_x',
  scope: 'content:export',
  jti: 'jti-1',
  iat: T0,
  exp: T0 + 3600,
};

async function signed(keys: Awaited<ReturnType<typeof keySetOf>>, claims: Record<string, unknown>, typ = 'at+jwt'): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: keys.active.kid, typ }).sign(keys.active.key);
}

describe('access tokens signed by our key but not minted as ours', () => {
  it.each([
    ['exp', 'missing_claims'],
    ['iat', 'missing_claims'],
    ['jti', 'missing_claims'],
    ['sub', 'missing_claims'],
    ['client_id', 'missing_claims'],
    ['scope', 'missing_claims'],
    ['aud', 'wrong_audience'],
    ['iss', 'wrong_issuer'],
  ] as const)('a token without %s is refused (%s), years after it was issued too', async (claim, reason) => {
    const keys = await keySetOf([await generateKeyRecord(T0)], T0);
    const { [claim]: _dropped, ...claims } = FULL_CLAIMS;
    const token = await signed(keys, claims);
    for (const now of [T0 + 10, T0 + 10 * 365 * 86_400])
      expect(await verifyAccessToken(token, { keys, issuer: ISSUER, audience: AUD, nowSeconds: now, revocations: null })).toEqual({
        ok: false,
        reason,
      });
  });

  it('the complete token verifies (the table above changes one thing at a time)', async () => {
    const keys = await keySetOf([await generateKeyRecord(T0)], T0);
    const check = await verifyAccessToken(await signed(keys, FULL_CLAIMS), {
      keys,
      issuer: ISSUER,
      audience: AUD,
      nowSeconds: T0 + 10,
      revocations: null,
    });
    expect(check).toEqual({ ok: true, claims: FULL_CLAIMS });
  });

  it.each([
    ['client_id is not a string', { client_id: 7 }, 'missing_claims'],
    ['scope is not a string', { scope: ['content:export'] }, 'missing_claims'],
    ['jti is not a string', { jti: 1 }, 'missing_claims'],
    ['sub is not a string', { sub: 5 }, 'missing_claims'],
    ['iat is not a number', { iat: String(T0) }, 'missing_claims'],
    ['iat beyond the allowed skew', { iat: T0 + 10 + CLOCK_SKEW_SECONDS + 1 }, 'issued_in_future'],
    ['expired beyond the allowed skew', { exp: T0 + 10 - CLOCK_SKEW_SECONDS - 1 }, 'expired'],
    ['a foreign typ', {}, 'wrong_type'],
  ] as const)('%s: refused', async (name, change, reason) => {
    const keys = await keySetOf([await generateKeyRecord(T0)], T0);
    const token = await signed(keys, { ...FULL_CLAIMS, ...change }, name === 'a foreign typ' ? 'JWT' : 'at+jwt');
    expect(await verifyAccessToken(token, { keys, issuer: ISSUER, audience: AUD, nowSeconds: T0 + 10, revocations: null })).toEqual({
      ok: false,
      reason,
    });
  });

  it('within the allowed skew a token is still good: iat slightly ahead, exp slightly past', async () => {
    const keys = await keySetOf([await generateKeyRecord(T0)], T0);
    const now = T0 + 100;
    const token = await signed(keys, { ...FULL_CLAIMS, iat: now + CLOCK_SKEW_SECONDS, exp: now - CLOCK_SKEW_SECONDS + 1 });
    expect((await verifyAccessToken(token, { keys, issuer: ISSUER, audience: AUD, nowSeconds: now, revocations: null })).ok).toBe(true);
  });
});

describe('access tokens that are not even JWTs of ours', () => {
  it('a tampered signature is bad_signature; a signed payload that is not a claims object is malformed', async () => {
    const keys = await keySetOf([await generateKeyRecord(T0)], T0);
    const token = await signed(keys, FULL_CLAIMS);
    const [header, payload, signature] = token.split('.');
    const flipped = `${signature!.slice(0, -2)}${signature!.endsWith('AA') ? 'BA' : 'AA'}`;
    const verify = (t: string) => verifyAccessToken(t, { keys, issuer: ISSUER, audience: AUD, nowSeconds: T0 + 10, revocations: null });
    expect(await verify(`${header}.${payload}.${flipped}`)).toEqual({ ok: false, reason: 'bad_signature' });
    const notClaims = await new CompactSign(new TextEncoder().encode('not json'))
      .setProtectedHeader({ alg: 'RS256', kid: keys.active.kid, typ: 'at+jwt' })
      .sign(keys.active.key);
    expect(await verify(notClaims)).toEqual({ ok: false, reason: 'malformed' });
    expect(await verify('not-a-jwt')).toEqual({ ok: false, reason: 'malformed' });
    const unknownKid = await new SignJWT(FULL_CLAIMS).setProtectedHeader({ alg: 'RS256', typ: 'at+jwt' }).sign(keys.active.key);
    expect(await verify(unknownKid)).toEqual({ ok: false, reason: 'unknown_key' });
  });
});
