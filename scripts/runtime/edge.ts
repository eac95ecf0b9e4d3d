/**
 * Edge functions in this process, in front of the origin (functions, redirects, static files),
 * with the `context.next()` semantics of Netlify's Deno bootstrap (@netlify/edge-functions-dev,
 * dist/deno/bootstrap.mjs): a Request passed to `next()` replaces the URL (same origin only);
 * unless every `next()` asks for `sendConditionalRequest`, the origin request loses its conditional
 * headers; `x-nf-*` headers never reach the function; returning `undefined` passes the request on.
 */
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';

export type EdgeHandler = (request: Request, context: object) => Response | undefined | Promise<Response | undefined>;
export type Origin = (request: Request) => Promise<Response>;

interface NextOptions {
  sendConditionalRequest?: boolean;
}

/** The bootstrap's list: stripped from the origin request unless the function asks to keep them. */
const CONDITIONAL_HEADERS = ['if-match', 'if-none-match', 'if-modified-since', 'if-unmodified-since', 'if-range'];

export async function loadEdgeFunction(mainFile: string): Promise<{ handler: EdgeHandler; config: object | undefined }> {
  const module = (await import(pathToFileURL(mainFile).href)) as { default?: unknown; config?: object };
  if (typeof module.default !== 'function') throw new Error(`${mainFile}: the default export is not a function`);
  return { handler: module.default as EdgeHandler, config: module.config };
}

function withoutHeaders(request: Request, names: (name: string) => boolean): Request {
  const headers = new Headers(request.headers);
  for (const name of [...headers.keys()]) if (names(name)) headers.delete(name);
  // duplex: Node needs it to pass a streamed body on.
  return new Request(request, { headers, duplex: 'half' } as RequestInit);
}

/** Runs one edge function; `origin` is the rest of the chain. An uncaught error is a 500. */
export async function runEdgeFunction(
  name: string,
  handler: EdgeHandler,
  request: Request,
  origin: Origin,
  ip: string,
  waitUntil: (promise: Promise<unknown>) => void,
): Promise<Response> {
  const clean = withoutHeaders(request, (h) => h.startsWith('x-nf-'));
  let sendConditional = true;
  let passedOn = false;
  const next = async (input?: Request | NextOptions, options?: NextOptions): Promise<Response> => {
    passedOn = true;
    const nextRequest = input instanceof Request ? input : clean;
    const nextOptions = (input instanceof Request ? options : input) ?? {};
    if (new URL(nextRequest.url).origin !== new URL(clean.url).origin)
      throw new Error('Edge functions can only rewrite requests to the same host');
    if (!nextOptions.sendConditionalRequest) sendConditional = false;
    return origin(sendConditional ? nextRequest : withoutHeaders(nextRequest, (h) => CONDITIONAL_HEADERS.includes(h)));
  };
  const notEmulated = (field: string) => () => {
    throw new Error(`context.${field} is not emulated by the local runtime (scripts/runtime/edge.ts)`);
  };
  const context = {
    ip,
    requestId: randomUUID(),
    next,
    server: { region: 'dev' },
    site: { id: '0', name: 'local', url: new URL(request.url).origin },
    waitUntil,
  };
  for (const field of ['cookies', 'geo', 'params', 'rewrite', 'flags', 'json', 'log'])
    Object.defineProperty(context, field, { get: notEmulated(field) });
  try {
    const response = await handler(clean, context);
    if (response instanceof Response) return response;
    if (response !== undefined) throw new Error(`edge function ${name} returned ${typeof response}, not a Response`);
    // Pass-through: the request goes on as it came (conditional headers kept unless next() dropped them).
    return passedOn && !sendConditional ? origin(withoutHeaders(clean, (h) => CONDITIONAL_HEADERS.includes(h))) : origin(clean);
  } catch (error) {
    console.error(`edge function ${name} failed on ${request.method} ${new URL(request.url).pathname}:`, error);
    return new Response(`An edge function failed (${name}): ${error instanceof Error ? error.message : String(error)}\n`, {
      status: 500,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
    });
  }
}
