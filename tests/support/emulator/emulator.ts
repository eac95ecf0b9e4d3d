/**
 * Netlify's own emulation (@netlify/dev) of the CDN, headers, edge functions, functions and Blobs
 * over the built site, behind a plain Node HTTP server: the runtime `npm start` used before
 * scripts/runtime/index.ts. Kept only as the baseline of the parity test
 * (tests/integration/runtime-parity.test.ts) and of the benchmarks' "emulator" rows.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import { NetlifyDev } from '@netlify/dev';
import '../../../scripts/runtime/blobs-server-conditional-writes.ts';
import '../../../scripts/runtime/blobs-server-temp-files.ts';
import { seedDeployStore } from '../../../scripts/runtime/deploy-blobs.ts';
import { headOf } from '../../../scripts/runtime/head.ts';
import { deferBundleFolderRemoval, handleRetryingBundleRace } from './netlify-dev-bundle-race.ts';
import { answerHelp } from '../../../scripts/usage.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');

export interface EmulatorRuntime {
  dev: NetlifyDev;
  /** Runs one request through the Netlify chain; unmatched paths get the 404 page, as on Netlify. */
  handle(request: Request): Promise<Response>;
  stop(): Promise<void>;
}

/** Hop-by-hop headers that must not be copied from the emulated response to the socket. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade']);

/** One request through the emulation; unmatched paths get the 404 page, as on Netlify. */
async function route(dev: NetlifyDev, request: Request): Promise<Response> {
  const matched = await handleRetryingBundleRace(dev, request);
  // Netlify's CDN answers a miss with the site's 404.html (status 404); a bare 404 from the
  // emulation (no body type) is such a miss. A 404 with a body (a function's JSON) stands.
  if (matched && !(matched.status === 404 && !matched.headers.get('content-type'))) return matched;
  const page = await dev.handle(new Request(new URL('/404.html', request.url), { headers: { accept: 'text/html' } }));
  if (!page) throw new Error('dist/404.html is missing: run the build');
  const headers = new Headers(page.headers);
  if (matched)
    matched.headers.forEach((value, name) => {
      if (name === 'vary') headers.set(name, value);
    });
  return new Response(page.body, { status: 404, headers });
}

export async function startRuntime(options: { edgeFunctions?: boolean } = {}): Promise<EmulatorRuntime> {
  const dev = new NetlifyDev({
    projectRoot: ROOT,
    skipGitignore: true,
    geolocation: { enabled: false },
    database: { enabled: false },
    aiGateway: { enabled: false },
    images: { enabled: false },
    edgeFunctions: { enabled: options.edgeFunctions ?? true },
  });
  // @netlify/dev keeps Blobs in <root>/.netlify/blobs-serve and starts no deploy store of its own.
  seedDeployStore(path.join(ROOT, '.netlify', 'blobs-serve'), ROOT);
  const removeBundleFolders = deferBundleFolderRemoval(path.join(ROOT, '.netlify', 'functions-serve'));
  await dev.start();
  return {
    dev,
    async handle(request) {
      if (request.method !== 'HEAD') return route(dev, request);
      return headOf(await route(dev, new Request(request, { method: 'GET' })));
    },
    async stop() {
      try {
        await dev.stop();
      } finally {
        await removeBundleFolders();
      }
    },
  };
}

function toRequest(req: IncomingMessage, origin: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  // The emulation reads the client IP from the last X-Forwarded-For entry (as Netlify's proxy
  // appends it); append the socket's address so a client cannot choose its own IP.
  const ip = (req.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
  headers.delete('x-nf-client-connection-ip');
  headers.set('x-forwarded-for', headers.has('x-forwarded-for') ? `${headers.get('x-forwarded-for')}, ${ip}` : ip);
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  return new Request(new URL(req.url ?? '/', origin), {
    method: req.method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : null,
    // @ts-expect-error Node's fetch needs duplex for streamed request bodies.
    duplex: hasBody ? 'half' : undefined,
  });
}

async function send(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name === 'set-cookie' || HOP_BY_HOP.has(name)) return;
    headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers['set-cookie'] = cookies;
  res.writeHead(response.status, headers);
  if (!response.body) return void res.end();
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    res.write(value);
  }
  res.end();
}

/** Serves the runtime over HTTP on `port` (0 = any free port). */
export async function serve(
  runtime: Pick<EmulatorRuntime, 'handle'>,
  port: number,
  host = '127.0.0.1',
): Promise<{ server: Server; url: string }> {
  let origin = `http://localhost:${port}`;
  const server = createServer((req, res) => {
    runtime.handle(toRequest(req, origin)).then(
      (response) => send(res, response),
      (error: unknown) => {
        console.error(`${req.method} ${req.url} failed:`, error);
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/problem+json' });
        res.end(JSON.stringify({ type: 'about:blank', title: 'Internal Server Error', status: 500 }));
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  // Port 0: requests carry the port actually bound, not 0.
  origin = `http://localhost:${actualPort}`;
  return { server, url: origin };
}

/**
 * `node tests/support/emulator/emulator.ts [port]`: the emulator served on its own, as a child process of the
 * parity test (its Netlify global and Blobs context must not share a process with the warm runtime).
 * Prints `READY <url>` when listening.
 */
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  answerHelp(`Usage: node tests/support/emulator/emulator.ts [port]

Serves the production build through Netlify's own emulator (@netlify/dev) on port (default: a free
one) and prints "READY <url>"; the runtime parity test starts it as a child process.`);
  const runtime = await startRuntime();
  const { server, url } = await serve(runtime, Number(process.argv[2] ?? 0));
  console.log(`READY ${url}`);
  const stop = async (): Promise<void> => {
    server.closeAllConnections();
    server.close();
    await runtime.stop();
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
