/**
 * The one edge every HTTP adapter (each Netlify function, the edge function) wraps its handler in,
 * so the rules below hold for every response without each handler repeating them: HEAD answered as
 * GET, OPTIONS answered with 204 and `Allow` (the preflight too where the endpoint has a CORS policy),
 * the CORS headers of that policy on every other answer, its error family (an error it
 * throws on purpose becomes its family's answer; anything else a logged 500 naming a request id),
 * the security headers, the usage count (kernel/metrics.ts) and the admission of a read
 * (kernel/read-limit.ts).
 * @module
 */
import { allowances, corsHeaders, type CorsPolicy, preflightResponse } from './cors.ts';
import { type ErrorFamily, type ErrorLog, withErrors } from './errors.ts';
import { countRequest, type Metrics } from './metrics.ts';
import type { Admission, Admitted } from './read-limit.ts';
import { allowedMethods } from './respond.ts';
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

/** What an endpoint states at the edge. */
export interface EdgeOptions {
  /**
   * The methods it answers besides OPTIONS (HEAD goes with GET). OPTIONS never reaches the handler:
   * it gets 204 with `Allow` naming these and OPTIONS, as the published OpenAPI promises. Absent:
   * the CORS policy's methods; with neither, the route is no endpoint (a catch-all 404) and OPTIONS
   * reaches the handler like any method.
   */
  methods?: readonly string[];
  /** How the endpoint answers errors (kernel/errors.ts); absent: the handler answers every error itself. */
  errors?: ErrorFamily;
  /**
   * Its CORS policy (no credentials): OPTIONS gets the preflight, every answer the policy's headers
   * (with the allowances too when the policy repeats them). Absent: no CORS.
   */
  cors?: CorsPolicy;
  log?: ErrorLog;
  /** Counts every answer under `surface` in the instance's counters, which are written after the answer when due. */
  usage?: UsageCounting;
  /** Runs before the handler (not for a preflight): may refuse the request (a read limit) and name a verified agent. */
  admission?: Admission;
}

/** Where an endpoint's answers are counted. */
export interface UsageCounting {
  surface: string;
  metrics: Metrics;
}

/** The platform's `context.waitUntil` when the adapter was handed a context that has one. */
function waitUntilOf(context: unknown): ((promise: Promise<unknown>) => void) | undefined {
  const candidate = (context as { waitUntil?: unknown } | undefined)?.waitUntil;
  return typeof candidate === 'function' ? (candidate.bind(context) as (promise: Promise<unknown>) => void) : undefined;
}

/**
 * Counts an answer, and hands the instance's write, when one is due, to the platform (it may stop
 * the instance once the answer is sent otherwise). The write never throws (kernel/metrics.ts).
 */
export function countAnswer(usage: UsageCounting, req: Request, res: Response, context: unknown, admitted: Admitted = {}): void {
  countRequest(usage.metrics, usage.surface, req, res.status, admitted.verifiedAgent ? { verifiedAgent: admitted.verifiedAgent } : {});
  const writing = usage.metrics.flushIfDue();
  if (writing) waitUntilOf(context)?.(writing);
}

/** Adds `value` to a `Vary` header unless it is there (a handler's own `Vary` is kept). */
export function appendVary(headers: Headers, value: string): void {
  const current = headers.get('vary');
  if (current === null) headers.set('vary', value);
  else if (!current.split(',').some((v) => v.trim().toLowerCase() === value.toLowerCase())) headers.set('vary', `${current}, ${value}`);
}

/**
 * The endpoint part of the edge: OPTIONS, the CORS headers, and the error family. For a function
 * that serves two endpoints with different rules (JSON and a page): wrap each with this, and the
 * function with {@link httpHandler}.
 */
export function edge<Rest extends unknown[]>(
  handler: (req: Request, ...rest: Rest) => Response | Promise<Response>,
  options: EdgeOptions = {},
): (req: Request, ...rest: Rest) => Promise<Response> {
  const { errors, cors, log } = options;
  const methods = options.methods ?? cors?.methods;
  const allow = methods && allowedMethods(methods).join(', ');
  const repeated = cors?.repeatAllowances ? allowances(cors) : {};
  return async (req, ...rest) => {
    const origin = req.headers.get('origin');
    // An origin the policy does not list gets no CORS at all; the endpoint's own guard answers it.
    const refused = cors?.allowOrigin !== undefined && origin !== null && !cors.allowOrigin(origin);
    const allowOrigin = cors?.allowOrigin ? origin : '*';
    if (req.method === 'OPTIONS' && allow && !refused) {
      return cors ? preflightResponse(cors, allowOrigin, { allow }) : new Response(null, { status: 204, headers: { allow } });
    }
    const res = errors ? await withErrors(errors, req, async () => handler(req, ...rest), log) : await handler(req, ...rest);
    if (!cors || refused) return res;
    const headers = new Headers(res.headers);
    for (const [name, value] of Object.entries({ ...corsHeaders(cors, allowOrigin), ...repeated })) {
      if (name === 'vary') appendVary(headers, value);
      else headers.set(name, value);
    }
    return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
  };
}

/** Wraps a handler with the whole edge: HEAD as GET, OPTIONS and CORS, the error family ({@link edge}), security headers. */
export function httpHandler<Rest extends unknown[]>(
  handler: (req: Request, ...rest: Rest) => Response | Promise<Response>,
  options: EdgeOptions = {},
): (req: Request, ...rest: Rest) => Promise<Response> {
  const endpoint = edge(handler, options);
  const { usage, admission } = options;
  return async (req, ...rest) => {
    const admitted = admission && req.method !== 'OPTIONS' ? await admission(req, rest[0]) : {};
    const res = withSecurityHeaders(admitted.refused ?? (await endpoint(asGet(req), ...rest)));
    if (usage) countAnswer(usage, req, res, rest[0], admitted);
    return res;
  };
}

/** How an edge function counts what it saw, an answer or a request handed on (`undefined`). */
export interface PassThroughCounting {
  metrics: Metrics;
  count: (metrics: Metrics, req: Request, res: Response | undefined) => void;
}

/**
 * The edge function's sibling of {@link httpHandler}: its handler may hand a request on to the CDN
 * untouched (`undefined`). Answers get the security headers; every request is counted, and the
 * instance's counters are written through the platform's `waitUntil` when due. The handler wraps its
 * own routes with {@link edge} (OPTIONS, CORS, HEAD as GET), since only it knows which paths it answers.
 */
export function passThroughHandler<Rest extends unknown[]>(
  handler: (req: Request, ...rest: Rest) => Promise<Response | undefined>,
  usage?: PassThroughCounting,
): (req: Request, ...rest: Rest) => Promise<Response | undefined> {
  return async (req, ...rest) => {
    const res = await handler(req, ...rest);
    if (usage) {
      usage.count(usage.metrics, req, res);
      const writing = usage.metrics.flushIfDue();
      if (writing) waitUntilOf(rest[0])?.(writing);
    }
    return res && withSecurityHeaders(res);
  };
}
