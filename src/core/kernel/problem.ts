/**
 * RFC 9457 problem details: the one place that builds error responses for `/api/*`.
 * @module
 */

import * as v from 'valibot';
import { withErrors, type ErrorFamily, type ErrorLog } from './errors.ts';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** One invalid input field (an extension member of the problem). */
export interface InvalidParam {
  name: string;
  reason: string;
}

/** A problem the handler means to report: status, a short title, the detail, optional extensions. */
export class HttpProblem extends Error {
  readonly status: number;
  readonly title: string;
  readonly headers: Record<string, string>;
  readonly extensions: Record<string, unknown>;

  constructor(
    status: number,
    title: string,
    detail: string,
    options: { headers?: Record<string, string>; extensions?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(detail, { cause: options.cause });
    this.name = 'HttpProblem';
    this.status = status;
    this.title = title;
    this.headers = options.headers ?? {};
    this.extensions = options.extensions ?? {};
  }
}

/** The problem document of `problem` (also the OpenAPI document's error examples, so they cannot drift). */
export function problemBody(problem: HttpProblem, instance?: string): Record<string, unknown> {
  return {
    type: 'about:blank',
    title: problem.title,
    status: problem.status,
    detail: problem.message,
    ...(instance ? { instance } : {}),
    ...problem.extensions,
  };
}

/** Builds the problem response (`type` stays `about:blank`: the status says what kind of problem it is). */
export function problemResponse(problem: HttpProblem, instance?: string): Response {
  return new Response(JSON.stringify(problemBody(problem, instance)), {
    status: problem.status,
    headers: { 'content-type': PROBLEM_CONTENT_TYPE, 'cache-control': 'no-store', ...problem.headers },
  });
}

/** The 500 for an unexpected failure, naming the request id under which it was logged. */
export const internalError = (requestId: string): HttpProblem =>
  new HttpProblem(500, 'Internal Server Error', `Something went wrong on our side (request ${requestId}).`, {
    extensions: { request_id: requestId },
  });
export const badRequest = (detail: string, invalidParams?: InvalidParam[]): HttpProblem =>
  new HttpProblem(400, 'Bad Request', detail, invalidParams ? { extensions: { invalid_params: invalidParams } } : {});
export const forbidden = (detail: string): HttpProblem => new HttpProblem(403, 'Forbidden', detail);
export const notFound = (detail: string): HttpProblem => new HttpProblem(404, 'Not Found', detail);
export const methodNotAllowed = (allow: readonly string[]): HttpProblem =>
  new HttpProblem(405, 'Method Not Allowed', `Use ${allow.join(' or ')}.`, { headers: { allow: allow.join(', ') } });
export const payloadTooLarge = (limitBytes: number): HttpProblem =>
  new HttpProblem(413, 'Content Too Large', `The request body must be at most ${limitBytes} bytes.`);
export const unsupportedMediaType = (accepted: readonly string[]): HttpProblem =>
  new HttpProblem(415, 'Unsupported Media Type', `Send the body as ${accepted.join(' or ')}.`, {
    headers: { 'accept-post': accepted.join(', ') },
  });
export const tooManyRequests = (retryAfterSeconds: number, detail: string): HttpProblem =>
  new HttpProblem(429, 'Too Many Requests', detail, {
    headers: { 'retry-after': String(retryAfterSeconds) },
    extensions: { retry_after: retryAfterSeconds },
  });

/**
 * Runs a handler and turns a thrown {@link HttpProblem} into its response. Anything else is a bug:
 * it is logged with a request id and answered 500 without internals.
 */
export const PROBLEM_ERRORS: ErrorFamily = {
  known: (error, req) => (error instanceof HttpProblem ? problemResponse(error, new URL(req.url).pathname) : null),
  unexpected: (requestId) => problemResponse(internalError(requestId)),
};

export function withProblems(req: Request, handler: () => Promise<Response>, log?: ErrorLog): Promise<Response> {
  return withErrors(PROBLEM_ERRORS, req, handler, log);
}

/** The problem document shape, for the OpenAPI description. */
export const ProblemSchema = v.object({
  type: v.string(),
  title: v.string(),
  status: v.pipe(v.number(), v.integer()),
  detail: v.string(),
  instance: v.optional(v.string()),
  invalid_params: v.optional(v.array(v.object({ name: v.string(), reason: v.string() }))),
  retry_after: v.optional(v.pipe(v.number(), v.integer())),
  request_id: v.optional(v.string()),
});
