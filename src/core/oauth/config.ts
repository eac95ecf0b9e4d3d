/**
 * The authorization server's facts, derived from the site origin: issuer, endpoints, scopes,
 * lifetimes. Metadata documents, auth.md, tokens and the resource server all read this one place.
 * @module
 */
import { EXPORT_SCOPE } from '../agent-tools/export-article-index.ts';
import { absoluteUrl, OAUTH_PATHS } from '../kernel/paths.ts';

export const SCOPES = ['articles:read', EXPORT_SCOPE] as const;
export type Scope = (typeof SCOPES)[number];

/** What each scope lets a client do, in words a person approving it understands (consent page, auth.md). */
export const SCOPE_DESCRIPTIONS: Readonly<Record<Scope, string>> = {
  'articles:read': 'Search and read the published articles, solutions and products (public anyway; lets a client identify itself).',
  [EXPORT_SCOPE]: 'Export the whole article index (metadata and URLs of every article) through the MCP tool export_article_index.',
};

/** RFC 9068 access-token lifetime. */
export const ACCESS_TOKEN_TTL_SECONDS = 3600;
/** Authorization codes are single use and short-lived (RFC 9700 §4.5 suggests <= 60 s). */
export const AUTHORIZATION_CODE_TTL_SECONDS = 60;
/** Unclaimed anonymous registrations expire after this long without use. */
export const UNCLAIMED_CLIENT_TTL_SECONDS = 30 * 24 * 3600;
/**
 * Claimed registrations expire after this long without use: a script can approve its own claim,
 * so a claim proves persistence, not a person, and nothing is kept forever.
 */
export const CLAIMED_CLIENT_TTL_SECONDS = 365 * 24 * 3600;
const days = (seconds: number): number => seconds / 86_400;
/** How long registrations live, in the words auth.md and the OpenAPI document both use (one source). */
export const REGISTRATION_LIFETIME_TEXT =
  `An unclaimed registration expires after ${days(UNCLAIMED_CLIENT_TTL_SECONDS)} days without use and a claimed one ` +
  `after ${days(CLAIMED_CLIENT_TTL_SECONDS)} days without use; each use extends it.`;
/** A refresh token must be used within this time, or the grant lapses (each use starts a new window). */
export const REFRESH_TOKEN_IDLE_TTL_SECONDS = 30 * 24 * 3600;
/** However often it is refreshed, a grant ends this long after the consent that created it. */
export const REFRESH_TOKEN_ABSOLUTE_TTL_SECONDS = 90 * 24 * 3600;
/** Every client_id starts with this, so an id is recognisable in logs and never collides with a `sub` of another kind. */
export const CLIENT_ID_PREFIX = 'agt_';
/** A consent or claim-approval form must be answered within this time. */
export const INTERACTION_TTL_SECONDS = 600;
/** A claim attempt (user code) is valid this long (RFC 8628 suggests minutes). */
export const CLAIM_ATTEMPT_TTL_SECONDS = 600;
/** Minimum seconds between two polls of one claim attempt (RFC 8628 §3.5 `interval`). */
export const CLAIM_POLL_INTERVAL_SECONDS = 5;
/** Allowed clock skew when verifying tokens (`exp`, and `iat` in the future). */
export const CLOCK_SKEW_SECONDS = 30;

export { OAUTH_PATHS } from '../kernel/paths.ts';

export interface OAuthConfig {
  issuer: string;
  /** The default audience: the MCP resource. */
  mcpResource: string;
  endpoints: { register: string; token: string; authorize: string; revoke: string; claim: string; claimVerify: string; jwks: string };
}

export function oauthConfig(origin: string): OAuthConfig {
  const url = (path: string): string => absoluteUrl(origin, path);
  return {
    issuer: origin,
    mcpResource: url(OAUTH_PATHS.mcp),
    endpoints: {
      register: url(OAUTH_PATHS.register),
      token: url(OAUTH_PATHS.token),
      authorize: url(OAUTH_PATHS.authorize),
      revoke: url(OAUTH_PATHS.revoke),
      claim: url(OAUTH_PATHS.claim),
      claimVerify: url(OAUTH_PATHS.claimVerify),
      jwks: url(OAUTH_PATHS.jwks),
    },
  };
}

/**
 * The scope to grant (RFC 6749 §3.3): what was requested (all of `allowed` when nothing was) and
 * is in `allowed`; unknown or unregistered scopes are left out, and the response's `scope` says
 * what was granted. Null when nothing is left.
 */
export function intersectScope(allowed: readonly Scope[], requested: string | undefined | null): Scope[] | null {
  if (requested === undefined || requested === null) return allowed.length ? [...allowed] : null;
  const granted = parseScope(requested).known.filter((s) => allowed.includes(s));
  return granted.length ? granted : null;
}

/** Parses a space-separated scope string; unknown scopes are returned separately. */
export function parseScope(value: string | undefined | null): { known: Scope[]; unknown: string[] } {
  const parts = (value ?? '').split(' ').filter(Boolean);
  const known = [...new Set(parts.filter((p): p is Scope => (SCOPES as readonly string[]).includes(p)))];
  return { known, unknown: parts.filter((p) => !(SCOPES as readonly string[]).includes(p)) };
}
