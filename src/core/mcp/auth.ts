/**
 * The authorization gate of the protected MCP tool (`export_article_index`, scope `content:export`).
 * Protected-tool failures are HTTP 401/403 with `WWW-Authenticate` and a JSON-RPC body whose
 * `result` is a tool error, so SDK clients start OAuth and humans still read why (mcp-oauth.md §4.5).
 * @module
 */
import { absoluteUrl, paths } from '../site/paths.ts';
import { envelopeResponse, success, type JsonObject, type JsonRpcId } from './jsonrpc.ts';
import { toolError } from './tools/tool.ts';
import { EXPORT_SCOPE } from './tools/export-article-index.ts';

/** RFC 9728 path-inserted protected resource metadata for the `/mcp` resource. */
export const PROTECTED_RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource/mcp';

/** What the gate needs to answer one `tools/call`. */
export interface AuthorizationContext {
  /** The JSON-RPC id to echo in the body. */
  id: JsonRpcId;
  /** Public origin; the challenge URLs derive from it, never from `Host`. */
  origin: string;
  /** Extra members of the result (modern era: `resultType`, `_meta`). */
  resultExtras?: JsonObject;
}

/** The RFC 9728 metadata URL named in challenges. */
export function resourceMetadataUrl(origin: string): string {
  return absoluteUrl(origin, PROTECTED_RESOURCE_METADATA_PATH);
}

/** RFC 6750 §3 challenge for a request without credentials (no `error=`, RFC 6750 §3.1). */
export function bearerChallenge(origin: string, scope: string): string {
  return `Bearer resource_metadata="${resourceMetadataUrl(origin)}", scope="${scope}"`;
}

/** 401 with the challenge and a tool-error body telling the model which scope to get and where. */
export function unauthorizedToolResponse(ctx: AuthorizationContext, scope: string): Response {
  const metadata = resourceMetadataUrl(ctx.origin);
  const result = toolError(
    `Authorization required: this tool needs an OAuth access token with scope ${scope}. ` +
      `Discover the authorization server at ${metadata}, obtain a token for the resource ${absoluteUrl(ctx.origin, paths.mcp)} and send it as "Authorization: Bearer <token>".`,
    { error: 'unauthorized', required_scope: scope, resource_metadata: metadata },
  );
  return envelopeResponse(success(ctx.id, { ...result, ...ctx.resultExtras }), 401, {
    'www-authenticate': bearerChallenge(ctx.origin, scope),
  });
}

/**
 * Gate for `tools/call export_article_index`: an error Response (401/403) or null to let the call run.
 *
 * TODO(oauth): validate the bearer token here (mcp-oauth.md §4.6): read `Authorization: Bearer`
 * only from the header; jose `jwtVerify` against our own key set (`typ: at+jwt`, RS256 only,
 * `iss` = origin, `aud` ∋ `<origin>/mcp`, exp/nbf/iat, `jti` not revoked); on success with
 * `scope` ∋ content:export return null; valid token without the scope → 403
 * `error="insufficient_scope"`; malformed/invalid/expired/revoked token → 401
 * `error="invalid_token"`. Until then every call is answered as "no credentials".
 */
export async function authorizeExport(req: Request, ctx: AuthorizationContext): Promise<Response | null> {
  void req; // TODO(oauth): the Authorization header is read here once tokens exist.
  return unauthorizedToolResponse(ctx, EXPORT_SCOPE);
}
