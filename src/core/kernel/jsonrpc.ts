/**
 * JSON-RPC 2.0 for MCP: named error codes, message classification and response envelopes
 * (docs/reference/mcp-oauth.md §4.1). Batches are not JSON-RPC messages here: MCP ≥ 2025-06-18 removed them.
 * @module
 */

export const JSONRPC_VERSION = '2.0';
import { parseClientJson, TOO_DEEP_MESSAGE } from './json-body.ts';

/** The error codes this server emits (JSON-RPC 2.0 §5.1 and MCP 2026-07-28). */
export const JsonRpcErrorCode = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  /** MCP 2026-07-28: a required header is missing or disagrees with the body. */
  HEADER_MISMATCH: -32020,
  /** MCP 2026-07-28: the server needs a client capability the request did not declare (unused: we need none). */
  MISSING_REQUIRED_CLIENT_CAPABILITY: -32021,
  /** MCP 2026-07-28: the requested protocol revision is not one we speak. */
  UNSUPPORTED_PROTOCOL_VERSION: -32022,
  /** MCP 2025-11-25 resource-not-found (the handshake era); 2026-07-28 uses INVALID_PARAMS (SEP-2164). */
  LEGACY_RESOURCE_NOT_FOUND: -32002,
} as const;
export type JsonRpcErrorCode = (typeof JsonRpcErrorCode)[keyof typeof JsonRpcErrorCode];

/**
 * A request id. JSON-RPC 2.0 §4 allows a null id in a request (discouraged; MCP forbids it, A2A and the contract allow
 * it): such a request is answered, with id null. A response also carries null when the request's id could not be read.
 */
export type JsonRpcId = string | number | null;

export type JsonObject = Record<string, unknown>;

/** One message of a POST body, classified. */
export type JsonRpcMessage =
  | { kind: 'request'; id: JsonRpcId; method: string; params: JsonObject | undefined }
  | { kind: 'notification'; method: string; params: JsonObject | undefined }
  | { kind: 'response' };

/** Why a body is not one JSON-RPC message: the error to answer with (HTTP 400). */
export interface JsonRpcRejection {
  code: JsonRpcErrorCode;
  message: string;
  id: JsonRpcId | null;
}

export interface JsonRpcSuccess {
  jsonrpc: '2.0';
  id: JsonRpcId;
  result: JsonObject;
}

export interface JsonRpcFailure {
  jsonrpc: '2.0';
  id: JsonRpcId | null;
  error: { code: number; message: string; data?: unknown };
}

export const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

const isId = (value: unknown): value is JsonRpcId =>
  value === null || typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));

/**
 * Parses a POST body into one JSON-RPC message. Malformed JSON → -32700 with id null; a batch
 * or anything that is not a JSON-RPC 2.0 request, notification or response → -32600, echoing
 * the id when it is readable (docs/reference/mcp-oauth.md §3 steps 5–7).
 */
export function parseMessage(text: string): JsonRpcMessage | JsonRpcRejection {
  const parsed = parseClientJson(text);
  if (!parsed.ok && parsed.problem === 'malformed')
    return { code: JsonRpcErrorCode.PARSE_ERROR, message: 'Parse error: the body is not valid JSON.', id: null };
  if (!parsed.ok) return { code: JsonRpcErrorCode.INVALID_REQUEST, message: `Invalid request: ${TOO_DEEP_MESSAGE}.`, id: null };
  const value = parsed.value;
  if (Array.isArray(value))
    return {
      code: JsonRpcErrorCode.INVALID_REQUEST,
      message: 'Invalid request: batching is not supported; send one JSON-RPC message per POST.',
      id: null,
    };
  if (!isObject(value))
    return { code: JsonRpcErrorCode.INVALID_REQUEST, message: 'Invalid request: the body must be a JSON-RPC 2.0 object.', id: null };
  const id = isId(value.id) ? value.id : null;
  const invalid = (reason: string): JsonRpcRejection => ({
    code: JsonRpcErrorCode.INVALID_REQUEST,
    message: `Invalid request: ${reason}`,
    id,
  });
  if (value.jsonrpc !== JSONRPC_VERSION) return invalid('jsonrpc must be "2.0".');
  if (!('method' in value)) {
    // A response sent to us (we never send requests, but the transport must accept them): 202.
    if (isId(value.id) && 'result' in value !== 'error' in value) return { kind: 'response' };
    return invalid('method is required.');
  }
  if (typeof value.method !== 'string' || value.method === '') return invalid('method must be a non-empty string.');
  if (value.params !== undefined && !isObject(value.params)) return invalid('params must be an object.');
  const params = value.params as JsonObject | undefined;
  if (!('id' in value)) return { kind: 'notification', method: value.method, params };
  if (!isId(value.id)) return invalid('id must be a string, a number or null.');
  return { kind: 'request', id: value.id, method: value.method, params };
}

/** Type guard: did {@link parseMessage} reject the body? */
export function isRejection(parsed: JsonRpcMessage | JsonRpcRejection): parsed is JsonRpcRejection {
  return 'code' in parsed;
}

/** A success envelope. */
export function success(id: JsonRpcId, result: JsonObject): JsonRpcSuccess {
  return { jsonrpc: JSONRPC_VERSION, id, result };
}

/** An error envelope (`id: null` for a request whose id was null or could not be read). */
export function failure(id: JsonRpcId | null, code: number, message: string, data?: unknown): JsonRpcFailure {
  return { jsonrpc: JSONRPC_VERSION, id, error: data === undefined ? { code, message } : { code, message, data } };
}

/** A JSON response carrying one envelope (never cached: answers depend on the request). */
export function envelopeResponse(
  envelope: JsonRpcSuccess | JsonRpcFailure,
  status: number,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(envelope), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers },
  });
}
