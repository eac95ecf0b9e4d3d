/**
 * Whether a browser marks a request as sent from another site: the CSRF check of every form post
 * (OAuth consent and claim pages, the contact form, the feedback control). Clients that are not
 * browsers send neither header and pass.
 * @module
 */

/**
 * `Origin` must be `origin` when present. `Origin: null` is an opaque origin (a sandboxed frame, a
 * `data:` or `file:` page, a page with `Referrer-Policy: no-referrer`) and is foreign whatever
 * `Sec-Fetch-Site` says or leaves out: a browser without Fetch Metadata would otherwise let any such
 * page post. Our own pages with forms never send it (kernel/html.ts sends `same-origin`, the site's
 * pages `strict-origin-when-cross-origin`). `Sec-Fetch-Site` must be `same-origin` or `none`
 * (typed or bookmarked) when present.
 */
export function isCrossSiteRequest(req: Request, origin: string): boolean {
  const sender = req.headers.get('origin');
  if (sender !== null && sender !== new URL(origin).origin) return true;
  const site = req.headers.get('sec-fetch-site');
  return site !== null && site !== 'same-origin' && site !== 'none';
}
