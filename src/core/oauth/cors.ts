/**
 * CORS for the OAuth endpoints agents call from browsers: no cookies are involved, so any origin
 * may call them; preflights get 204 (the policy: kernel/cors.ts OAUTH_CORS).
 * @module
 */
import { OAUTH_CORS, withCors } from '../kernel/cors.ts';

/** Answers OPTIONS, or runs the handler and adds the CORS headers to its answer. */
export function withOAuthCors(req: Request, handler: () => Promise<Response>): Promise<Response> {
  return withCors(req, OAUTH_CORS, handler);
}
