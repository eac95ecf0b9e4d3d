/**
 * OAuth discovery checks: RFC 8414 authorization server metadata (or OpenID Connect discovery)
 * and RFC 9728 protected resource metadata at the origin's root.
 * @module
 */
import { getJsonDocument, isSecureUrl, summary } from '../http.ts';
import { type CheckContext, fail, pass, type Verdict } from '../types.ts';

export const AS_METADATA_PATH = '/.well-known/oauth-authorization-server';
export const OIDC_CONFIGURATION_PATH = '/.well-known/openid-configuration';
export const PRM_PATH = '/.well-known/oauth-protected-resource';

/** The origin as an issuer / resource identifier: `https://example.com` (no trailing slash). */
function originOf(ctx: CheckContext): string {
  return new URL(ctx.baseUrl).origin;
}

/**
 * RFC 8414 §2 required members, checked strictly: `issuer` identical to the origin the well-known
 * URL was built from (§3.3), https (http only on loopback, so local builds can be checked);
 * `response_types_supported` a non-empty array; `token_endpoint` unless the server only offers
 * the implicit grant; `authorization_endpoint` when a grant needs it (`grant_types_supported`
 * defaults to authorization_code + implicit). Every endpoint an absolute https URL.
 */
export function asMetadataProblem(doc: Record<string, unknown>, origin: string): string | null {
  if (typeof doc.issuer !== 'string') return 'no "issuer"';
  if (doc.issuer !== origin) return `"issuer" is ${doc.issuer}, not the origin ${origin} (RFC 8414 §3.3)`;
  if (!isSecureUrl(doc.issuer)) return '"issuer" must be an https URL';
  if (!Array.isArray(doc.response_types_supported) || doc.response_types_supported.length === 0)
    return 'no "response_types_supported" (REQUIRED by RFC 8414 §2)';
  const grants = Array.isArray(doc.grant_types_supported) ? (doc.grant_types_supported as unknown[]) : ['authorization_code', 'implicit'];
  const needsToken = grants.some((g) => g !== 'implicit');
  const needsAuthorize = grants.includes('authorization_code') || grants.includes('implicit');
  if (needsToken && !isSecureUrl(doc.token_endpoint)) return `no valid "token_endpoint" (${JSON.stringify(doc.token_endpoint ?? null)})`;
  if (needsAuthorize && !isSecureUrl(doc.authorization_endpoint))
    return `no valid "authorization_endpoint" for grant types ${grants.join(', ')}`;
  for (const key of ['jwks_uri', 'registration_endpoint', 'revocation_endpoint', 'introspection_endpoint']) {
    if (doc[key] !== undefined && !isSecureUrl(doc[key])) return `"${key}" is not an absolute https URL`;
  }
  return null;
}

const DISCOVERY_FIX =
  'Serve RFC 8414 metadata at /.well-known/oauth-authorization-server: issuer (= the origin), authorization_endpoint, token_endpoint, response_types_supported, grant_types_supported, jwks_uri.';

/**
 * oauthDiscovery: `/.well-known/oauth-authorization-server`, or (when that is absent)
 * `/.well-known/openid-configuration`, is valid metadata. A present but broken AS document fails
 * even when OIDC discovery exists: clients that read it would be misled.
 */
export async function checkOAuthDiscovery(ctx: CheckContext): Promise<Verdict> {
  const origin = originOf(ctx);
  const as = await getJsonDocument(ctx, AS_METADATA_PATH);
  if ('doc' in as) {
    const problem = asMetadataProblem(as.doc, origin);
    if (problem) return fail(`${AS_METADATA_PATH}: ${problem}`, DISCOVERY_FIX);
    return pass(describeAs(AS_METADATA_PATH, as.doc));
  }
  if (as.res.status !== 404 && as.res.status !== 410) return fail(as.problem, DISCOVERY_FIX);
  const oidc = await getJsonDocument(ctx, OIDC_CONFIGURATION_PATH);
  if ('doc' in oidc) {
    const problem = asMetadataProblem(oidc.doc, origin);
    if (problem) return fail(`${OIDC_CONFIGURATION_PATH}: ${problem}`, DISCOVERY_FIX);
    return pass(describeAs(OIDC_CONFIGURATION_PATH, oidc.doc));
  }
  return fail(`no authorization server metadata (${as.problem}; ${summary(ctx, oidc.res)})`, DISCOVERY_FIX);
}

function describeAs(path: string, doc: Record<string, unknown>): string {
  const grants = Array.isArray(doc.grant_types_supported) ? (doc.grant_types_supported as string[]).join(', ') : 'default grants';
  return `${path}: issuer ${String(doc.issuer)}, ${grants}${doc.jwks_uri ? ', jwks_uri' : ''}`;
}

const PRM_FIX =
  'Serve RFC 9728 metadata at /.well-known/oauth-protected-resource with "resource" equal to the origin and "authorization_servers" listing your issuer.';

/**
 * oauthProtectedResource: 200 JSON whose `resource` is identical to the origin (RFC 9728 §3.3;
 * `https://host` and `https://host/` are the same URI after RFC 3986 normalisation, so both
 * pass). `authorization_servers`, when present, must be an array of issuer URLs; whether it is
 * non-empty is judged by the authMd check (RFC 9728 makes the member OPTIONAL).
 */
export async function checkProtectedResource(ctx: CheckContext): Promise<Verdict> {
  const origin = originOf(ctx);
  const prm = await getJsonDocument(ctx, PRM_PATH);
  if (!('doc' in prm)) return fail(prm.problem, PRM_FIX);
  const { resource, authorization_servers: servers, bearer_methods_supported: bearer } = prm.doc;
  if (typeof resource !== 'string') return fail(`${PRM_PATH}: no "resource"`, PRM_FIX);
  if (resource !== origin && resource !== `${origin}/`)
    return fail(`${PRM_PATH}: resource mismatch ("resource" is ${resource}, expected ${origin})`, PRM_FIX);
  if (servers !== undefined && (!Array.isArray(servers) || !servers.every(isSecureUrl)))
    return fail(`${PRM_PATH}: "authorization_servers" must be an array of https issuer URLs`, PRM_FIX);
  if (bearer !== undefined && (!Array.isArray(bearer) || !bearer.every((m) => ['header', 'body', 'query'].includes(m as string))))
    return fail(`${PRM_PATH}: "bearer_methods_supported" has values other than header, body, query`, PRM_FIX);
  const count = Array.isArray(servers) ? servers.length : 0;
  return pass(`${PRM_PATH}: resource ${resource}, ${count} authorization server(s)`);
}
