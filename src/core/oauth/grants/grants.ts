/**
 * Grants: what one approved authorization request lets one client do, from the code's redemption
 * until the grant ends. A grant (`grant/<id>`) lists the access tokens issued under it, so it can be
 * revoked as a whole: when its code is replayed (RFC 6749 §4.1.2), when a rotated refresh token is
 * used again (RFC 9700 §4.14.2), or when the client revokes its refresh token (RFC 7009 §2.1).
 *
 * Refresh tokens (`refresh/<sha256(token)>`) are issued only to clients registered for the
 * `refresh_token` grant, are bound to the grant's client, scope and resource, are stored only as
 * digests and rotate on every use: the presented token is marked used (compare-and-set, so of two
 * concurrent uses exactly one wins) and a new one is issued. A token used twice revokes the grant.
 * Each refresh token must be used within {@link REFRESH_TOKEN_IDLE_TTL_SECONDS}; the grant itself
 * ends {@link REFRESH_TOKEN_ABSOLUTE_TTL_SECONDS} after the consent, however often it is refreshed.
 * @module
 */
import type { Store } from '../../kernel/store.ts';
import { setExpiring } from '../../kernel/expiry.ts';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  CLOCK_SKEW_SECONDS,
  REFRESH_TOKEN_ABSOLUTE_TTL_SECONDS,
  REFRESH_TOKEN_IDLE_TTL_SECONDS,
} from '../config.ts';
import { OAuthError } from '../errors.ts';
import { randomSecret, sha256Hex } from '../../kernel/crypto.ts';
import { revokeJti } from './tokens.ts';

export interface GrantRecord {
  grant_id: string;
  client_id: string;
  /** The anonymous subject of the consent (no person is identified). */
  subject: string;
  /** Space-separated scope the consent granted; refreshes may narrow it per token, never widen it. */
  scope: string;
  resource: string;
  created_at: number;
  /** The grant ends here (absolute lifetime when refreshable, else the code's access token lifetime). */
  ends_at: number;
  revoked_at: number | null;
  /** Access tokens issued under the grant that have not expired yet (what a revocation must reach). */
  access_tokens: { jti: string; exp: number }[];
}

export interface RefreshTokenRecord {
  grant_id: string;
  client_id: string;
  issued_at: number;
  /** Idle expiry, never after the grant's end. */
  expires_at: number;
  /** Set when the token was exchanged; a second use is a replay. */
  used_at: number | null;
}

export const grantKey = (grantId: string): string => `grant/${grantId}`;
export const refreshKey = (digest: string): string => `refresh/${digest}`;
/** Refresh tokens are recognisable in logs and secret scanners. */
export const REFRESH_TOKEN_PREFIX = 'rt_';
/** Compare-and-set attempts before giving up on a grant update (contention is a handful of requests at most). */
const CAS_ATTEMPTS = 8;

export const newGrantId = (): string => `grt_${randomSecret(16)}`;

/** How long a grant record must be kept: until it ends and the last access token under it has expired. */
export function grantKeepUntil(grant: Pick<GrantRecord, 'ends_at'>): number {
  return grant.ends_at + ACCESS_TOKEN_TTL_SECONDS + CLOCK_SKEW_SECONDS;
}

/**
 * Creates the grant under a pre-chosen id. Null when the id is already taken, which happens only
 * when a replay of the code revoked the grant before it was written (a tombstone, see revokeGrant).
 */
export async function createGrant(
  store: Store,
  input: Omit<GrantRecord, 'created_at' | 'ends_at' | 'revoked_at' | 'access_tokens'> & { refreshable: boolean },
  nowSeconds: number,
): Promise<GrantRecord | null> {
  const { refreshable, ...rest } = input;
  const record: GrantRecord = {
    ...rest,
    created_at: nowSeconds,
    ends_at: nowSeconds + (refreshable ? REFRESH_TOKEN_ABSOLUTE_TTL_SECONDS : ACCESS_TOKEN_TTL_SECONDS),
    revoked_at: null,
    access_tokens: [],
  };
  return (await setExpiring(store, grantKey(record.grant_id), record, grantKeepUntil(record), { onlyIfNew: true })).modified
    ? record
    : null;
}

/**
 * Records an access token under its grant. When the grant is gone or revoked, the token is
 * revoked at once and false returned (the caller refuses the request).
 */
export async function recordAccessToken(
  store: Store,
  grantId: string,
  token: { jti: string; exp: number },
  nowSeconds: number,
): Promise<boolean> {
  for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt++) {
    const found = await store.get<GrantRecord>(grantKey(grantId));
    if (!found || found.value.revoked_at !== null) {
      await revokeJti(store, token.jti, token.exp);
      return false;
    }
    const live = found.value.access_tokens.filter((t) => t.exp > nowSeconds);
    const next: GrantRecord = { ...found.value, access_tokens: [...live, token] };
    if ((await store.set(grantKey(grantId), next, { onlyIfMatch: found.etag })).modified) return true;
  }
  await revokeJti(store, token.jti, token.exp);
  throw new OAuthError('temporarily_unavailable', 'The grant is busy; retry the request.', { headers: { 'retry-after': '1' } });
}

/**
 * Revokes a grant and every live access token under it. A grant not written yet gets a revoked
 * tombstone, so its creation fails (the code-replay race).
 */
export async function revokeGrant(store: Store, grantId: string, nowSeconds: number): Promise<void> {
  for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt++) {
    const found = await store.get<GrantRecord>(grantKey(grantId));
    if (!found) {
      const tombstone: GrantRecord = {
        grant_id: grantId,
        client_id: '',
        subject: '',
        scope: '',
        resource: '',
        created_at: nowSeconds,
        ends_at: nowSeconds,
        revoked_at: nowSeconds,
        access_tokens: [],
      };
      if ((await setExpiring(store, grantKey(grantId), tombstone, grantKeepUntil(tombstone), { onlyIfNew: true })).modified) return;
      continue;
    }
    const grant = found.value;
    if (grant.revoked_at === null) {
      const written = await store.set(grantKey(grantId), { ...grant, revoked_at: nowSeconds }, { onlyIfMatch: found.etag });
      if (!written.modified) continue;
    }
    await Promise.all(grant.access_tokens.filter((t) => t.exp > nowSeconds).map((t) => revokeJti(store, t.jti, t.exp)));
    return;
  }
  throw new OAuthError('temporarily_unavailable', 'Could not revoke the grant; retry the request.', { headers: { 'retry-after': '1' } });
}

/** Issues a refresh token for a grant; it lapses after the idle lifetime or at the grant's end. */
export async function issueRefreshToken(
  store: Store,
  grant: Pick<GrantRecord, 'grant_id' | 'client_id' | 'ends_at'>,
  nowSeconds: number,
): Promise<string> {
  const token = `${REFRESH_TOKEN_PREFIX}${randomSecret(32)}`;
  const record: RefreshTokenRecord = {
    grant_id: grant.grant_id,
    client_id: grant.client_id,
    issued_at: nowSeconds,
    expires_at: Math.min(nowSeconds + REFRESH_TOKEN_IDLE_TTL_SECONDS, grant.ends_at),
    used_at: null,
  };
  const written = await setExpiring(store, refreshKey(await sha256Hex(token)), record, record.expires_at, { onlyIfNew: true });
  if (!written.modified) throw new OAuthError('server_error', 'Could not store the refresh token; try again.', { status: 500 });
  return token;
}

/**
 * Exchanges a refresh token of `clientId` (rotation): returns the live grant. A token already used
 * revokes the grant (reuse detection); an unknown, foreign, expired or revoked one is `invalid_grant`.
 * `validate` sees the grant before the token is marked used and throws to refuse the request (a
 * scope or resource the grant does not allow): a refused request leaves the token usable, so the
 * client's corrected retry is not mistaken for a replay.
 */
export async function redeemRefreshToken(
  store: Store,
  token: string,
  clientId: string,
  nowSeconds: number,
  validate: (grant: GrantRecord) => void = () => {},
): Promise<GrantRecord> {
  const key = refreshKey(await sha256Hex(token));
  const found = await store.get<RefreshTokenRecord>(key);
  if (!found || found.value.client_id !== clientId)
    throw new OAuthError('invalid_grant', 'The refresh token is not valid for this client.');
  const record = found.value;
  if (record.used_at !== null) {
    await revokeGrant(store, record.grant_id, nowSeconds);
    throw new OAuthError(
      'invalid_grant',
      'The refresh token was already used; the grant and every token issued under it are revoked. Ask the user to authorize again.',
    );
  }
  if (record.expires_at <= nowSeconds)
    throw new OAuthError('invalid_grant', 'The refresh token has expired; ask the user to authorize again.');
  const grant = (await store.get<GrantRecord>(grantKey(record.grant_id)))?.value;
  if (!grant || grant.revoked_at !== null || grant.ends_at <= nowSeconds)
    throw new OAuthError('invalid_grant', 'The grant behind this refresh token has ended or was revoked; ask the user to authorize again.');
  validate(grant);
  // Mark it used only if nobody else did since the read: of two concurrent uses one loses, and that is a replay too.
  const marked = await store.set(key, { ...record, used_at: nowSeconds }, { onlyIfMatch: found.etag });
  if (!marked.modified) {
    await revokeGrant(store, record.grant_id, nowSeconds);
    throw new OAuthError(
      'invalid_grant',
      'The refresh token was used concurrently; the grant is revoked. Ask the user to authorize again.',
    );
  }
  return grant;
}

/** Revokes the grant of a refresh token the client owns (RFC 7009); false when it is not one of its tokens. */
export async function revokeRefreshToken(store: Store, token: string, clientId: string, nowSeconds: number): Promise<boolean> {
  if (!token.startsWith(REFRESH_TOKEN_PREFIX)) return false;
  const found = await store.get<RefreshTokenRecord>(refreshKey(await sha256Hex(token)));
  if (!found || found.value.client_id !== clientId) return false;
  await revokeGrant(store, found.value.grant_id, nowSeconds);
  return true;
}
