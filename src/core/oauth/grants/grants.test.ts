import { describe, expect, it } from 'vitest';
import { useBlobs } from '../../../../tests/support/blobs.ts';
import { REFRESH_TOKEN_ABSOLUTE_TTL_SECONDS, REFRESH_TOKEN_IDLE_TTL_SECONDS } from '../config.ts';
import {
  createGrant,
  issueRefreshToken,
  recordAccessToken,
  redeemRefreshToken,
  REFRESH_TOKEN_PREFIX,
  revokeRefreshToken,
  type GrantRecord,
} from './grants.ts';
import { sha256Hex } from '../../kernel/crypto.ts';
import { isRevoked } from './tokens.ts';

const blobs = useBlobs();
const T0 = 1_800_000_000;
let n = 0;

async function newGrant(clientId = 'agt_rt'): Promise<{ grant: GrantRecord; refresh: string }> {
  const store = blobs.store('oauth');
  const grant = (await createGrant(
    store,
    {
      grant_id: `grt_${++n}`,
      client_id: clientId,
      subject: 'anon_1',
      scope: 'articles:read content:export',
      resource: 'https://site.example/mcp',
      refreshable: true,
    },
    T0,
  ))!;
  await recordAccessToken(store, grant.grant_id, { jti: `at-${n}`, exp: T0 + 3600 }, T0);
  return { grant, refresh: await issueRefreshToken(store, grant, T0) };
}

describe('refresh tokens', () => {
  it('are stored only as a digest, bound to the client, and rotate: each is accepted once', async () => {
    const store = blobs.store('oauth');
    const { grant, refresh } = await newGrant();
    expect(refresh.startsWith(REFRESH_TOKEN_PREFIX)).toBe(true);
    const keys = await store.list('refresh/');
    expect(keys).toContain(`refresh/${await sha256Hex(refresh)}`);
    expect(keys.some((k) => k.includes(refresh))).toBe(false);
    await expect(redeemRefreshToken(store, refresh, 'agt_other', T0 + 10)).rejects.toMatchObject({ code: 'invalid_grant' });
    expect((await redeemRefreshToken(store, refresh, 'agt_rt', T0 + 10)).grant_id).toBe(grant.grant_id);
  });

  it('a reused refresh token revokes the whole grant: every access token and the rotated refresh token', async () => {
    const store = blobs.store('oauth');
    const { grant, refresh } = await newGrant();
    await redeemRefreshToken(store, refresh, 'agt_rt', T0 + 10);
    await recordAccessToken(store, grant.grant_id, { jti: 'after-rotation', exp: T0 + 3610 }, T0 + 10);
    const rotated = await issueRefreshToken(store, grant, T0 + 10);
    await expect(redeemRefreshToken(store, refresh, 'agt_rt', T0 + 20)).rejects.toMatchObject({
      code: 'invalid_grant',
      message: expect.stringContaining('already used'),
    });
    expect(await isRevoked(store, `at-${n}`)).toBe(true);
    expect(await isRevoked(store, 'after-rotation')).toBe(true);
    await expect(redeemRefreshToken(store, rotated, 'agt_rt', T0 + 30)).rejects.toMatchObject({
      code: 'invalid_grant',
      message: expect.stringContaining('revoked'),
    });
    // Tokens issued while the grant is revoked are revoked at once.
    expect(await recordAccessToken(store, grant.grant_id, { jti: 'late', exp: T0 + 4000 }, T0 + 40)).toBe(false);
    expect(await isRevoked(store, 'late')).toBe(true);
  });

  it('of 10 concurrent uses of one refresh token at most one wins, and the grant ends revoked', async () => {
    const store = blobs.store('oauth');
    const { grant, refresh } = await newGrant();
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => redeemRefreshToken(store, refresh, 'agt_rt', T0 + 10)));
    expect(results.filter((r) => r.status === 'fulfilled').length).toBeLessThanOrEqual(1);
    expect((await store.get<GrantRecord>(`grant/${grant.grant_id}`))!.value.revoked_at).not.toBeNull();
  });

  it('lapse after the idle lifetime, and never outlive the grant', async () => {
    const store = blobs.store('oauth');
    const { grant, refresh } = await newGrant();
    await expect(redeemRefreshToken(store, refresh, 'agt_rt', T0 + REFRESH_TOKEN_IDLE_TTL_SECONDS)).rejects.toMatchObject({
      code: 'invalid_grant',
      message: expect.stringContaining('expired'),
    });
    expect(grant.ends_at).toBe(T0 + REFRESH_TOKEN_ABSOLUTE_TTL_SECONDS);
    const late = await issueRefreshToken(store, grant, grant.ends_at - 60);
    expect((await store.get<{ expires_at: number }>(`refresh/${await sha256Hex(late)}`))!.value.expires_at).toBe(grant.ends_at);
  });

  it('revoking a refresh token ends the grant; another client cannot revoke it', async () => {
    const store = blobs.store('oauth');
    const { refresh } = await newGrant();
    expect(await revokeRefreshToken(store, refresh, 'agt_other', T0 + 5)).toBe(false);
    expect(await revokeRefreshToken(store, 'not-a-refresh-token', 'agt_rt', T0 + 5)).toBe(false);
    expect(await revokeRefreshToken(store, refresh, 'agt_rt', T0 + 5)).toBe(true);
    expect(await isRevoked(store, `at-${n}`)).toBe(true);
    await expect(redeemRefreshToken(store, refresh, 'agt_rt', T0 + 10)).rejects.toMatchObject({ code: 'invalid_grant' });
  });
});
