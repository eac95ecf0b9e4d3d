/**
 * Discovery documents: RFC 8414 authorization server metadata (with the `agent_auth` block of the
 * auth.md convention) and RFC 9728 protected resource metadata, all derived from {@link oauthConfig}.
 * @module
 */
import { absoluteUrl } from '../site/paths.ts';
import { type OAuthConfig, OAUTH_PATHS, SCOPES } from './config.ts';

export function authorizationServerMetadata(config: OAuthConfig): Record<string, unknown> {
  const authMd = absoluteUrl(config.issuer, OAUTH_PATHS.authMd);
  const { register, claim, revoke } = config.endpoints;
  return {
    issuer: config.issuer,
    authorization_endpoint: config.endpoints.authorize,
    token_endpoint: config.endpoints.token,
    registration_endpoint: register,
    revocation_endpoint: revoke,
    jwks_uri: config.endpoints.jwks,
    scopes_supported: [...SCOPES],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'client_credentials'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    code_challenge_methods_supported: ['S256'],
    authorization_response_iss_parameter_supported: true,
    service_documentation: authMd,
    agent_auth: {
      skill: authMd,
      register_uri: register,
      claim_uri: claim,
      revocation_uri: revoke,
      identity_endpoint: register,
      claim_endpoint: claim,
      identity_types_supported: ['anonymous'],
      anonymous: { credential_types_supported: ['client_secret', 'bearer_token'], register_uri: register, claim_uri: claim },
      events_supported: [],
    },
  };
}

/** RFC 9728 metadata for `resource` (the origin at the root document, `<origin>/mcp` at the path-inserted one). */
export function protectedResourceMetadata(config: OAuthConfig, resource: string, siteName: string): Record<string, unknown> {
  return {
    resource,
    authorization_servers: [config.issuer],
    scopes_supported: [...SCOPES],
    bearer_methods_supported: ['header'],
    jwks_uri: config.endpoints.jwks,
    resource_name: resource === config.mcpResource ? `${siteName} MCP server` : siteName,
    resource_documentation: absoluteUrl(config.issuer, OAUTH_PATHS.authMd),
  };
}

/** Serves a metadata document: JSON, CORS open, cacheable, strong ETag with 304. */
export async function metadataResponse(req: Request, document: unknown): Promise<Response> {
  const headers: Record<string, string> = {
    'access-control-allow-origin': '*',
    'access-control-allow-methods': 'GET, HEAD, OPTIONS',
    'access-control-expose-headers': 'ETag',
  };
  if (req.method === 'OPTIONS') return new Response(null, { status: 204, headers });
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    return new Response(JSON.stringify({ error: 'invalid_request', error_description: 'Use GET.' }), { status: 405, headers: { ...headers, allow: 'GET, HEAD, OPTIONS', 'content-type': 'application/json' } });
  }
  const body = JSON.stringify(document, null, 2);
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(body));
  const etag = `"${[...new Uint8Array(digest)].slice(0, 16).map((b) => b.toString(16).padStart(2, '0')).join('')}"`;
  const common = { ...headers, etag, 'cache-control': 'public, max-age=300' };
  if (req.headers.get('if-none-match')?.split(',').map((t) => t.trim()).includes(etag)) return new Response(null, { status: 304, headers: common });
  return new Response(req.method === 'HEAD' ? null : body, { headers: { ...common, 'content-type': 'application/json; charset=utf-8' } });
}
