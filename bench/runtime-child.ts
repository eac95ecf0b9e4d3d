/**
 * The server side of the serving benchmarks (serve.bench.ts, soak.bench.ts), run as its own process
 * so the load generator does not share its event loop or its memory figures.
 *
 *     node --expose-gc bench/runtime-child.ts --mode emulator|bundled [--port 0] [--edge on|off]
 *
 * - `emulator`: scripts/runtime/emulator.ts `startRuntime()` + `serve()`, what `npm start` ran before the warm runtime (scripts/runtime/): Netlify's
 *   own local emulation (@netlify/dev) of the built site, functions, edge functions and Blobs. Every
 *   v2 function call runs in a fresh worker there (a per-request cold start).
 * - `bundled`: the same runtime for static files, edge functions and Blobs, but the measured
 *   functions are bundled once with esbuild (as Netlify bundles them) and imported into this
 *   process, so their module state lives across requests as on a warm Netlify instance.
 *
 * Prints one line `READY {"url": ..., "pid": ..., "routes": [...]}` when listening. With an IPC
 * channel it answers `{ type: 'memory' }` with a forced-GC `process.memoryUsage()`.
 * @module
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { serve, startRuntime, type EmulatorRuntime as LocalRuntime } from '../scripts/runtime/emulator.ts';
import { bundleFunction } from './bundle-function.ts';
import { argValue } from './generate-corpus.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const argv = process.argv.slice(2);
const mode = argValue(argv, 'mode') ?? 'emulator';
const port = Number(argValue(argv, 'port') ?? 0);
const edge = (argValue(argv, 'edge') ?? 'on') !== 'off';
if (mode !== 'emulator' && mode !== 'bundled') throw new Error('--mode must be emulator or bundled');

/** Functions served from an esbuild bundle in `bundled` mode (path → entry). */
export const BUNDLED_ROUTES: Record<string, string> = {
  '/api/search': 'netlify/functions/api-search.mts',
  '/mcp': 'netlify/functions/mcp.mts',
  '/oauth/token': 'netlify/functions/oauth-token.mts',
  '/oauth/register': 'netlify/functions/oauth-register.mts',
  '/api/tweets': 'netlify/functions/api-tweets.mts',
  '/health': 'netlify/functions/health.mts',
};

type Handler = (req: Request, context: unknown) => Promise<Response> | Response;

/** Bundles one function like Netlify's esbuild bundler (ESM, node platform, JSON data inlined). */
async function bundle(entry: string, outDir: string): Promise<Handler> {
  const { file } = await bundleFunction(entry, path.join(outDir, `${path.basename(entry, '.mts')}.mjs`));
  return ((await import(pathToFileURL(file).href)) as { default: Handler }).default;
}

/** The client IP as Netlify's proxy reports it: the last X-Forwarded-For entry (set by `serve()`). */
function clientIp(req: Request): string {
  return req.headers.get('x-forwarded-for')?.split(',').pop()?.trim() ?? '127.0.0.1';
}

/** The subset of Netlify's v2 `Context` these functions read (`ip`, `params`), plus harmless stubs. */
function contextFor(req: Request): unknown {
  return {
    ip: clientIp(req),
    params: {},
    requestId: crypto.randomUUID(),
    geo: {},
    site: {},
    deploy: {},
    account: {},
    server: { region: 'local' },
    waitUntil: (promise: Promise<unknown>) => void promise.catch(() => undefined),
  };
}

const runtime = await startRuntime({ edgeFunctions: edge });
let served: LocalRuntime = runtime;
const routes: string[] = [];
if (mode === 'bundled') {
  // Blobs: dev.start() put NETLIFY_BLOBS_CONTEXT into process.env, so the bundled functions reach
  // the same local Blobs server as the emulated ones.
  const outDir = path.join(ROOT, 'bench', '.out', 'serve', 'bundles');
  mkdirSync(outDir, { recursive: true });
  const handlers = new Map<string, Handler>();
  for (const [route, entry] of Object.entries(BUNDLED_ROUTES)) {
    handlers.set(route, await bundle(entry, outDir));
    routes.push(route);
  }
  served = {
    ...runtime,
    async handle(request: Request) {
      const handler = handlers.get(new URL(request.url).pathname);
      return handler ? handler(request, contextFor(request)) : runtime.handle(request);
    },
  };
}

const { server, url } = await serve(served, port);
console.log(`READY ${JSON.stringify({ url, pid: process.pid, mode, edge, routes })}`);

process.on('message', (message: { type?: string; id?: number }) => {
  if (message?.type !== 'memory') return;
  (globalThis as { gc?: () => void }).gc?.();
  process.send?.({ type: 'memory', id: message.id, memory: process.memoryUsage() });
});

let stopping = false;
const stop = async (): Promise<void> => {
  if (stopping) return;
  stopping = true;
  server.closeAllConnections();
  server.close();
  await runtime.stop();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
process.on('disconnect', () => void stop());
