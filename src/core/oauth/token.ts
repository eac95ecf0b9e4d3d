/**
 * `POST /oauth/token` (RFC 6749 §3.2): client_credentials (§4.4) and authorization_code with
 * PKCE S256 (§4.1, RFC 7636). Access tokens are RS256 JWTs (RFC 9068) for the resource named by
 * `resource` (RFC 8707), by default the MCP server.
 * @module
 */
import { type OAuthConfig, parseScope } from './config.ts';
import { authenticateClient, readOAuthForm, touchClient } from './client-auth.ts';
import type { ClientRecord } from './clients.ts';
import { redeemCode } from './codes.ts';
import type { OAuthDeps } from './deps.ts';
import { OAuthError, oauthJson } from './errors.ts';
import { mintAccessToken } from './tokens.ts';


/** The audience for a token: `resource` if given (it must be ours), else the MCP resource. */
export function audienceOf(config: OAuthConfig, resource: string | undefined): string {
  if (resource === undefined) return config.mcpResource;
  if (resource.includes('#') || resource !== config.mcpResource) {
    throw new OAuthError('invalid_target', `resource must be ${config.mcpResource}.`);
  }
  return resource;
}

/** Granted scope: what was asked (default: everything registered), which must be registered. */
export function grantedScope(client: ClientRecord, requested: string | undefined): string {
  if (requested === undefined) return client.scope.join(' ');
  const { known, unknown } = parseScope(requested);
  if (unknown.length || known.length === 0) throw new OAuthError('invalid_scope', `Unknown or empty scope; this client may request: ${client.scope.join(' ')}.`);
  const notAllowed = known.filter((s) => !client.scope.includes(s));
  if (notAllowed.length) throw new OAuthError('invalid_scope', `This client is not registered for ${notAllowed.join(' ')}; it may request: ${client.scope.join(' ')}.`);
  return known.join(' ');
}

export async function handleToken(req: Request, deps: OAuthDeps): Promise<Response> {
  if (req.method !== 'POST') throw new OAuthError('invalid_request', 'Use POST.', { status: 405, headers: { allow: 'POST, OPTIONS' } });
  if (new URL(req.url).search) throw new OAuthError('invalid_request', 'Send parameters in the form body, not the query string.');
  const form = await readOAuthForm(req);
  const grantType = form.get('grant_type');
  if (!grantType) throw new OAuthError('invalid_request', 'grant_type is required.');
  if (grantType !== 'client_credentials' && grantType !== 'authorization_code') {
    throw new OAuthError('unsupported_grant_type', `grant_type "${grantType}" is not supported; use client_credentials or authorization_code.`);
  }
  const now = deps.nowSeconds();
  const client = await authenticateClient(req, form, { clients: deps.clients, nowSeconds: now });
  if (!client.grant_types.includes(grantType)) throw new OAuthError('unauthorized_client', `This client is not registered for ${grantType}.`);

  let scope: string;
  let audience: string;
  let subject = client.client_id;
  let onIssued: ((jti: string, exp: number) => Promise<void>) | undefined;
  if (grantType === 'client_credentials') {
    scope = grantedScope(client, form.get('scope'));
    audience = audienceOf(deps.config, form.get('resource'));
  } else {
    const redeemed = await redeemCode(form, client, deps);
    ({ scope, subject, onIssued } = redeemed);
    audience = redeemed.resource;
  }
  const keys = await deps.keys();
  const { token, claims } = await mintAccessToken(keys, { issuer: deps.config.issuer, audience, clientId: client.client_id, subject, scope, nowSeconds: now });
  await onIssued?.(claims.jti, claims.exp);
  await touchClient(deps.clients, client, now);
  return oauthJson({ access_token: token, token_type: 'Bearer', expires_in: claims.exp - claims.iat, scope });
}
