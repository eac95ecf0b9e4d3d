import { describe, expect, it } from 'vitest';
import { useBlobs } from '../../../../tests/support/blobs.ts';
import { REFRESH_TOKEN_ABSOLUTE_TTL_SECONDS, REFRESH_TOKEN_IDLE_TTL_SECONDS } from '../config.ts';
import {
  createGrant,
  issueRefreshToken,
  recordAccessToken,
  redeemRefreshToken,
  MAX_LIVE_ACCESS_TOKENS_PER_GRANT,
  newGrantId,
  REFRESH_TOKEN_PREFIX,
  type RefreshTokenRecord,
  revokeRefreshToken,
  SPENT_REFRESH_TOKENS_REMEMBERED,
  type GrantRecord,
} from './grants.ts';
import { sha256Hex } from '../../kernel/crypto.ts';
import { isRevoked } from './tokens.ts';

const blobs = useBlobs();
const T0 = 1_800_000_000;
let n = 0;

async function newGrant(clientId = 'agt_rt'): Promise<{ grant: GrantRecord; refresh: string }> {
  ++n;
  const store = blobs.store('oauth');
  const grant = (await createGrant(
    store,
    {
      grant_id: newGrantId(),
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
  it('are stored only as a digest in their grant, bound to the client, and rotate: each is accepted once', async () => {
    const store = blobs.store('oauth');
    const { grant, refresh } = await newGrant();
    expect(refresh.startsWith(`${REFRESH_TOKEN_PREFIX}${grant.grant_id}.`)).toBe(true);
    const stored = (await store.get<GrantRecord>(`grant/${grant.grant_id}`))!.value;
    expect(stored.refresh?.current_sha256).toBe(await sha256Hex(refresh));
    for (const key of await store.list()) {
      expect(key).not.toContain(refresh.split('.')[1]);
      expect(JSON.stringify((await store.get(key))?.value)).not.toContain(refresh.split('.')[1]);
    }
    await expect(redeemRefreshToken(store, refresh, 'agt_other', T0 + 10)).rejects.toMatchObject({ code: 'invalid_grant' });
    expect((await redeemRefreshToken(store, refresh, 'agt_rt', T0 + 10)).grant_id).toBe(grant.grant_id);
  });

  it('a refresh loop stores nothing new: one grant record, its spent digests capped, its live tokens capped', async () => {
    const store = blobs.store('oauth');
    const { grant, refresh } = await newGrant();
    const keysBefore = (await store.list()).length;
    let token = refresh;
    let now = T0 + 10;
    let limited: unknown;
    for (let i = 0; i < MAX_LIVE_ACCESS_TOKENS_PER_GRANT + 5; i++) {
      try {
        await redeemRefreshToken(store, token, 'agt_rt', now);
      } catch (error) {
        limited = error;
        break;
      }
      await recordAccessToken(store, grant.grant_id, { jti: `loop-${n}-${i}`, exp: now + 3600 }, now);
      token = await issueRefreshToken(store, grant, now);
      now += 1;
    }
    // The grant already had one live token; the cap refuses the refresh that would pass it, and says when to retry.
    expect(limited).toMatchObject({ code: 'rate_limited', status: 429, headers: { 'retry-after': expect.stringMatching(/^\d+$/) } });
    const stored = (await store.get<GrantRecord>(`grant/${grant.grant_id}`))!.value;
    expect(stored.access_tokens.length).toBe(MAX_LIVE_ACCESS_TOKENS_PER_GRANT);
    expect(stored.refresh!.spent_sha256.length).toBe(SPENT_REFRESH_TOKENS_REMEMBERED);
    expect((await store.list()).length).toBe(keysBefore);
    // The refused token was not spent: once the oldest access token has expired it refreshes.
    expect((await redeemRefreshToken(store, token, 'agt_rt', T0 + 3600 + 11)).grant_id).toBe(grant.grant_id);
  });

  it('a token from before tokens named their grant (a refresh/ record) still rotates once and detects reuse', async () => {
    const store = blobs.store('oauth');
    const { grant } = await newGrant();
    const legacy = `${REFRESH_TOKEN_PREFIX}${'L'.repeat(43)}${n}`;
    await store.set(`refresh/${await sha256Hex(legacy)}`, {
      grant_id: grant.grant_id,
      client_id: 'agt_rt',
      issued_at: T0,
      expires_at: T0 + 3600,
      used_at: null,
    } satisfies RefreshTokenRecord);
    expect((await redeemRefreshToken(store, legacy, 'agt_rt', T0 + 10)).grant_id).toBe(grant.grant_id);
    await expect(redeemRefreshToken(store, legacy, 'agt_rt', T0 + 20)).rejects.toMatchObject({
      message: expect.stringContaining('already used'),
    });
    expect((await store.get<GrantRecord>(`grant/${grant.grant_id}`))!.value.revoked_at).not.toBeNull();
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
    const stored = (await store.get<GrantRecord>(`grant/${grant.grant_id}`))!.value.refresh!;
    expect(stored).toMatchObject({ current_sha256: await sha256Hex(late), expires_at: grant.ends_at });
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
