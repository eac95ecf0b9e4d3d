/**
 * `POST /oauth/revoke` (RFC 7009): the client authenticates; an access token it owns goes on the
 * revocation list until it would have expired; a refresh token it owns ends its whole grant, the
 * access tokens issued under it included (§2.1). Unknown, foreign or garbage tokens also get 200
 * (§2.2). `token_type_hint` is only a hint: an unknown value is ignored and both kinds are tried.
 * @module
 */
import { authenticateClient, readOAuthForm } from '../grants/client-auth.ts';
import type { OAuthDeps } from '../deps.ts';
import { OAuthError, oauthJson } from '../errors.ts';
import { revokeRefreshToken } from '../grants/grants.ts';
import { revokeJti, verifyAccessToken } from '../grants/tokens.ts';

export async function handleRevoke(req: Request, deps: OAuthDeps): Promise<Response> {
  if (req.method !== 'POST') throw new OAuthError('invalid_request', 'Use POST.', { status: 405, headers: { allow: 'POST, OPTIONS' } });
  const form = await readOAuthForm(req);
  const now = deps.nowSeconds();
  const client = await authenticateClient(req, form, { clients: deps.clients, clientMetadata: deps.clientMetadata, nowSeconds: now });
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
  if (check.ok && check.claims.client_id === client.client_id && check.claims.exp > now) {
    await revokeJti(deps.grants, check.claims.jti, check.claims.exp);
  }
  return oauthJson({}, 200);
}
