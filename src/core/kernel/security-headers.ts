/**
 * The security headers of every response: the one source for netlify.toml's `[[headers]] for = "/*"`
 * (static files; a test checks the file against these constants) and for everything a function or
 * the edge function answers, which Netlify never gives the netlify.toml headers.
 * @module
 */

/** Two years of HSTS. */
const HSTS_MAX_AGE_SECONDS = 2 * 365 * 24 * 60 * 60;

/** Headers every response carries, whatever its type. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'strict-transport-security': `max-age=${HSTS_MAX_AGE_SECONDS}; includeSubDomains`,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
  'cross-origin-opener-policy': 'same-origin',
};

/**
 * The site's pages: inline style attributes are allowed (syntax highlighting uses them); scripts
 * only from this origin, plus WebAssembly for the Pagefind search page.
 */
export const SITE_CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; style-src-attr 'unsafe-inline'; img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

/** Anything that is not HTML (JSON, markdown, problems): loads nothing, is framed nowhere. */
export const DATA_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

const isHtml = (contentType: string | null): boolean => /^\s*(text\/html|application\/xhtml\+xml)\b/i.test(contentType ?? '');

/**
 * The response with every {@link SECURITY_HEADERS} entry and a CSP added where it lacks them (a
 * page's own stricter CSP or Referrer-Policy stands). HTML without a CSP gets the site's.
 * Headers of a fetched response are immutable, so the result is always a new Response.
 */
export function withSecurityHeaders(response: Response): Response {
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) if (!headers.has(name)) headers.set(name, value);
  if (!headers.has('content-security-policy')) {
    headers.set(
      'content-security-policy',
      isHtml(headers.get('content-type')) ? SITE_CONTENT_SECURITY_POLICY : DATA_CONTENT_SECURITY_POLICY,
    );
  }
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
