/**
 * OAuth error responses (RFC 6749 §5.2, RFC 7009, RFC 7591 §3.2.2, RFC 8707): one class, one
 * response builder that always adds `Cache-Control: no-store` and `Pragma: no-cache`.
 * @module
 */

import { OAUTH_CORS } from '../kernel/cors.ts';
import { withErrors, type ErrorFamily, type ErrorLog } from '../kernel/errors.ts';
import type { EdgeOptions } from '../kernel/handler.ts';
import { ACCEPT_IDENTITY_ONLY, contentCodingMessage } from '../kernel/respond.ts';

export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'invalid_target'
  | 'invalid_client_metadata'
  | 'invalid_redirect_uri'
  | 'access_denied'
  | 'unsupported_response_type'
  | 'temporarily_unavailable'
  | 'slow_down'
  | 'rate_limited'
  | 'invalid_claim_token'
  | 'expired_claim_token'
  | 'already_claimed'
  | 'invalid_claim_attempt'
  | 'expired_claim_attempt'
  | 'server_error';

export const NO_STORE_HEADERS: Readonly<Record<string, string>> = { 'cache-control': 'no-store', pragma: 'no-cache' };

export class OAuthError extends Error {
  readonly code: OAuthErrorCode;
  readonly status: number;
  readonly headers: Record<string, string>;
  constructor(
    code: OAuthErrorCode,
    description: string,
    options: { status?: number; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(description, { cause: options.cause });
    this.name = 'OAuthError';
    this.code = code;
    this.status =
      options.status ??
      (code === 'invalid_client'
        ? 401
        : code === 'slow_down' || code === 'rate_limited'
          ? 429
          : code === 'temporarily_unavailable'
            ? 503
            : 400);
    this.headers = options.headers ?? {};
  }
}

/** The RFC 6749 §5.2 error body of `error` (also the OpenAPI document's error examples). */
export function oauthErrorBody(error: OAuthError): { error: OAuthErrorCode; error_description: string } {
  return { error: error.code, error_description: error.message };
}

export function oauthErrorResponse(error: OAuthError): Response {
  return new Response(JSON.stringify(oauthErrorBody(error)), {
    status: error.status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...NO_STORE_HEADERS, ...error.headers },
  });
}

/** A JSON success answer with the no-store headers every OAuth response carries. */
export function oauthJson(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...NO_STORE_HEADERS, ...headers },
  });
}

/** A content-coded request body (kernel/respond.ts `unsupportedContentCoding`): 415 with `Accept-Encoding: identity`. */
export const contentCodingError = (coding: string): OAuthError =>
  new OAuthError('invalid_request', contentCodingMessage(coding), { status: 415, headers: { ...ACCEPT_IDENTITY_ONLY } });

/** A request body over the endpoint's limit (docs/limits.md): 413 `invalid_request`, the same on every OAuth endpoint. */
export const bodyTooLargeError = (limitBytes: number): OAuthError =>
  new OAuthError('invalid_request', `The body must be at most ${limitBytes} bytes.`, { status: 413 });

/** The 500 for an unexpected failure, naming the request id under which it was logged. */
export const serverError = (requestId: string): OAuthError =>
  new OAuthError('server_error', `Unexpected error (request ${requestId}).`, { status: 500 });

/** Runs an OAuth handler: OAuthError -> its response; anything else is logged and answered `server_error` 500. */
export const OAUTH_ERRORS: ErrorFamily = {
  known: (error) => (error instanceof OAuthError ? oauthErrorResponse(error) : null),
  unexpected: (requestId) => oauthErrorResponse(serverError(requestId)),
};

/** The edge of the JSON endpoints agents post to (register, token, revoke, claim): RFC 6749 errors, CORS open. */
export const OAUTH_ENDPOINT_EDGE: EdgeOptions = { errors: OAUTH_ERRORS, cors: OAUTH_CORS };

export function withOAuthErrors(req: Request, handler: () => Promise<Response>, log?: ErrorLog): Promise<Response> {
  return withErrors(OAUTH_ERRORS, req, handler, log);
}
