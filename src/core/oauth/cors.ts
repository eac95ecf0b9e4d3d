/**
 * CORS for the OAuth endpoints agents call from browsers: no cookies are involved, so any origin
 * may call them; preflights get 204.
 * @module
 */
export const OAUTH_CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-allow-headers': 'Authorization, Content-Type',
  'access-control-expose-headers': 'WWW-Authenticate, Retry-After',
  'access-control-max-age': '86400',
};

/** Answers OPTIONS, or runs the handler and adds the CORS headers to its answer. */
export async function withOAuthCors(req: Request, handler: () => Promise<Response>): Promise<Response> {
  if (req.method === 'OPTIONS') return new Response(null, { status: 204, headers: { ...OAUTH_CORS_HEADERS } });
  const res = await handler();
  const headers = new Headers(res.headers);
  for (const [name, value] of Object.entries(OAUTH_CORS_HEADERS)) headers.set(name, value);
  return new Response(res.body, { status: res.status, headers });
}
