/**
 * Discovery documents: RFC 8414 authorization server metadata (with the `agent_auth` block of the
 * auth.md convention) and RFC 9728 protected resource metadata, all derived from {@link oauthConfig}.
 * The RFC 8414 document is also served where OpenID Connect Discovery looks
 * (`/.well-known/openid-configuration`): oauth4webapi and openid-client discover there by default, and the MCP
 * authorization spec has clients try both. It is the same document: this server is no OpenID provider (no ID
 * tokens, no `openid` scope), which its `scopes_supported` and `response_types_supported` say (docs/oauth.md).
 * @module
 */
import {
  PUBLIC_DOCUMENT_EDGE,
  PUBLIC_DOCUMENT_METHODS,
  type PublicDocument,
  publicDocument,
  serveDocument,
} from '../../kernel/document.ts';
import type { EdgeOptions } from '../../kernel/handler.ts';
import { absoluteUrl } from '../../kernel/paths.ts';
import { type OAuthConfig, OAUTH_PATHS, SCOPES } from '../config.ts';
import { OAUTH_ERRORS, OAuthError, oauthErrorResponse } from '../errors.ts';
import type { KeySet } from '../grants/keys.ts';

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
    grant_types_supported: ['authorization_code', 'client_credentials', 'refresh_token'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    code_challenge_methods_supported: ['S256'],
    authorization_response_iss_parameter_supported: true,
    client_id_metadata_document_supported: true,
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

/** Metadata changes only with a deploy or a key rotation; five minutes keeps rotation visible. */
export const METADATA_MAX_AGE_SECONDS = 300;

const documents = new Map<string, PublicDocument>();

/** Serves a metadata document: JSON, CORS open, cacheable, strong ETag with 304. */
export async function metadataResponse(req: Request, document: unknown): Promise<Response> {
  const body = JSON.stringify(document, null, 2);
  let doc = documents.get(body);
  if (!doc) {
    doc = await publicDocument(body, 'application/json; charset=utf-8');
    if (documents.size > 16) documents.clear(); // bodies change only with rotation: keep the map small
    documents.set(body, doc);
  }
  return serveDocument(req, doc, {
    maxAgeSeconds: METADATA_MAX_AGE_SECONDS,
    methodNotAllowed: () =>
      oauthErrorResponse(
        new OAuthError('invalid_request', 'Use GET.', { status: 405, headers: { allow: PUBLIC_DOCUMENT_METHODS.join(', ') } }),
      ),
  });
}

/**
 * The edge of the metadata documents and the JWKS: public documents whose failures (the signing
 * keys cannot be read) are RFC 6749 `server_error`s, logged with a request id.
 */
export const OAUTH_METADATA_EDGE: EdgeOptions = { ...PUBLIC_DOCUMENT_EDGE, errors: OAUTH_ERRORS };

/** What the metadata documents are written from. */
export interface MetadataDeps {
  config: OAuthConfig;
  /** The site's origin: the resource of the root protected-resource document. */
  origin: string;
  siteName: string;
  keys: () => Promise<Pick<KeySet, 'publicJwks'>>;
}

/**
 * Routes the metadata paths: the JWKS, RFC 8414 metadata (at both discovery paths), and RFC 9728 metadata of the site (root)
 * or of the MCP resource (`/.well-known/oauth-protected-resource/mcp`, path-inserted as RFC 9728 §3.1 says).
 */
export async function handleOAuthMetadata(req: Request, deps: MetadataDeps): Promise<Response> {
  const { pathname } = new URL(req.url);
  const { config } = deps;
  if (pathname === OAUTH_PATHS.jwks) return metadataResponse(req, { keys: (await deps.keys()).publicJwks });
  if (pathname === OAUTH_PATHS.asMetadata || pathname === OAUTH_PATHS.oidcMetadata)
    return metadataResponse(req, authorizationServerMetadata(config));
  const resource = pathname === OAUTH_PATHS.prmMcp ? config.mcpResource : deps.origin;
  return metadataResponse(req, protectedResourceMetadata(config, resource, deps.siteName));
}
