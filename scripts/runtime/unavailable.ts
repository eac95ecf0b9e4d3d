/**
 * The 503 a local runtime answers while it has no build to serve (one under way, the last one failed, or one made for
 * another origin), in the error format of the endpoint asked, as the functions themselves would answer: problem
 * details (RFC 9457) under /api/ and /health, a JSON-RPC error on /mcp and /a2a, an RFC 6749 error under /oauth/,
 * markdown to a request for markdown, else the pages' plain text (stranger s10b, finding 5). Netlify never serves a
 * failed build, so only a local server meets this.
 * @module
 */

/** How long a client is asked to wait: about a build of a small site. */
const RETRY_AFTER_SECONDS = 30;

/** JSON-RPC's implementation-defined server error (-32000 to -32099): the server cannot answer now. */
export const UNAVAILABLE_JSONRPC_CODE = -32000;

const isUnder = (pathname: string, prefix: string): boolean => pathname === prefix || pathname.startsWith(`${prefix}/`);

/** The largest body whose JSON-RPC id the 503 echoes: a request's, not an upload's. */
const ID_READ_LIMIT_BYTES = 64 * 1024;

/** The id of a JSON-RPC request body, as the answer must echo it; null for a batch, a notification or anything else. */
async function jsonRpcId(request: Request): Promise<string | number | null> {
  if (request.method !== 'POST' || !request.body) return null;
  const reader = request.clone().body!.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      size += read.value.byteLength;
      if (size > ID_READ_LIMIT_BYTES) return null;
      chunks.push(read.value);
    }
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id?: unknown };
    return typeof body?.id === 'string' || typeof body?.id === 'number' ? body.id : null;
  } catch {
    return null;
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/** The 503 for `request` while the runtime cannot serve a build; `detail` says why and what to run. */
export async function unavailable(request: Request, detail: string): Promise<Response> {
  const { pathname } = new URL(request.url);
  const text = detail.trim();
  const headers = { 'cache-control': 'no-store', 'retry-after': String(RETRY_AFTER_SECONDS) };
  const answer = (body: string, contentType: string): Response =>
    new Response(request.method === 'HEAD' ? null : body, { status: 503, headers: { ...headers, 'content-type': contentType } });
  if (isUnder(pathname, '/api') || pathname === '/health')
    return answer(
      JSON.stringify({ type: 'about:blank', title: 'Service Unavailable', status: 503, detail: text }),
      'application/problem+json',
    );
  if (isUnder(pathname, '/mcp') || isUnder(pathname, '/a2a'))
    return answer(
      JSON.stringify({ jsonrpc: '2.0', id: await jsonRpcId(request), error: { code: UNAVAILABLE_JSONRPC_CODE, message: text } }),
      'application/json',
    );
  if (isUnder(pathname, '/oauth'))
    return answer(JSON.stringify({ error: 'temporarily_unavailable', error_description: text }), 'application/json');
  if (/\btext\/markdown\b/i.test(request.headers.get('accept') ?? '') || pathname.endsWith('.md'))
    return answer(`# Service unavailable\n\n${text}\n`, 'text/markdown; charset=utf-8');
  return answer(`${text}\n`, 'text/plain; charset=utf-8');
}

/** Why a build made for `builtFor` is not served by a runtime for `origin`, and what to run. */
export function wrongOriginText(builtFor: string, origin: string): string {
  // SITE_URL, not PORT: it wins over PORT (and over a SITE_URL in .env), so the command is right whatever .env holds.
  return (
    `The build in dist/ was made for ${builtFor}, but this server serves ${origin}: its links, OAuth issuer and cards ` +
    `would send clients to ${builtFor}. Build for this server (\`SITE_URL=${origin} npm run build\`, or SITE_URL ` +
    'in .env, which npm run build reads too), or restart npm start, which builds for its own origin.'
  );
}
