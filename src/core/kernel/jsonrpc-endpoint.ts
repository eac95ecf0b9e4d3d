/**
 * The HTTP side of a JSON-RPC endpoint over POST, written once for MCP (Streamable HTTP, stateless)
 * and A2A (the JSON-RPC binding): the browser-origin guard (DNS rebinding), the method, media type
 * and Accept checks, the body read within its byte limit, the parse into one
 * message, and the 500 of an unexpected failure (logged with a request id). The protocol sees only
 * a parsed request (or notification) and answers it. OPTIONS and the CORS headers are the edge's
 * ({@link jsonRpcEdge}, kernel/handler.ts), for the origins the guard lets through.
 * @module
 */
import type { CorsPolicy } from './cors.ts';
import { type ErrorFamily, type ErrorLog, withErrors } from './errors.ts';
import { envelopeResponse, failure, isRejection, JsonRpcErrorCode, type JsonRpcId, type JsonRpcMessage, parseMessage } from './jsonrpc.ts';
import type { EdgeOptions } from './handler.ts';
import { jsonRpcIdOf } from './read-limit.ts';
import { ACCEPT_IDENTITY_ONLY, contentCodingMessage, mediaTypeOf, readBody } from './respond.ts';

/** What differs between two JSON-RPC endpoints; everything else is the same transport. */
export interface JsonRpcEndpoint {
  /** Whether a browser on `origin` may call (others get 403: the DNS-rebinding guard). */
  allowOrigin(origin: string): boolean;
  /** The `Allow` header of the 405 answer to other methods. */
  allow: string;
  maxBodyBytes: number;
  messages: { methodNotAllowed: string; unsupportedMediaType: string; tooLarge: string; notAcceptable?: string };
  /** Refuse (406) a request whose Accept leaves out application/json (MCP requires it; A2A does not). */
  requireAcceptJson: boolean;
  /** A JSON-RPC response posted to the endpoint: 202 (MCP's transport accepts them) or refused as an invalid request (A2A). */
  responses: 'accept' | 'refuse';
  /** A notification: answered 202 here (A2A), or handed to the protocol (MCP checks its headers first). */
  notifications: 'accept' | 'handle';
  log?: ErrorLog | undefined;
}

/** A message the protocol answers: a request, or a notification when the endpoint hands them over. */
export type HandledMessage = Exclude<JsonRpcMessage, { kind: 'response' }>;

/** The edge of a JSON-RPC endpoint: POST, and CORS with `policy` for the origins the endpoint's guard allows. */
export function jsonRpcEdge(policy: CorsPolicy, allowOrigin: (origin: string) => boolean): EdgeOptions {
  return { methods: ['POST'], cors: { ...policy, allowOrigin } };
}

/** Whether an Accept header admits `application/json` (absent or empty admits everything; `q=0` refuses). */
export function acceptsJson(accept: string | null): boolean {
  if (accept === null || accept.trim() === '') return true;
  return accept.split(',').some((range) => {
    const [type, ...params] = range.split(';').map((part) => part.trim().toLowerCase());
    const zero = params.some((p) => /^q=0(\.0{0,3})?$/.test(p));
    return !zero && (type === 'application/json' || type === 'application/*' || type === '*/*');
  });
}

/** Answers one HTTP request to a JSON-RPC endpoint; never throws (a failure of `handle` is a logged 500 -32603). */
export async function serveJsonRpc(
  req: Request,
  endpoint: JsonRpcEndpoint,
  handle: (message: HandledMessage) => Promise<Response>,
): Promise<Response> {
  const origin = req.headers.get('origin');
  if (origin !== null && !endpoint.allowOrigin(origin)) {
    return envelopeResponse(
      failure(null, JsonRpcErrorCode.INVALID_REQUEST, `Forbidden: requests from origin ${origin} are not allowed.`),
      403,
    );
  }
  const reject = (status: number, code: number, message: string, id: JsonRpcId | null = null, headers: Record<string, string> = {}) =>
    envelopeResponse(failure(id, code, message), status, headers);
  if (req.method !== 'POST')
    return reject(405, JsonRpcErrorCode.INVALID_REQUEST, endpoint.messages.methodNotAllowed, null, { allow: endpoint.allow });
  if (mediaTypeOf(req) !== 'application/json')
    return reject(415, JsonRpcErrorCode.INVALID_REQUEST, endpoint.messages.unsupportedMediaType, null, {
      'accept-post': 'application/json',
    });
  // The body is read (within the endpoint's limit) only to echo the request's id, as the read limit's 429 does:
  // JSON-RPC 2.0 allows a null id only when it cannot be read.
  if (endpoint.requireAcceptJson && !acceptsJson(req.headers.get('accept')))
    return reject(
      406,
      JsonRpcErrorCode.INVALID_REQUEST,
      endpoint.messages.notAcceptable ?? 'Not acceptable: the response is application/json.',
      await jsonRpcIdOf(req, endpoint.maxBodyBytes),
    );
  const body = await readBody(req, endpoint.maxBodyBytes);
  if (!body.ok && body.problem === 'encoded')
    return reject(415, JsonRpcErrorCode.INVALID_REQUEST, contentCodingMessage(body.coding), null, { ...ACCEPT_IDENTITY_ONLY });
  if (!body.ok && body.problem === 'too-large') return reject(413, JsonRpcErrorCode.INVALID_REQUEST, endpoint.messages.tooLarge);
  if (!body.ok) return reject(400, JsonRpcErrorCode.PARSE_ERROR, 'Parse error: the body is not valid UTF-8 JSON.');

  const message = parseMessage(body.text);
  if (isRejection(message)) return reject(400, message.code, message.message, message.id);
  if (message.kind === 'response') {
    if (endpoint.responses === 'accept') return new Response(null, { status: 202 });
    return reject(
      400,
      JsonRpcErrorCode.INVALID_REQUEST,
      'Invalid request: method is required (this endpoint takes requests, not responses).',
    );
  }
  if (message.kind === 'notification' && endpoint.notifications === 'accept') return new Response(null, { status: 202 });
  const id = message.kind === 'request' ? message.id : null;
  const errors: ErrorFamily = {
    known: () => null,
    unexpected: (requestId) => reject(500, JsonRpcErrorCode.INTERNAL_ERROR, `Internal error (request ${requestId}).`, id),
  };
  return withErrors(errors, req, () => handle(message), endpoint.log);
}
