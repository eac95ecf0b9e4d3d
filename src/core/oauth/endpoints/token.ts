/**
 * `POST /oauth/token` (RFC 6749 §3.2): client_credentials (§4.4), authorization_code with PKCE
 * S256 (§4.1, RFC 7636) and refresh_token (§6, rotated, see grants.ts). Access tokens are RS256
 * JWTs (RFC 9068) for the resource named by `resource` (RFC 8707), by default the MCP server.
 * @module
 */
import { intersectScope, type OAuthConfig, parseScope, type Scope } from '../config.ts';
import { authenticateClient, readOAuthForm, touchClient } from '../grants/client-auth.ts';
import { type ClientRecord, GRANT_TYPES, type GrantType } from '../grants/clients.ts';
import { redeemCode } from '../grants/codes.ts';
import type { OAuthDeps } from '../deps.ts';
import { OAuthError, oauthJson } from '../errors.ts';
import { createGrant, type GrantRecord, issueRefreshToken, recordAccessToken, redeemRefreshToken } from '../grants/grants.ts';
import { type AccessTokenClaims, mintAccessToken } from '../grants/tokens.ts';

/** The audience for a token: `resource` if given (it must be ours), else the MCP resource. */
export function audienceOf(config: OAuthConfig, resource: string | undefined): string {
  if (resource === undefined) return config.mcpResource;
  if (resource.includes('#') || resource !== config.mcpResource) {
    throw new OAuthError('invalid_target', `resource must be ${config.mcpResource}.`);
  }
  return resource;
}

/** Granted scope (RFC 6749 §3.3): the requested scopes this client is registered for; invalid_scope when none is. */
export function grantedScope(allowed: readonly Scope[], requested: string | undefined): string {
  const granted = intersectScope(allowed, requested);
  if (!granted)
    throw new OAuthError(
      'invalid_scope',
      `None of the requested scopes is available to this client; it may request: ${allowed.join(' ')}.`,
    );
  return granted.join(' ');
}

/** The RFC 6749 §5.1 success body. */
function tokenResponse(token: string, claims: AccessTokenClaims, refreshToken?: string): Record<string, unknown> {
  return {
    access_token: token,
    token_type: 'Bearer',
    expires_in: claims.exp - claims.iat,
    scope: claims.scope,
    ...(refreshToken ? { refresh_token: refreshToken } : {}),
  };
}

/** Mints an access token under a grant (and a rotated refresh token when the client may refresh). */
async function issueUnderGrant(
  deps: OAuthDeps,
  client: ClientRecord,
  grant: Pick<GrantRecord, 'grant_id' | 'client_id' | 'subject' | 'resource' | 'ends_at'>,
  scope: string,
  now: number,
): Promise<Record<string, unknown>> {
  const { token, claims } = await mintAccessToken(await deps.keys(), {
    issuer: deps.config.issuer,
    audience: grant.resource,
    clientId: client.client_id,
    subject: grant.subject,
    scope,
    nowSeconds: now,
    ttlSeconds: deps.accessTokenTtlSeconds,
  });
  if (!(await recordAccessToken(deps.grants, grant.grant_id, { jti: claims.jti, exp: claims.exp }, now))) {
    throw new OAuthError(
      'invalid_grant',
      'The grant was revoked while the token was being issued (the code or refresh token was replayed).',
    );
  }
  const refreshToken = client.grant_types.includes('refresh_token') ? await issueRefreshToken(deps.grants, grant, now) : undefined;
  return tokenResponse(token, claims, refreshToken);
}

async function authorizationCodeGrant(
  form: Map<string, string>,
  client: ClientRecord,
  deps: OAuthDeps,
  now: number,
): Promise<Record<string, unknown>> {
  const redeemed = await redeemCode(form, client, deps);
  const grant = await createGrant(
    deps.grants,
    {
      grant_id: redeemed.grantId,
      client_id: client.client_id,
      subject: redeemed.subject,
      scope: redeemed.scope,
      resource: redeemed.resource,
      refreshable: client.grant_types.includes('refresh_token'),
    },
    now,
  );
  if (!grant) throw new OAuthError('invalid_grant', 'The authorization code was replayed; the tokens issued from it are revoked.');
  return issueUnderGrant(deps, client, grant, redeemed.scope, now);
}

async function refreshTokenGrant(
  form: Map<string, string>,
  client: ClientRecord,
  deps: OAuthDeps,
  now: number,
): Promise<Record<string, unknown>> {
  const presented = form.get('refresh_token');
  if (!presented) throw new OAuthError('invalid_request', 'refresh_token is required.');
  const resource = form.get('resource');
  let scope = '';
  // Checked before the token is spent (grants.ts): a refused refresh leaves the token usable.
  const grant = await redeemRefreshToken(deps.grants, presented, client.client_id, now, (found) => {
    if (resource !== undefined && resource !== found.resource)
      throw new OAuthError('invalid_target', `resource must be the one authorized: ${found.resource}.`);
    // RFC 6749 §6: a refresh may narrow the scope, never widen it beyond the consent.
    scope = grantedScope(parseScope(found.scope).known, form.get('scope'));
  });
  return issueUnderGrant(deps, client, grant, scope, now);
}

export async function handleToken(req: Request, deps: OAuthDeps): Promise<Response> {
  if (req.method !== 'POST') throw new OAuthError('invalid_request', 'Use POST.', { status: 405, headers: { allow: 'POST, OPTIONS' } });
  if (new URL(req.url).search) throw new OAuthError('invalid_request', 'Send parameters in the form body, not the query string.');
  const form = await readOAuthForm(req);
  const grantType = form.get('grant_type');
  if (!grantType) throw new OAuthError('invalid_request', 'grant_type is required.');
  if (!(GRANT_TYPES as readonly string[]).includes(grantType)) {
    throw new OAuthError('unsupported_grant_type', `grant_type "${grantType}" is not supported; use ${GRANT_TYPES.join(', ')}.`);
  }
  const now = deps.nowSeconds();
  const client = await authenticateClient(req, form, { clients: deps.clients, clientMetadata: deps.clientMetadata, nowSeconds: now });
  if (!client.grant_types.includes(grantType as GrantType))
    throw new OAuthError('unauthorized_client', `This client is not registered for ${grantType}.`);

  let body: Record<string, unknown>;
  if (grantType === 'client_credentials') {
    const scope = grantedScope(client.scope, form.get('scope'));
    const audience = audienceOf(deps.config, form.get('resource'));
    const { token, claims } = await mintAccessToken(await deps.keys(), {
      issuer: deps.config.issuer,
      audience,
      clientId: client.client_id,
      subject: client.client_id,
      scope,
      nowSeconds: now,
      ttlSeconds: deps.accessTokenTtlSeconds,
    });
    body = tokenResponse(token, claims);
  } else if (grantType === 'authorization_code') {
    body = await authorizationCodeGrant(form, client, deps, now);
  } else {
    body = await refreshTokenGrant(form, client, deps, now);
  }
  await touchClient(deps.clients, client, now);
  deps.usage?.count(`oauth.token.${grantType}`); // one of GRANT_TYPES: checked above
  return oauthJson(body);
}
