import { describe, expect, it } from 'vitest';
import { useBlobs } from '../../../../tests/support/blobs.ts';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  CLOCK_SKEW_SECONDS,
  REFRESH_TOKEN_ABSOLUTE_TTL_SECONDS,
  REFRESH_TOKEN_IDLE_TTL_SECONDS,
} from '../config.ts';
import { memoryStore } from '../../kernel/memory-store.ts';
import type { Store } from '../../kernel/store.ts';
import type { OAuthError } from '../errors.ts';
import {
  createGrant,
  grantKey,
  grantKeepUntil,
  refreshKey,
  revokeGrant,
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

describe('grants on the memory store: every rule, at its boundary', () => {
  const T = 1_900_000_000;
  const input = (over: Partial<GrantRecord> = {}) => ({
    grant_id: newGrantId(),
    client_id: 'agt_m',
    subject: 'anon_m',
    scope: 'articles:read',
    resource: 'https://site.example/mcp',
    refreshable: true,
    ...over,
  });
  const read = async (store: Store, id: string) => (await store.get<GrantRecord>(grantKey(id)))!.value;
  /** A store whose every conditional write loses (another writer always came first). */
  const contended = (inner: Store): Store => ({
    ...inner,
    set: async (key, value, condition) => (condition ? { modified: false } : inner.set(key, value, condition)),
  });

  it('a grant is kept until its end plus the last access token’s life and the clock skew', () => {
    expect(grantKeepUntil({ ends_at: T })).toBe(T + ACCESS_TOKEN_TTL_SECONDS + CLOCK_SKEW_SECONDS);
  });

  it('createGrant: no tokens yet, not revoked; a refreshable grant lives 90 days, another one access token; an id is used once', async () => {
    const store = memoryStore();
    const refreshable = (await createGrant(store, input(), T))!;
    expect(refreshable).toMatchObject({
      created_at: T,
      ends_at: T + REFRESH_TOKEN_ABSOLUTE_TTL_SECONDS,
      revoked_at: null,
      access_tokens: [],
    });
    expect(refreshable).not.toHaveProperty('refreshable');
    expect(await read(store, refreshable.grant_id)).toEqual(refreshable);
    const once = (await createGrant(store, input({ refreshable: false } as never), T))!;
    expect(once.ends_at).toBe(T + ACCESS_TOKEN_TTL_SECONDS);
    expect(await createGrant(store, input({ grant_id: once.grant_id }), T)).toBeNull();
    const day = new Date((T + ACCESS_TOKEN_TTL_SECONDS * 2 + CLOCK_SKEW_SECONDS) * 1000).toISOString().slice(0, 10);
    expect(await store.list(`expires/${day}/`)).toContain(`expires/${day}/${grantKey(once.grant_id)}`);
  });

  it('recordAccessToken: adds the token and forgets those expired by now (one expiring now included)', async () => {
    const store = memoryStore();
    const grant = (await createGrant(store, input(), T))!;
    expect(await recordAccessToken(store, grant.grant_id, { jti: 'a', exp: T + 10 }, T)).toBe(true);
    expect(await recordAccessToken(store, grant.grant_id, { jti: 'b', exp: T + 20 }, T + 5)).toBe(true);
    expect(await recordAccessToken(store, grant.grant_id, { jti: 'c', exp: T + 30 }, T + 10)).toBe(true);
    expect((await read(store, grant.grant_id)).access_tokens).toEqual([
      { jti: 'b', exp: T + 20 },
      { jti: 'c', exp: T + 30 },
    ]);
  });

  it('recordAccessToken: a missing or revoked grant refuses the token and revokes it', async () => {
    const store = memoryStore();
    expect(await recordAccessToken(store, 'grt_missing', { jti: 'x', exp: T + 10 }, T)).toBe(false);
    expect(await isRevoked(store, 'x')).toBe(true);
    const grant = (await createGrant(store, input(), T))!;
    await revokeGrant(store, grant.grant_id, T);
    expect(await recordAccessToken(store, grant.grant_id, { jti: 'y', exp: T + 10 }, T)).toBe(false);
    expect(await isRevoked(store, 'y')).toBe(true);
  });

  it('recordAccessToken under endless contention: 503 retry, and the token is revoked', async () => {
    const inner = memoryStore();
    const grant = (await createGrant(inner, input(), T))!;
    const error = await recordAccessToken(contended(inner), grant.grant_id, { jti: 'z', exp: T + 10 }, T).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'temporarily_unavailable',
      status: 503,
      message: 'The grant is busy; retry the request.',
      headers: { 'retry-after': '1' },
    });
    expect(await isRevoked(inner, 'z')).toBe(true);
  });

  it('revokeGrant: marks the grant and revokes its live tokens (not one expiring now); twice is harmless', async () => {
    const store = memoryStore();
    const grant = (await createGrant(store, input(), T))!;
    await recordAccessToken(store, grant.grant_id, { jti: 'live', exp: T + 100 }, T);
    await recordAccessToken(store, grant.grant_id, { jti: 'ending', exp: T + 50 }, T);
    await revokeGrant(store, grant.grant_id, T + 50);
    expect((await read(store, grant.grant_id)).revoked_at).toBe(T + 50);
    expect(await isRevoked(store, 'live')).toBe(true);
    expect(await isRevoked(store, 'ending')).toBe(false);
    await revokeGrant(store, grant.grant_id, T + 60);
    expect((await read(store, grant.grant_id)).revoked_at).toBe(T + 50);
  });

  it('revokeGrant before the grant exists leaves an empty revoked tombstone that blocks its creation', async () => {
    const store = memoryStore();
    const id = newGrantId();
    await revokeGrant(store, id, T);
    expect(await read(store, id)).toEqual({
      grant_id: id,
      client_id: '',
      subject: '',
      scope: '',
      resource: '',
      created_at: T,
      ends_at: T,
      revoked_at: T,
      access_tokens: [],
    });
    expect(await createGrant(store, input({ grant_id: id }), T)).toBeNull();
  });

  it('revokeGrant under endless contention: 503 retry', async () => {
    const inner = memoryStore();
    const grant = (await createGrant(inner, input(), T))!;
    await expect(revokeGrant(contended(inner), grant.grant_id, T)).rejects.toMatchObject({
      code: 'temporarily_unavailable',
      message: 'Could not revoke the grant; retry the request.',
      headers: { 'retry-after': '1' },
    });
    expect((await read(inner, grant.grant_id)).revoked_at).toBeNull();
  });

  it('issueRefreshToken: names its grant, keeps the spent list, lapses after the idle lifetime; no grant is a 500', async () => {
    const store = memoryStore();
    const grant = (await createGrant(store, input(), T))!;
    const first = await issueRefreshToken(store, grant, T);
    expect(first).toMatch(new RegExp(`^rt_${grant.grant_id}\\.[\\w-]{43}$`));
    expect((await read(store, grant.grant_id)).refresh).toEqual({
      current_sha256: await sha256Hex(first),
      expires_at: T + REFRESH_TOKEN_IDLE_TTL_SECONDS,
      spent_sha256: [],
    });
    await redeemRefreshToken(store, first, 'agt_m', T + 1);
    const second = await issueRefreshToken(store, grant, T + 1);
    expect((await read(store, grant.grant_id)).refresh?.spent_sha256).toEqual([await sha256Hex(first)]);
    expect(second).not.toBe(first);
    await expect(issueRefreshToken(store, { ...grant, grant_id: newGrantId() }, T)).rejects.toMatchObject({
      code: 'server_error',
      status: 500,
      message: 'Could not store the refresh token; try again.',
    });
    await expect(issueRefreshToken(contended(store), grant, T)).rejects.toMatchObject({ code: 'temporarily_unavailable' });
  });

  it('redeemRefreshToken refuses, without spending it: another client, an unknown grant, a grant without refresh, a stale token', async () => {
    const store = memoryStore();
    const grant = (await createGrant(store, input(), T))!;
    const token = await issueRefreshToken(store, grant, T);
    const notValid = { code: 'invalid_grant', message: 'The refresh token is not valid for this client.' };
    await expect(redeemRefreshToken(store, token, 'agt_other', T)).rejects.toMatchObject(notValid);
    await expect(redeemRefreshToken(store, token.replace(grant.grant_id, newGrantId()), 'agt_m', T)).rejects.toMatchObject(notValid);
    const bare = (await createGrant(store, input(), T))!;
    await expect(redeemRefreshToken(store, `rt_${bare.grant_id}.${'a'.repeat(43)}`, 'agt_m', T)).rejects.toMatchObject(notValid);
    await expect(redeemRefreshToken(store, `rt_${grant.grant_id}.${'a'.repeat(43)}`, 'agt_m', T)).rejects.toMatchObject(notValid);
    expect((await read(store, grant.grant_id)).refresh?.current_sha256).toBe(await sha256Hex(token));
    expect((await read(store, grant.grant_id)).revoked_at).toBeNull();
  });

  it('redeemRefreshToken: the idle expiry and the grant’s end are exclusive bounds; validate runs before the token is spent', async () => {
    const store = memoryStore();
    const grant = (await createGrant(store, input(), T))!;
    const token = await issueRefreshToken(store, grant, T);
    await expect(redeemRefreshToken(store, token, 'agt_m', T + REFRESH_TOKEN_IDLE_TTL_SECONDS)).rejects.toMatchObject({
      message: 'The refresh token has expired; ask the user to authorize again.',
    });
    await expect(
      redeemRefreshToken(store, token, 'agt_m', T + 1, () => {
        throw new Error('refused by validate');
      }),
    ).rejects.toThrow('refused by validate');
    expect((await read(store, grant.grant_id)).refresh?.current_sha256).toBe(await sha256Hex(token));
    const seen: string[] = [];
    const redeemed = await redeemRefreshToken(store, token, 'agt_m', T + REFRESH_TOKEN_IDLE_TTL_SECONDS - 1, (g) => {
      seen.push(g.grant_id);
    });
    expect(seen).toEqual([grant.grant_id]);
    expect(redeemed.refresh).toEqual({
      current_sha256: null,
      expires_at: T + REFRESH_TOKEN_IDLE_TTL_SECONDS,
      spent_sha256: [await sha256Hex(token)],
    });

    const ending = (await createGrant(store, input({ refreshable: false } as never), T))!;
    const late = await issueRefreshToken(store, ending, T);
    await expect(redeemRefreshToken(store, late, 'agt_m', ending.ends_at)).rejects.toMatchObject({
      message: expect.stringMatching(/expired|ended/),
    });
  });

  it('redeemRefreshToken: a revoked grant, or one past its end with a live token, is refused as ended', async () => {
    const store = memoryStore();
    const grant = (await createGrant(store, input(), T))!;
    const token = await issueRefreshToken(store, grant, T);
    const stored = await store.get<GrantRecord>(grantKey(grant.grant_id));
    await store.set(grantKey(grant.grant_id), {
      ...stored!.value,
      ends_at: T + 10,
      refresh: { ...stored!.value.refresh!, expires_at: T + 100 },
    });
    const ended = { message: 'The grant behind this refresh token has ended or was revoked; ask the user to authorize again.' };
    await expect(redeemRefreshToken(store, token, 'agt_m', T + 10)).rejects.toMatchObject(ended);
    expect((await redeemRefreshToken(store, token, 'agt_m', T + 9)).grant_id).toBe(grant.grant_id);
    const other = (await createGrant(store, input(), T))!;
    const otherToken = await issueRefreshToken(store, other, T);
    const current = (await store.get<GrantRecord>(grantKey(other.grant_id)))!;
    await store.set(grantKey(other.grant_id), { ...current.value, revoked_at: T });
    await expect(redeemRefreshToken(store, otherToken, 'agt_m', T + 1)).rejects.toMatchObject(ended);
  });

  it('the live-token cap: 429 saying how many and when, Retry-After at least 1 s', async () => {
    const store = memoryStore();
    const grant = (await createGrant(store, input(), T))!;
    for (let i = 0; i < MAX_LIVE_ACCESS_TOKENS_PER_GRANT; i++)
      await recordAccessToken(store, grant.grant_id, { jti: `j${i}`, exp: T + 100 + i }, T);
    const token = await issueRefreshToken(store, grant, T);
    const error = await redeemRefreshToken(store, token, 'agt_m', T + 40).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'rate_limited',
      status: 429,
      message: 'This grant already has 20 live access tokens; use one of them, or refresh again in 60 s. The refresh token stays valid.',
      headers: { 'retry-after': '60' },
    });
    // The oldest expires at T + 100: a second before, the wait is 1 s; at T + 100 one is gone and the refresh passes.
    expect(await redeemRefreshToken(store, token, 'agt_m', T + 99).catch((e: OAuthError) => e.headers['retry-after'])).toBe('1');
    expect((await redeemRefreshToken(store, token, 'agt_m', T + 100)).grant_id).toBe(grant.grant_id);
  });

  it('redeemRefreshToken under endless contention: 503 retry, the token not spent', async () => {
    const inner = memoryStore();
    const grant = (await createGrant(inner, input(), T))!;
    const token = await issueRefreshToken(inner, grant, T);
    await expect(redeemRefreshToken(contended(inner), token, 'agt_m', T)).rejects.toMatchObject({
      code: 'temporarily_unavailable',
      message: 'The grant is busy; retry the request.',
    });
    expect((await read(inner, grant.grant_id)).refresh?.current_sha256).toBe(await sha256Hex(token));
  });

  describe('tokens from before tokens named their grant (refresh/ records)', () => {
    async function legacy(store: Store, over: Partial<RefreshTokenRecord> = {}) {
      const grant = (await createGrant(store, input(), T))!;
      const token = `rt_legacy${newGrantId()}`;
      await store.set(refreshKey(await sha256Hex(token)), {
        grant_id: grant.grant_id,
        client_id: 'agt_m',
        issued_at: T,
        expires_at: T + 100,
        used_at: null,
        ...over,
      } satisfies RefreshTokenRecord);
      return { grant, token };
    }

    it('refuses another client, an unknown token, an expired one (at its expiry), a revoked or ended grant', async () => {
      const store = memoryStore();
      const { grant, token } = await legacy(store);
      await expect(redeemRefreshToken(store, token, 'agt_other', T)).rejects.toMatchObject({
        message: 'The refresh token is not valid for this client.',
      });
      await expect(redeemRefreshToken(store, 'rt_unknown', 'agt_m', T)).rejects.toMatchObject({
        message: 'The refresh token is not valid for this client.',
      });
      await expect(redeemRefreshToken(store, token, 'agt_m', T + 100)).rejects.toMatchObject({
        message: 'The refresh token has expired; ask the user to authorize again.',
      });
      await revokeGrant(store, grant.grant_id, T);
      await expect(redeemRefreshToken(store, token, 'agt_m', T + 1)).rejects.toMatchObject({
        message: 'The grant behind this refresh token has ended or was revoked; ask the user to authorize again.',
      });
      const gone = await legacy(store);
      await store.delete(grantKey(gone.grant.grant_id));
      await expect(redeemRefreshToken(store, gone.token, 'agt_m', T + 1)).rejects.toMatchObject({
        message: expect.stringContaining('has ended'),
      });
      const ended = await legacy(store, { expires_at: T + REFRESH_TOKEN_ABSOLUTE_TTL_SECONDS + 10 });
      await expect(redeemRefreshToken(store, ended.token, 'agt_m', ended.grant.ends_at)).rejects.toMatchObject({
        message: expect.stringContaining('has ended'),
      });
    });

    it('validate runs before the token is marked used; a lost race is a replay that revokes the grant', async () => {
      const store = memoryStore();
      const { grant, token } = await legacy(store);
      await expect(
        redeemRefreshToken(store, token, 'agt_m', T, () => {
          throw new Error('no');
        }),
      ).rejects.toThrow('no');
      expect((await store.get<RefreshTokenRecord>(refreshKey(await sha256Hex(token))))?.value.used_at).toBeNull();
      const racing: Store = {
        ...store,
        set: async (key, value, condition) => (key.startsWith('refresh/') ? { modified: false } : store.set(key, value, condition)),
      };
      await expect(redeemRefreshToken(racing, token, 'agt_m', T)).rejects.toMatchObject({
        message: 'The refresh token was used concurrently; the grant is revoked. Ask the user to authorize again.',
      });
      expect((await read(store, grant.grant_id)).revoked_at).toBe(T);
    });

    it('a successful use marks it used at that time', async () => {
      const store = memoryStore();
      const { token } = await legacy(store);
      await redeemRefreshToken(store, token, 'agt_m', T + 5);
      expect((await store.get<RefreshTokenRecord>(refreshKey(await sha256Hex(token))))?.value.used_at).toBe(T + 5);
    });

    it('revokeRefreshToken: the owner ends the grant; another client or an unknown token does nothing', async () => {
      const store = memoryStore();
      const { grant, token } = await legacy(store);
      expect(await revokeRefreshToken(store, token, 'agt_other', T)).toBe(false);
      expect(await revokeRefreshToken(store, 'rt_nothing', 'agt_m', T)).toBe(false);
      expect((await read(store, grant.grant_id)).revoked_at).toBeNull();
      expect(await revokeRefreshToken(store, token, 'agt_m', T)).toBe(true);
      expect((await read(store, grant.grant_id)).revoked_at).toBe(T);
    });
  });

  it('revokeRefreshToken of a grant token: the current one or a spent one revokes; an unknown one of the grant does not', async () => {
    const store = memoryStore();
    const grant = (await createGrant(store, input(), T))!;
    const first = await issueRefreshToken(store, grant, T);
    await redeemRefreshToken(store, first, 'agt_m', T);
    await issueRefreshToken(store, grant, T);
    expect(await revokeRefreshToken(store, `rt_${grant.grant_id}.${'a'.repeat(43)}`, 'agt_m', T)).toBe(false);
    expect(await revokeRefreshToken(store, `rt_${newGrantId()}.${'a'.repeat(43)}`, 'agt_m', T)).toBe(false);
    const bare = (await createGrant(store, input(), T))!;
    expect(await revokeRefreshToken(store, `rt_${bare.grant_id}.${'a'.repeat(43)}`, 'agt_m', T)).toBe(false);
    expect((await read(store, grant.grant_id)).revoked_at).toBeNull();
    expect(await revokeRefreshToken(store, first, 'agt_m', T + 1)).toBe(true);
    expect((await read(store, grant.grant_id)).revoked_at).toBe(T + 1);
  });
});
