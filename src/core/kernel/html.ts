/**
 * Server-rendered HTML pages (OAuth consent, claim approval, their error pages): one escape
 * function, one page shell with a hashed inline stylesheet, one response builder that sets the
 * headers such pages need (no caching, no framing, no referrer).
 * @module
 */
import { base64, sha256 } from './crypto.ts';
import { withErrors, type ErrorFamily, type ErrorLog } from './errors.ts';
import { withSecurityHeaders } from './security-headers.ts';

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/** Minimal, readable, no external assets: these pages work without JavaScript and without the site CSS. */
const PAGE_STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a;background:#fff}
h1{font-size:1.4rem}dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}dt{font-weight:600}dd{margin:0;overflow-wrap:anywhere}
.warn{background:#fff4e5;border:1px solid #f0b45a;padding:.5rem .75rem;border-radius:4px}.error{background:#fdecec;border:1px solid #e08a8a;padding:.5rem .75rem;border-radius:4px}
.code{font:600 1.6rem/1.2 ui-monospace,monospace;letter-spacing:.1em}
form.actions{display:flex;gap:1rem;margin-top:1.5rem}button{font:inherit;padding:.5rem 1.25rem;border-radius:4px;border:1px solid #555;background:#fff;cursor:pointer}
button[value=approve]{background:#1a56db;border-color:#1a56db;color:#fff}input[type=text]{font:inherit;padding:.4rem}
@media (prefers-color-scheme:dark){body{background:#111;color:#eee}button{background:#222;color:#eee}.warn{background:#3a2a10}.error{background:#3a1515}}`;

let styleHash: Promise<string> | undefined;
function styleSource(): Promise<string> {
  styleHash ??= sha256(PAGE_STYLE).then((digest) => `'sha256-${base64(digest)}'`);
  return styleHash;
}

/** A full HTML document. `body` must already be escaped HTML. */
export function htmlPage(title: string, body: string, lang = 'en'): string {
  return `<!doctype html>
<html lang="${escapeHtml(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${escapeHtml(title)}</title>
<style>${PAGE_STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

/**
 * An HTML response that must never be cached, framed or leak its URL (OAuth parameters) in a
 * Referer to another origin. `formTargets` are the origins a form on the page may post or be redirected to: the
 * CSP `form-action` directive also governs the redirect that follows a form post in Chromium.
 */
export async function htmlResponse(
  html: string,
  init: { status?: number; headers?: Record<string, string> | [string, string][]; formTargets?: readonly string[] } = {},
): Promise<Response> {
  const formAction = ["'self'", ...(init.formTargets ?? [])].join(' ');
  const headers = new Headers({
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    pragma: 'no-cache',
    // Not no-referrer: under it a browser posts this page's forms with `Origin: null`, which the CSRF
    // check (kernel/same-origin.ts) refuses as opaque. same-origin sends no Referer to any other origin.
    'referrer-policy': 'same-origin',
    'content-security-policy': `default-src 'none'; style-src ${await styleSource()}; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
  });
  for (const [name, value] of Array.isArray(init.headers) ? init.headers : Object.entries(init.headers ?? {})) headers.append(name, value);
  return withSecurityHeaders(new Response(html, { status: init.status ?? 200, headers }));
}

/** A `303 See Other` (RFC 9700 §4.12: never 307 after a form post). */
export function seeOther(location: string, headers: [string, string][] = []): Response {
  const h = new Headers({ location, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' });
  for (const [name, value] of headers) h.append(name, value);
  return new Response(null, { status: 303, headers: h });
}

/** Runs a page handler; an unexpected failure is logged with a request id and answered with a plain 500 page. */
export const PAGE_ERRORS: ErrorFamily = {
  known: () => null,
  unexpected: (requestId) =>
    htmlResponse(
      htmlPage(
        'Something went wrong',
        `<h1>Something went wrong</h1><p>Please try again. If it keeps failing, quote request ${escapeHtml(requestId)}.</p>`,
      ),
      { status: 500 },
    ),
};

export function withPageErrors(req: Request, handler: () => Promise<Response>, log?: ErrorLog): Promise<Response> {
  return withErrors(PAGE_ERRORS, req, handler, log);
}
