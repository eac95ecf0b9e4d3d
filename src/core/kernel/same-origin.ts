/**
 * Whether a browser marks a request as sent from another site: the CSRF check of every form post
 * (OAuth consent and claim pages, the contact form). Clients that are not browsers send neither
 * header and pass.
 * @module
 */

/**
 * `Origin` must be `origin` when present; `null` passes, since Chromium sends it for a form post
 * from a page with `Referrer-Policy: no-referrer` (the OAuth pages). `Sec-Fetch-Site` must be
 * `same-origin` or `none` (typed or bookmarked) when present, which also catches that `null`
 * when it comes from another site.
 */
export function isCrossSiteRequest(req: Request, origin: string): boolean {
  const sender = req.headers.get('origin');
  if (sender && sender !== 'null' && sender !== new URL(origin).origin) return true;
  const site = req.headers.get('sec-fetch-site');
  return site !== null && site !== 'same-origin' && site !== 'none';
}
