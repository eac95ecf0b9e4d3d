/**
 * CORS, in one place: each family of endpoints states a policy (methods, request headers it
 * accepts, response headers a page may read) and gets its headers and preflight answer from here.
 * No endpoint uses cookies, so no policy allows credentials.
 * @module
 */

/** How long a browser may cache a preflight answer. */
export const CORS_PREFLIGHT_MAX_AGE_SECONDS = 86_400;

export interface CorsPolicy {
  /** Methods besides OPTIONS. */
  methods: readonly string[];
  /** Request headers a page may send. */
  allowHeaders: readonly string[];
  /** Response headers a page may read beyond the CORS-safelisted ones. */
  exposeHeaders?: readonly string[];
  /** Every answer repeats what a preflight grants (methods, request headers), not only the preflight. */
  repeatAllowances?: boolean;
  /**
   * Only these browser origins, each echoed with `Vary: Origin` (the JSON-RPC endpoints' DNS-rebinding
   * guard). A request from another origin gets no CORS headers, and its preflight is left to the
   * endpoint, whose guard refuses it. Absent: every origin (`*`).
   */
  allowOrigin?: (origin: string) => boolean;
}

/**
 * The headers of an answer. `origin` `'*'` opens it to every site; an origin string (already
 * checked by the caller) is echoed with `Vary: Origin`; null (no Origin header) adds nothing.
 */
export function corsHeaders(policy: CorsPolicy, origin: string | null = '*'): Record<string, string> {
  if (origin === null) return {};
  return {
    'access-control-allow-origin': origin,
    ...(policy.exposeHeaders?.length ? { 'access-control-expose-headers': policy.exposeHeaders.join(', ') } : {}),
    ...(origin === '*' ? {} : { vary: 'Origin' }),
  };
}

/** What a preflight grants: methods and request headers (documents repeat them on every answer). */
export function allowances(policy: CorsPolicy): Record<string, string> {
  return {
    'access-control-allow-methods': [...policy.methods, 'OPTIONS'].join(', '),
    'access-control-allow-headers': policy.allowHeaders.join(', '),
  };
}

/** The headers of a preflight answer: the answer's own plus the methods and headers allowed. */
export function preflightHeaders(policy: CorsPolicy, origin: string | null = '*'): Record<string, string> {
  return { ...corsHeaders(policy, origin), ...allowances(policy), 'access-control-max-age': String(CORS_PREFLIGHT_MAX_AGE_SECONDS) };
}

/** 204 to a preflight. */
export function preflightResponse(policy: CorsPolicy, origin: string | null = '*', extra: Record<string, string> = {}): Response {
  return new Response(null, { status: 204, headers: { ...preflightHeaders(policy, origin), ...extra } });
}

/** Public read APIs (`/api/search`, `/api/tweets`). */
export const PUBLIC_API_CORS: CorsPolicy = {
  methods: ['GET', 'HEAD'],
  allowHeaders: ['Accept', 'Content-Type', 'If-None-Match'],
  exposeHeaders: ['ETag', 'Retry-After'],
  repeatAllowances: true,
};
/**
 * Public documents (discovery, cards, metadata): `If-None-Match` may be sent and the ETag read, and
 * `A2A-Version`, which the A2A SDKs send when they fetch the agent card (it chooses the card's shape).
 */
export const PUBLIC_DOCUMENT_CORS: CorsPolicy = {
  methods: ['GET', 'HEAD'],
  allowHeaders: ['A2A-Version', 'Content-Type', 'If-None-Match'],
  exposeHeaders: ['ETag', 'Link'],
  repeatAllowances: true,
};
/** The OAuth endpoints agents call from browsers. */
export const OAUTH_CORS: CorsPolicy = {
  methods: ['POST'],
  allowHeaders: ['Authorization', 'Content-Type'],
  exposeHeaders: ['WWW-Authenticate', 'Retry-After'],
};
