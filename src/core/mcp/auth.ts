/**
 * The authorization gate of the protected MCP tool (`export_article_index`, scope `content:export`).
 * Protected-tool failures are HTTP 401/403 with `WWW-Authenticate` and a JSON-RPC body whose
 * `result` is a tool error, so SDK clients start OAuth and humans still read why (docs/reference/mcp-oauth.md §4.5).
 * @module
 */
import type { CredentialCheck } from '../kernel/credentials.ts';
import { absoluteUrl, OAUTH_PATHS, paths } from '../kernel/paths.ts';
import { envelopeResponse, success, type JsonObject, type JsonRpcId } from '../kernel/jsonrpc.ts';
import { toolError } from '../agent-tools/tool.ts';
import { EXPORT_RATE_LIMIT, EXPORT_SCOPE } from '../agent-tools/export-article-index.ts';

/** RFC 9728 path-inserted protected resource metadata for the `/mcp` resource. */
export const PROTECTED_RESOURCE_METADATA_PATH = OAUTH_PATHS.prmMcp;

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

/** The outcome of checking a request's `Authorization` header (see src/core/oauth/grants/resource-server.ts). */
export type { CredentialCheck } from '../kernel/credentials.ts';

/** RFC 6750 §3 challenge for a presented token that is not valid. */
export function invalidTokenChallenge(origin: string, description: string): string {
  return `Bearer error="invalid_token", error_description="${description.replace(/"/g, "'")}", resource_metadata="${resourceMetadataUrl(origin)}"`;
}

const INVALID_TOKEN_TEXT: Readonly<Record<string, string>> = {
  expired: 'the access token has expired',
  revoked: 'the access token was revoked',
  issued_in_future: 'the access token is dated in the future',
  wrong_audience: 'the access token was issued for another resource',
  not_bearer: 'the Authorization header is not a Bearer token',
};

/** 401 for a presented but invalid token, with a tool-error body (for `tools/call`). */
export function invalidTokenToolResponse(ctx: AuthorizationContext, reason: string): Response {
  const why = INVALID_TOKEN_TEXT[reason] ?? 'the access token is not valid';
  const result = toolError(`Unauthorized: ${why}. Get a new token (see ${resourceMetadataUrl(ctx.origin)}) and retry.`, {
    error: 'invalid_token',
    reason,
    resource_metadata: resourceMetadataUrl(ctx.origin),
  });
  return envelopeResponse(success(ctx.id, { ...result, ...ctx.resultExtras }), 401, {
    'www-authenticate': invalidTokenChallenge(ctx.origin, why),
  });
}

/** 403 for a valid token without the scope the tool needs. */
export function insufficientScopeToolResponse(ctx: AuthorizationContext, scope: string): Response {
  const metadata = resourceMetadataUrl(ctx.origin);
  const result = toolError(
    `Forbidden: this tool needs scope ${scope}, which your token does not carry. Request a token with scope "${scope}" (register the client for it if needed).`,
    { error: 'insufficient_scope', required_scope: scope, resource_metadata: metadata },
  );
  return envelopeResponse(success(ctx.id, { ...result, ...ctx.resultExtras }), 403, {
    'www-authenticate': `Bearer error="insufficient_scope", scope="${scope}", resource_metadata="${metadata}"`,
  });
}

/**
 * A tool error (HTTP 200, with Retry-After) when a client used up its export allowance: a limit on a tool is the tool's
 * answer (MCP: tool execution errors are results with `isError`), as `submit_feedback` answers its own. A 429 would
 * reach no model: the MCP SDK clients throw on any non-2xx status but 401/403 (which start OAuth).
 */
export function rateLimitedToolResponse(ctx: AuthorizationContext, retryAfterSeconds: number, limitText: string): Response {
  const result = toolError(`Rate limited: ${limitText}. Retry in ${retryAfterSeconds} s.`, {
    error: 'rate_limited',
    retry_after: retryAfterSeconds,
  });
  return envelopeResponse(success(ctx.id, { ...result, ...ctx.resultExtras }), 200, { 'retry-after': String(retryAfterSeconds) });
}

export { EXPORT_RATE_LIMIT };

/**
 * The gate with real tokens: none -> 401 challenge; invalid -> 401 invalid_token; valid without
 * the scope -> 403; over the per-client limit -> 200 with a tool error; else null (run the tool).
 */
export function tokenGate(deps: {
  check: (req: Request) => Promise<CredentialCheck>;
  consumeExport: (clientId: string) => Promise<{ allowed: boolean; retryAfterSeconds: number; contended?: true }>;
}): (req: Request, ctx: AuthorizationContext) => Promise<Response | null> {
  return async (req, ctx) => {
    const check = await deps.check(req);
    if (check.kind === 'none') return unauthorizedToolResponse(ctx, EXPORT_SCOPE);
    if (check.kind === 'invalid') return invalidTokenToolResponse(ctx, check.reason);
    if (!check.scopes.includes(EXPORT_SCOPE)) return insufficientScopeToolResponse(ctx, EXPORT_SCOPE);
    const decision = await deps.consumeExport(check.clientId);
    if (!decision.allowed)
      return rateLimitedToolResponse(
        ctx,
        decision.retryAfterSeconds,
        decision.contended
          ? 'too many export calls counted at the same moment (busy; none of the allowance was used)'
          : `at most ${EXPORT_RATE_LIMIT.limit} export calls per client per hour`,
      );
    return null;
  };
}

/** Memoises a credential check per request, so the dispatcher and the gate verify a token once. */
export function memoisedCheck(check: (req: Request) => Promise<CredentialCheck>): (req: Request) => Promise<CredentialCheck> {
  const seen = new WeakMap<Request, Promise<CredentialCheck>>();
  return (req) => {
    let result = seen.get(req);
    if (!result) {
      result = check(req);
      seen.set(req, result);
    }
    return result;
  };
}

/**
 * Gate used when no token checker is wired (unit tests of the dispatcher): every call is answered
 * as "no credentials".
 */
export async function authorizeExport(req: Request, ctx: AuthorizationContext): Promise<Response | null> {
  void req;
  return unauthorizedToolResponse(ctx, EXPORT_SCOPE);
}
