/**
 * Grants: what one approved authorization request lets one client do, from the code's redemption
 * until the grant ends. A grant (`grant/<id>`) lists the access tokens issued under it, so it can be
 * revoked as a whole: when its code is replayed (RFC 6749 §4.1.2), when a rotated refresh token is
 * used again (RFC 9700 §4.14.2), or when the client revokes its refresh token (RFC 7009 §2.1).
 *
 * Refresh tokens are issued only to clients registered for the `refresh_token` grant, are bound to
 * the grant's client, scope and resource, and rotate on every use. A token names its grant
 * (`rt_<grant id>.<secret>`); the grant keeps the digest of the one live token and of the last
 * {@link SPENT_REFRESH_TOKENS_REMEMBERED} spent ones, so a grant is one record however often it is
 * refreshed (a refresh loop cannot grow the store). Redeeming moves the digest from live to spent
 * with compare-and-set on the grant, so of two concurrent uses exactly one wins; a spent token
 * presented again revokes the grant. Each refresh token must be used within
 * {@link REFRESH_TOKEN_IDLE_TTL_SECONDS}; the grant itself ends {@link REFRESH_TOKEN_ABSOLUTE_TTL_SECONDS}
 * after the consent, however often it is refreshed. Tokens issued before this layout (`refresh/<digest>`
 * records, {@link RefreshTokenRecord}) keep working until they lapse.
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
  /** The grant's refresh token (clients registered for refresh_token). */
  refresh?: GrantRefreshState;
}

export interface GrantRefreshState {
  /** Digest of the live refresh token; null between a redemption and the issue of its successor. */
  current_sha256: string | null;
  /** When the live token lapses unused (idle lifetime), never after the grant ends. */
  expires_at: number;
  /** Digests of the last spent tokens, newest first: presenting one again is a replay. */
  spent_sha256: string[];
}

/** A refresh token issued before tokens named their grant, stored as `refresh/<sha256(token)>`. */
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
/** Spent refresh tokens a grant remembers: a replay of any of them revokes the grant (older ones are merely unknown). */
export const SPENT_REFRESH_TOKENS_REMEMBERED = 16;
/**
 * A refresh is refused (429, the token stays usable) while this many access tokens of its grant are
 * live: a client refreshing in a loop gets a bounded grant record and revocation list, not one entry
 * per request. Real clients refresh once per token lifetime.
 */
export const MAX_LIVE_ACCESS_TOKENS_PER_GRANT = 20;
/** `rt_<grant id>.<secret>`: the grant id and 256 random bits. */
const REFRESH_TOKEN_PATTERN = /^rt_(grt_[A-Za-z0-9_-]{22})\.[A-Za-z0-9_-]{43}$/;

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

/** Applies `change` to the grant with compare-and-set; null when the grant does not exist. */
async function updateGrant(store: Store, grantId: string, change: (grant: GrantRecord) => GrantRecord): Promise<GrantRecord | null> {
  for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt++) {
    const found = await store.get<GrantRecord>(grantKey(grantId));
    if (!found) return null;
    const next = change(found.value);
    if ((await store.set(grantKey(grantId), next, { onlyIfMatch: found.etag })).modified) return next;
  }
  throw new OAuthError('temporarily_unavailable', 'The grant is busy; retry the request.', { headers: { 'retry-after': '1' } });
}

/** Issues the grant's next refresh token; it lapses after the idle lifetime or at the grant's end. */
export async function issueRefreshToken(
  store: Store,
  grant: Pick<GrantRecord, 'grant_id' | 'client_id' | 'ends_at'>,
  nowSeconds: number,
): Promise<string> {
  const token = `${REFRESH_TOKEN_PREFIX}${grant.grant_id}.${randomSecret(32)}`;
  const digest = await sha256Hex(token);
  const updated = await updateGrant(store, grant.grant_id, (current) => ({
    ...current,
    refresh: {
      current_sha256: digest,
      expires_at: Math.min(nowSeconds + REFRESH_TOKEN_IDLE_TTL_SECONDS, current.ends_at),
      spent_sha256: current.refresh?.spent_sha256 ?? [],
    },
  }));
  if (!updated) throw new OAuthError('server_error', 'Could not store the refresh token; try again.', { status: 500 });
  return token;
}

const notForThisClient = (): OAuthError => new OAuthError('invalid_grant', 'The refresh token is not valid for this client.');
const replayed = (): OAuthError =>
  new OAuthError(
    'invalid_grant',
    'The refresh token was already used; the grant and every token issued under it are revoked. Ask the user to authorize again.',
  );

/**
 * Exchanges a refresh token of `clientId` (rotation): returns the live grant. A token already spent
 * revokes the grant (reuse detection); an unknown, foreign, expired or revoked one is `invalid_grant`.
 * `validate` sees the grant before the token is spent and throws to refuse the request (a scope or
 * resource the grant does not allow): a refused request leaves the token usable, so the client's
 * corrected retry is not mistaken for a replay. So does a refresh refused because the grant already
 * has {@link MAX_LIVE_ACCESS_TOKENS_PER_GRANT} live access tokens.
 */
export async function redeemRefreshToken(
  store: Store,
  token: string,
  clientId: string,
  nowSeconds: number,
  validate: (grant: GrantRecord) => void = () => {},
): Promise<GrantRecord> {
  const grantId = REFRESH_TOKEN_PATTERN.exec(token)?.[1];
  if (!grantId) return redeemStoredRefreshToken(store, token, clientId, nowSeconds, validate);
  const digest = await sha256Hex(token);
  for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt++) {
    const found = await store.get<GrantRecord>(grantKey(grantId));
    const grant = found?.value;
    if (!found || !grant || grant.client_id !== clientId || !grant.refresh) throw notForThisClient();
    const refresh = grant.refresh;
    if (refresh.spent_sha256.includes(digest)) {
      await revokeGrant(store, grantId, nowSeconds);
      throw replayed();
    }
    if (refresh.current_sha256 !== digest) throw notForThisClient();
    if (refresh.expires_at <= nowSeconds)
      throw new OAuthError('invalid_grant', 'The refresh token has expired; ask the user to authorize again.');
    if (grant.revoked_at !== null || grant.ends_at <= nowSeconds)
      throw new OAuthError(
        'invalid_grant',
        'The grant behind this refresh token has ended or was revoked; ask the user to authorize again.',
      );
    validate(grant);
    const live = grant.access_tokens.filter((t) => t.exp > nowSeconds);
    if (live.length >= MAX_LIVE_ACCESS_TOKENS_PER_GRANT) {
      const wait = Math.max(1, Math.min(...live.map((t) => t.exp)) - nowSeconds);
      throw new OAuthError(
        'rate_limited',
        `This grant already has ${live.length} live access tokens; use one of them, or refresh again in ${wait} s. The refresh token stays valid.`,
        { headers: { 'retry-after': String(wait) } },
      );
    }
    const spent: GrantRecord = {
      ...grant,
      refresh: {
        ...refresh,
        current_sha256: null,
        spent_sha256: [digest, ...refresh.spent_sha256].slice(0, SPENT_REFRESH_TOKENS_REMEMBERED),
      },
    };
    // Of two concurrent uses one writes first; the other reads the token as spent on its next turn: a replay.
    if ((await store.set(grantKey(grantId), spent, { onlyIfMatch: found.etag })).modified) return spent;
  }
  throw new OAuthError('temporarily_unavailable', 'The grant is busy; retry the request.', { headers: { 'retry-after': '1' } });
}

/** {@link redeemRefreshToken} for a token from before tokens named their grant (`refresh/<digest>` records). */
async function redeemStoredRefreshToken(
  store: Store,
  token: string,
  clientId: string,
  nowSeconds: number,
  validate: (grant: GrantRecord) => void,
): Promise<GrantRecord> {
  const key = refreshKey(await sha256Hex(token));
  const found = await store.get<RefreshTokenRecord>(key);
  if (!found || found.value.client_id !== clientId) throw notForThisClient();
  const record = found.value;
  if (record.used_at !== null) {
    await revokeGrant(store, record.grant_id, nowSeconds);
    throw replayed();
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
  const digest = await sha256Hex(token);
  const grantId = REFRESH_TOKEN_PATTERN.exec(token)?.[1];
  if (grantId) {
    const grant = (await store.get<GrantRecord>(grantKey(grantId)))?.value;
    const known = grant?.refresh && (grant.refresh.current_sha256 === digest || grant.refresh.spent_sha256.includes(digest));
    if (!grant || grant.client_id !== clientId || !known) return false;
    await revokeGrant(store, grantId, nowSeconds);
    return true;
  }
  const found = await store.get<RefreshTokenRecord>(refreshKey(digest));
  if (!found || found.value.client_id !== clientId) return false;
  await revokeGrant(store, found.value.grant_id, nowSeconds);
  return true;
}
