/**
 * Netlify Functions (API v2) in this process: each module imported once per start, then called per
 * request with the `Context` fields our code uses. Fields the runtime does not emulate throw when
 * read, so a new use fails in tests instead of silently differing from production.
 */
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { requestContext } from './platform.ts';
import { assertConfigMatches, type FunctionEntry, type FunctionRoute } from './routes.ts';

export type FunctionHandler = (request: Request, context: object) => Response | undefined | Promise<Response | undefined>;

export interface LoadedFunction extends FunctionEntry {
  handler: FunctionHandler;
}

/** Imports every function module once (Node strips the types; no bundler) and checks its config against Netlify's parser. */
export async function loadFunctions(entries: readonly FunctionEntry[]): Promise<LoadedFunction[]> {
  const loaded: LoadedFunction[] = [];
  for (const entry of entries) {
    const module = (await import(pathToFileURL(entry.mainFile).href)) as {
      default?: unknown;
      config?: Parameters<typeof assertConfigMatches>[1];
    };
    if (typeof module.default !== 'function')
      throw new Error(`${entry.mainFile}: the default export is not a function (Netlify Functions API v2)`);
    assertConfigMatches(entry, module.config);
    loaded.push({ ...entry, handler: module.default as FunctionHandler });
  }
  return loaded;
}

export interface Invocation {
  ip: string;
  origin: string;
  route: FunctionRoute | undefined;
  /** Collects `context.waitUntil` promises so `stop()` can wait for them. */
  waitUntil(promise: Promise<unknown>): void;
}

function notEmulated(field: string): never {
  throw new Error(`context.${field} is not emulated by the local runtime (scripts/runtime/functions.ts)`);
}

/** What every `Context` shares: the fixed fields, and getters that throw for the fields not emulated (built once, not per request). */
const CONTEXT_BASE: object = Object.defineProperties(
  {
    account: { id: '' },
    deploy: { id: '0', context: 'dev', branch: '', published: false },
    server: { region: 'dev' },
    json: (value: unknown) => Response.json(value),
    log: console.log,
    next: () => notEmulated('next (not available in serverless functions)'),
    rewrite: () => notEmulated('rewrite'),
  },
  Object.fromEntries(['params', 'cookies', 'flags', 'geo'].map((field) => [field, { get: () => notEmulated(field), enumerable: false }])),
);

/** The v2 `Context` (fields as @netlify/serverless-functions-api `getContext`). */
export function functionContext(request: Request, invocation: Invocation, requestId: string): object {
  return Object.assign(Object.create(CONTEXT_BASE) as object, {
    ip: invocation.ip,
    requestId,
    url: new URL(request.url),
    path: invocation.route?.pattern,
    site: { id: '0', name: 'local', url: invocation.origin },
    waitUntil: invocation.waitUntil,
  });
}

/** Runs one function; an uncaught error becomes a 500, as a crashed function does on Netlify. */
export async function invokeFunction(fn: LoadedFunction, request: Request, invocation: Invocation): Promise<Response> {
  const requestId = randomUUID();
  const context = functionContext(request, invocation, requestId);
  try {
    const response = await requestContext.run(context, () => fn.handler(request, context));
    // No Response (a scheduled function, say): 204, as Netlify's bootstrap answers.
    if (response === undefined) return new Response(null, { status: 204 });
    if (!(response instanceof Response)) throw new Error(`function ${fn.name} returned ${typeof response}, not a Response`);
    return response;
  } catch (error) {
    console.error(`function ${fn.name} crashed on ${request.method} ${new URL(request.url).pathname}:`, error);
    return new Response(`This function has crashed (${fn.name}): ${error instanceof Error ? error.message : String(error)}\n`, {
      status: 500,
      headers: { 'content-type': 'text/plain; charset=utf-8', 'x-nf-request-id': requestId },
    });
  }
}
