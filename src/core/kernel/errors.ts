/**
 * The one mechanism that turns a handler's failure into a response. Each protocol family says how
 * it answers an error it knows (RFC 9457 problems for `/api/*`, RFC 6749 errors for `/oauth/*`,
 * JSON-RPC errors for `/mcp` and `/a2a`, an HTML page for forms) and how it answers a bug; the
 * logging and the request id that a person can quote are the same everywhere.
 * @module
 */

export type ErrorLog = (message: string, error: unknown) => void;

export interface ErrorFamily {
  /** The response for an error this family throws on purpose, or null when it is not one of its own. */
  known(error: unknown, req: Request): Response | null;
  /** The response for anything else (a bug): says nothing of internals, quotes the request id. */
  unexpected(requestId: string, req: Request): Response | Promise<Response>;
}

/** Runs `handler`; a known error becomes its family's response, anything else is logged and answered by `unexpected`. */
export async function withErrors(
  family: ErrorFamily,
  req: Request,
  handler: () => Promise<Response>,
  log: ErrorLog = console.error,
): Promise<Response> {
  try {
    return await handler();
  } catch (error) {
    const known = family.known(error, req);
    if (known) return known;
    const requestId = crypto.randomUUID();
    log(`[${requestId}] ${req.method} ${new URL(req.url).pathname} failed`, error);
    return family.unexpected(requestId, req);
  }
}
