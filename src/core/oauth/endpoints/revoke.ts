/**
 * `POST /oauth/revoke` (RFC 7009): the client authenticates; an access token it owns goes on the
 * revocation list until it would have expired; a refresh token it owns ends its whole grant, the
 * access tokens issued under it included (§2.1). Unknown, foreign or garbage tokens also get 200
 * (§2.2). `token_type_hint` is only a hint: an unknown value is ignored and both kinds are tried.
 *
 * Listing an access token is the one write a client can cause here at will: a client_credentials
 * token costs nothing to mint, and each one revoked is a record kept until the token's expiry. So a
 * revocation that would list a token takes an admission from its network's window
 * ({@link REVOCATION_RATE_LIMIT}); one that lists nothing (unknown, foreign, expired or already
 * listed) takes none and stores nothing. Ending a grant needs no limit of its own: a grant ends once,
 * and grants are made only through consents, which are limited (docs/limits.md).
 * @module
 */
import { authenticateClient, readOAuthForm } from '../grants/client-auth.ts';
import type { OAuthDeps } from '../deps.ts';
import { OAuthError, oauthJson } from '../errors.ts';
import { revokeRefreshToken } from '../grants/grants.ts';
import { isRevoked, revokeJti, verifyAccessToken } from '../grants/tokens.ts';
import { busyText, consume } from '../../kernel/rate-limit.ts';
import type { Store } from '../../kernel/store.ts';

/**
 * Access tokens listed as revoked per client network (an IPv4 address or an IPv6 /64) and hour. Keyed
 * on the network, as the other write limits are, not on the client: one network may register 100
 * clients a day, and a per-client limit would be multiplied by them. Each listing lives at most one
 * token lifetime (an hour by default), so one network keeps at most about this many records at a time.
 */
export const REVOCATION_RATE_LIMIT = {
  limit: 60,
  windowSeconds: 3600,
} as const;

/** What the revocation endpoint needs beyond every endpoint's {@link OAuthDeps}: its rate limit. */
export interface RevokeDeps extends OAuthDeps {
  /** The rate-limit windows (the `ratelimit` store). */
  limits: Store;
  /** The keyed digest of the client's network (kernel/ip-digest.ts), read only when a revocation would write. */
  clientNetworkDigest: () => Promise<string>;
}

export async function handleRevoke(req: Request, deps: RevokeDeps): Promise<Response> {
  if (req.method !== 'POST')
    throw new OAuthError('invalid_request', 'Use POST.', {
      status: 405,
      headers: { allow: 'POST, OPTIONS' },
    });
  const form = await readOAuthForm(req);
  const now = deps.nowSeconds();
  const client = await authenticateClient(req, form, {
    clients: deps.clients,
    clientMetadata: deps.clientMetadata,
    nowSeconds: now,
  });
  const token = form.get('token');
  if (!token) throw new OAuthError('invalid_request', 'token is required.');
  if (await revokeRefreshToken(deps.grants, token, client.client_id, now)) return oauthJson({}, 200);
  // Ownership check: the signature must be ours and the token the client's own; expiry does not matter.
  const check = await verifyAccessToken(token, {
    keys: await deps.keys(),
    issuer: deps.config.issuer,
    nowSeconds: now,
    revocations: null,
    ignoreExpiry: true,
  });
  if (
    check.ok &&
    check.claims.client_id === client.client_id &&
    check.claims.exp > now &&
    !(await isRevoked(deps.grants, check.claims.jti))
  ) {
    const decision = await consume(deps.limits, `revoke/${await deps.clientNetworkDigest()}`, REVOCATION_RATE_LIMIT, now * 1000);
    if (decision.contended)
      throw new OAuthError('rate_limited', `${busyText('Revocation is')} The token stays valid until it is revoked or expires.`, {
        headers: { 'retry-after': String(decision.retryAfterSeconds) },
      });
    if (!decision.allowed) {
      throw new OAuthError(
        'rate_limited',
        `At most ${REVOCATION_RATE_LIMIT.limit} access tokens revoked per hour per client network (an IPv4 address or an IPv6 /64); ` +
          `retry in ${decision.retryAfterSeconds} s. The token stays valid until it expires.`,
        { headers: { 'retry-after': String(decision.retryAfterSeconds) } },
      );
    }
    await revokeJti(deps.grants, check.claims.jti, check.claims.exp);
  }
  return oauthJson({}, 200);
}
