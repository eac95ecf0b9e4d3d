/**
 * What every HTTP adapter (each Netlify function, the edge function) wraps its handler in, so the
 * rules below hold for every response without each handler repeating them.
 * @module
 */
import { withSecurityHeaders } from './security-headers.ts';

/**
 * HEAD is answered as GET (RFC 9110 §9.3.2: the same headers), body and all: the HTTP server in
 * front drops the body and may send its length. An empty answer of our own would not do: Netlify's
 * edge bootstrap deletes every `Content-Length` an edge function sets, and Deno's server then
 * sends `Content-Length: 0` for a null body, which RFC 9110 §8.6 forbids for HEAD.
 */
export function asGet(req: Request): Request {
  return req.method === 'HEAD' ? new Request(req, { method: 'GET' }) : req;
}

/** Wraps a handler: HEAD handled as GET ({@link asGet}), security headers on every response. */
export function httpHandler<Rest extends unknown[]>(
  handler: (req: Request, ...rest: Rest) => Response | Promise<Response>,
): (req: Request, ...rest: Rest) => Promise<Response> {
  return async (req, ...rest) => withSecurityHeaders(await handler(asGet(req), ...rest));
}
