/**
 * What the edge function answers in front of the static build (netlify/edge-functions/negotiate.ts
 * is its adapter): the static discovery documents with validators (ETag, 304) and their CORS
 * preflight; pages as HTML or their markdown twin by `Accept` (page-negotiation.ts), with the
 * discovery `Link`s, validators and the same open CORS; OPTIONS with `Allow` and a 405 for writes
 * anywhere; HEAD as GET; a 400 for an address with a malformed percent-escape, in the site's error
 * page (page-negotiation.ts `malformedPathAnswer`). Any other file on GET is handed on to the CDN
 * (`undefined`). Runtime-neutral: the edge runs it on Deno.
 * @module
 */
import { PUBLIC_DOCUMENT_EDGE, strongEtag, withValidators } from '../kernel/document.ts';
import { asGet, edge } from '../kernel/handler.ts';
import { DISCOVERY_LINKS, formatLinks, STATIC_DISCOVERY_PATHS } from '../kernel/links.ts';
import { type FetchPath, isMalformedPath, malformedPathAnswer, negotiatePage, staticMethodNotAllowed } from './page-negotiation.ts';

const LINKS = formatLinks(DISCOVERY_LINKS);

/** Static discovery documents are read cross-origin with `If-None-Match`, which needs a preflight. */
const discoveryDocument = edge(
  async (req: Request, readStatic: FetchPath): Promise<Response> =>
    req.method === 'GET' ? withValidators(req, await readStatic(new URL(req.url).pathname)) : staticMethodNotAllowed(req),
  PUBLIC_DOCUMENT_EDGE,
);

/**
 * Pages and files only read: OPTIONS lists GET, HEAD and OPTIONS (and is the CORS preflight of a page, as of
 * a discovery document); any other method is a 405.
 */
const readOnly = edge((req: Request) => staticMethodNotAllowed(req), PUBLIC_DOCUMENT_EDGE);

/**
 * A page in any of its variants, with validators. Public and read-only, so readable from any origin as the
 * text files are: the markdown twin is an MCP resource URI, which a browser agent that calls `/mcp`
 * cross-origin re-fetches without MCP. Every variant says so, and so do the markdown and text 404, 406
 * and 400 an agent reads; the HTML error pages are for browsers and are the CDN's own 404 page, which the
 * Netlify emulator serves without the edge's headers (tests/integration/runtime-parity.test.ts).
 */
const publicPage = edge(
  async (req: Request, negotiated: Response): Promise<Response> => withValidators(req, await variantTagged(negotiated)),
  PUBLIC_DOCUMENT_EDGE,
);

/** Whether `res` is an HTML error page (no CORS: see {@link publicPage}). */
const isHtmlErrorPage = (res: Response): boolean =>
  !res.ok && res.status !== 304 && !!res.headers.get('content-type')?.startsWith('text/html');

/** The edge's answer for a page: open CORS, but for an HTML error page. */
const pageAnswer = async (req: Request, res: Response): Promise<Response> => (isHtmlErrorPage(res) ? res : publicPage(req, res));

/**
 * The twin served as text/plain is another representation than the same file as text/markdown: its entity tag
 * differs (RFC 9110 §8.8.3), so a cache never takes one for the other.
 */
async function variantTagged(res: Response): Promise<Response> {
  if (res.status !== 200 || !res.headers.get('content-type')?.startsWith('text/plain')) return res;
  const body = await res.text();
  const headers = new Headers(res.headers);
  headers.set('etag', (headers.get('etag') ?? (await strongEtag(body))).replace(/"$/, '-plain"'));
  return new Response(body, { status: res.status, statusText: res.statusText, headers });
}

/**
 * The edge's answer to `req`; `readStatic` reads a path of the static build with GET (Netlify's
 * `context.next`). `undefined`: the CDN serves the request itself.
 */
export async function answerAtEdge(req: Request, readStatic: FetchPath): Promise<Response | undefined> {
  const { pathname } = new URL(req.url);
  // HEAD goes on as GET, body included (kernel/handler.ts asGet): an empty answer would go out as Content-Length: 0.
  const get = asGet(req);
  if (STATIC_DISCOVERY_PATHS.includes(pathname)) return discoveryDocument(get, readStatic);
  if (get.method !== 'GET') return readOnly(get);
  // `/blog/%ZZ`: a 400 in the site's error page (or text, for an agent), where a read of the build would throw or miss.
  if (isMalformedPath(pathname)) return pageAnswer(get, await malformedPathAnswer(get, readStatic));
  const negotiated = await negotiatePage(get, readStatic, LINKS);
  // A page's variant gets validators as the discovery documents do: the CDN cannot answer a revalidation itself, as
  // Netlify strips the conditional headers from the edge function's read (context.next) unless asked to keep them.
  if (negotiated) return pageAnswer(get, negotiated);
  // Any other file: the CDN serves GET itself; a HEAD passed through would come back as Content-Length: 0.
  return req.method === 'HEAD' ? readStatic(pathname) : undefined;
}
