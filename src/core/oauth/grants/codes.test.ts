import { describe, expect, it } from 'vitest';
import { useBlobs } from '../../../../tests/support/blobs.ts';
import { AUTHORIZATION_CODE_TTL_SECONDS } from '../config.ts';
import type { ClientRecord } from './clients.ts';
import { issueCode, redeemCode } from './codes.ts';
import { OAuthError } from '../errors.ts';
import { createGrant, recordAccessToken } from './grants.ts';
import { sha256Base64url, sha256Hex } from '../../kernel/crypto.ts';
import { isRevoked } from './tokens.ts';

const blobs = useBlobs();
const T0 = 1_800_000_000;
const VERIFIER = 'v'.repeat(43);
const client = { client_id: 'agt_codes' } as ClientRecord;

async function newCode(now = T0) {
  return issueCode(
    blobs.store('oauth'),
    {
      client_id: client.client_id,
      redirect_uri: 'https://app.example/cb',
      redirect_uri_in_request: true,
      code_challenge: await sha256Base64url(VERIFIER),
      scope: 'content:export',
      resource: 'https://site.example/mcp',
      subject: 'anon_1',
    },
    now,
  );
}
const form = (code: string) =>
  new Map([
    ['code', code],
    ['code_verifier', VERIFIER],
    ['redirect_uri', 'https://app.example/cb'],
  ]);
const redeem = (code: string, now: number) => redeemCode(form(code), client, { grants: blobs.store('oauth'), nowSeconds: () => now });

describe('authorization codes', () => {
  it('are stored only as a digest, with a lifetime of at most 60 s', async () => {
    const code = await newCode();
    expect(code.length).toBeGreaterThanOrEqual(43);
    const keys = await blobs.store('oauth').list('code/');
    expect(keys).toContain(`code/${await sha256Hex(code)}`);
    expect(keys.some((k) => k.includes(code))).toBe(false);
    expect(AUTHORIZATION_CODE_TTL_SECONDS).toBeLessThanOrEqual(60);
  });

  it('expire after their lifetime', async () => {
    const code = await newCode();
    await expect(redeem(code, T0 + AUTHORIZATION_CODE_TTL_SECONDS)).rejects.toMatchObject({
      code: 'invalid_grant',
      message: expect.stringContaining('expired'),
    });
    expect((await redeem(code, T0 + AUTHORIZATION_CODE_TTL_SECONDS - 1)).scope).toBe('content:export');
  });

  it('a replay after a successful redemption revokes the grant and the tokens issued under it', async () => {
    const store = blobs.store('oauth');
    const code = await newCode();
    const first = await redeem(code, T0 + 1);
    expect(
      await createGrant(
        store,
        {
          grant_id: first.grantId,
          client_id: client.client_id,
          subject: first.subject,
          scope: first.scope,
          resource: first.resource,
          refreshable: true,
        },
        T0 + 1,
      ),
    ).not.toBeNull();
    expect(await recordAccessToken(store, first.grantId, { jti: 'jti-a', exp: T0 + 3600 }, T0 + 1)).toBe(true);
    await expect(redeem(code, T0 + 2)).rejects.toBeInstanceOf(OAuthError);
    expect(await isRevoked(store, 'jti-a')).toBe(true);
  });

  it('a replay that races the first redemption leaves a revoked tombstone: the grant cannot be created', async () => {
    const store = blobs.store('oauth');
    const code = await newCode();
    const first = await redeem(code, T0 + 1);
    // The replay lands between consumption and the grant being written.
    await expect(redeem(code, T0 + 1)).rejects.toMatchObject({ code: 'invalid_grant' });
    expect(
      await createGrant(
        store,
        {
          grant_id: first.grantId,
          client_id: client.client_id,
          subject: first.subject,
          scope: first.scope,
          resource: first.resource,
          refreshable: true,
        },
        T0 + 1,
      ),
    ).toBeNull();
    expect(await recordAccessToken(store, first.grantId, { jti: 'jti-b', exp: T0 + 3600 }, T0 + 1)).toBe(false);
    expect(await isRevoked(store, 'jti-b')).toBe(true);
  });

  it('of 20 concurrent redemptions exactly one wins', async () => {
    const code = await newCode();
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => redeem(code, T0 + 1)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'invalid_grant' });
  });
});
