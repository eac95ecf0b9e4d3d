/**
 * A fetch-style (`Request` → `Response`) front for the JSON-RPC server of `@a2a-js/sdk`, for Netlify
 * Functions v2 (and any runtime with fetch types).
 *
 * Why this module exists: `@a2a-js/sdk` 1.3.0 ships its JSON-RPC server only as Express middleware
 * (`jsonRpcHandler` in `@a2a-js/sdk/server/express`). Its transport-neutral part,
 * `JsonRpcTransportHandler.handle(body, context)`, takes a parsed body and a `ServerCallContext`;
 * the middleware around it reads the body, builds the context from the `A2A-Version` and
 * `A2A-Extensions` headers, calls `validateVersion` (which the transport handler does not) and
 * picks the HTTP status. This module does the same for a fetch `Request`, so the SDK's
 * `DefaultRequestHandler` answers every method and error as it would behind Express. No upstream
 * issue asks for a fetch adapter yet; when the SDK ships one, this module is what to replace.
 *
 * Deliberate differences from the Express middleware (each keeps JSON-RPC 2.0 §5.1 codes right):
 * - the HTTP side (origin guard, CORS, method, media type, body limit, parse) is the site's one
 *   JSON-RPC transport (kernel/jsonrpc-endpoint.ts): malformed JSON is -32700 and a body that is
 *   not one request object -32600, both with HTTP 400 (given text, the transport handler maps both
 *   to -32602); a notification (no `id`) gets 202 and no body (JSON-RPC 2.0 §4.1: never answered);
 * - a patch version (`1.0.2`) is read as its `Major.Minor` (A2A §3.6: patch versions MUST NOT be
 *   considered), and the version may come as the `A2A-Version` query parameter (A2A §3.6.1);
 * - streaming is never opened: agents served this way declare `capabilities.streaming: false`, so
 *   the handler refuses `SendStreamingMessage`/`SubscribeToTask` before the first event; that
 *   refusal is answered as JSON, and a stream that starts anyway is closed and answered -32603;
 * - an internal error the SDK caught (its own -32603) is rethrown, so the endpoint logs it with a
 *   request id and answers through its own error writer, as every 5xx of this site is.
 * @module
 */
import { Extensions } from '@a2a-js/sdk';
import { toJsonRpcError, VersionNotSupportedError } from '@a2a-js/sdk/errors';
import { getSupportedVersions, type JsonRpcTransportHandler, ServerCallContext, type A2ARequestHandler } from '@a2a-js/sdk/server';
import { envelopeResponse, failure, JsonRpcErrorCode, type JsonObject, type JsonRpcId, type JsonRpcSuccess } from '../kernel/jsonrpc.ts';
import { A2A_EXTENSIONS_HEADER, A2A_VERSION_HEADER, ABSENT_VERSION, requestedVersion } from './version.ts';

export { A2A_EXTENSIONS_HEADER, A2A_VERSION_HEADER, ABSENT_VERSION, requestedVersion };

/** One JSON-RPC request read from a POST. */
export interface JsonRpcCall {
  id: JsonRpcId;
  method: string;
  params: JsonObject | undefined;
}

/** A JSON-RPC error object as A2A §9.5 shapes it (`data` is a list of `@type` details). */
export interface A2aErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** The JSON-RPC error of an SDK error (`A2AError` subclasses carry a `google.rpc.ErrorInfo` detail). */
export const errorObjectOf = (error: unknown): A2aErrorObject => toJsonRpcError(error);

/** An error envelope as HTTP: 500 for an internal error, 200 otherwise (as the SDK's Express middleware answers). */
export function errorResponse(id: JsonRpcId | null, error: A2aErrorObject): Response {
  return envelopeResponse(failure(id, error.code, error.message, error.data), error.code === JsonRpcErrorCode.INTERNAL_ERROR ? 500 : 200);
}

/**
 * The call context the SDK's handler reads: the requested version and extensions, and `state`
 * for the agent executor. Fails with VersionNotSupportedError (-32009) when the agent card lists
 * no JSON-RPC interface of that version (the SDK's `validateVersion` rule).
 */
export async function callContext(
  req: Request,
  requestHandler: A2ARequestHandler,
  state: Map<string, unknown>,
): Promise<{ context: ServerCallContext } | { error: A2aErrorObject }> {
  const version = requestedVersion(req);
  const supported = getSupportedVersions(await requestHandler.getAgentCard(), 'JSONRPC');
  if (!supported.has(version)) {
    const sent = req.headers.get(A2A_VERSION_HEADER) ?? new URL(req.url).searchParams.get(A2A_VERSION_HEADER);
    const why =
      sent === null || sent.trim() === ''
        ? `No ${A2A_VERSION_HEADER} header was sent, which A2A §3.6.2 reads as ${ABSENT_VERSION}`
        : `${A2A_VERSION_HEADER} "${sent}" is not supported`;
    return {
      error: errorObjectOf(
        new VersionNotSupportedError({
          message: `${why}. This agent speaks A2A ${[...supported].join(', ')}: send ${A2A_VERSION_HEADER}: ${[...supported][0]}.`,
          metadata: { requestedVersion: version, supportedVersions: [...supported].join(',') },
        }),
      ),
    };
  }
  const context = new ServerCallContext({
    requestedVersion: version,
    requestedExtensions: Extensions.parseServiceParameter(req.headers.get(A2A_EXTENSIONS_HEADER) ?? undefined),
    state,
  });
  return { context };
}

/** What the SDK's JSON-RPC transport handlers have in common (the v1.0 one, and the 0.3 one of its compat layer). */
export interface JsonRpcTransport {
  handle(body: Record<string, unknown>, context: ServerCallContext): Promise<unknown>;
}

/** Hands the call to one of the SDK's JSON-RPC transport handlers and answers with its envelope. */
export async function dispatch(
  transport: JsonRpcTransport | JsonRpcTransportHandler,
  call: JsonRpcCall,
  context: ServerCallContext,
): Promise<Response> {
  const answer = (await transport.handle(
    { jsonrpc: '2.0', id: call.id, method: call.method, ...(call.params ? { params: call.params } : {}) },
    context,
  )) as JsonRpcSuccess | { id: JsonRpcId; error: unknown } | AsyncIterable<unknown>;
  if (Symbol.asyncIterator in answer) {
    const stream = answer[Symbol.asyncIterator]();
    try {
      await stream.next();
    } catch (error) {
      // The refusal of a stream the card does not offer (UnsupportedOperationError, TaskNotFound, ...).
      return errorResponse(call.id, errorObjectOf(error));
    }
    await stream.return?.(undefined);
    throw new Error(`A2A handler opened a stream for ${call.method}, which this endpoint does not offer`);
  }
  if ('error' in answer) {
    const error = answer.error as A2aErrorObject;
    // The SDK catches our failures and answers -32603 itself; rethrown, they are logged with a request id and
    // answered by the endpoint's own error writer, like every other 5xx of this site.
    if (error.code === JsonRpcErrorCode.INTERNAL_ERROR) throw new Error(`A2A handler failed: ${error.message}`, { cause: error });
    return errorResponse(answer.id, error);
  }
  return envelopeResponse(answer as JsonRpcSuccess, 200);
}
