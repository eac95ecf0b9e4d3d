/**
 * The local runtime: the built site as Netlify serves it, from one warm process. Functions are
 * imported once and routed by their own `config` (Netlify's parser), the edge function runs in
 * front of the static layer, static files come from dist/ with the netlify.toml headers, Blobs go
 * through a local Blobs server. Used by `npm start`, the tests and the benchmarks; the parity test
 * compares it with Netlify's emulator (tests/support/emulator/emulator.ts).
 *
 * Request chain (docs.netlify.com/platform/request-chain): edge function → function (a static file
 * first if the route prefers it) → redirects/rewrites → static file → 404.html; what comes out is
 * compressed for the client as the CDN compresses it (compression.ts).
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { runEdgeFunction, loadEdgeFunction, type EdgeHandler } from './edge.ts';
import { invokeFunction, loadFunctions, type LoadedFunction } from './functions.ts';
import { startPlatform } from './platform.ts';
import { loadRedirects, type Redirects } from './redirects.ts';
import {
  assertUnambiguous,
  edgeEntries,
  findEdgeFunctions,
  findFunction,
  listFunctionEntries,
  type EdgeEntry,
  type FunctionEntry,
} from './routes.ts';
import { localBlobsDir } from './local-blobs-dir.ts';
import { BUILD_MISSING_TEXT, loadHeaderRules, STATIC_METHODS, StaticSite } from './static.ts';
import { buildOrigin, buildStampFile, entriesIn, readBuildStamp, removeSnapshot, snapshotBuild, stampKey } from './build-snapshot.ts';
import { unavailable, wrongOriginText } from './unavailable.ts';
import { seedDeployStore } from './deploy-blobs.ts';
import { headOf } from './head.ts';
import { ResponseCompressor } from './compression.ts';

export const ROOT = path.resolve(import.meta.dirname, '..', '..');
/** Where the parsed route tables are kept between starts (see route-cache.ts). */
const routeCacheDir = (root: string): string => path.join(root, 'node_modules', '.cache', 'local-runtime');

/** The address an in-process caller stands for when it names none. */
const IN_PROCESS_IP = '127.0.0.1';

export interface RuntimeOptions {
  /**
   * Blobs storage folder (default NETLIFY_LOCAL_BLOBS_DIR or .netlify/blobs-serve, where
   * scripts/enquiries.ts and keys.ts read); tests give each file its own.
   */
  blobsDir?: string;
  /** Run the edge function (default true). */
  edgeFunctions?: boolean;
  root?: string;
  /**
   * The origin this server serves (`npm start`: http://localhost:$PORT or SITE_URL). A build made for another origin
   * (generated/build-info.json) is not served: everything answers 503 saying so (stranger s10b, finding 1).
   */
  origin?: string;
}

export interface HandleOptions {
  /**
   * The client's IP (`context.ip`). The HTTP server passes the socket's address. Without it, an
   * in-process caller acts as a trusted proxy: the last X-Forwarded-For entry, else 127.0.0.1.
   */
  ip?: string;
}

export interface LocalRuntime {
  /** Runs one request through the chain; misses get the 404 page, as on Netlify. */
  handle(request: Request, options?: HandleOptions): Promise<Response>;
  /** Runs a scheduled function as Netlify's scheduler does. */
  invokeScheduled(name: string): Promise<Response>;
  readonly blobsDir: string;
  /** The local Blobs server's URL (it listens on 127.0.0.1 only). */
  readonly blobsUrl: string;
  /** The functions of the build served now (fresh instances after a rebuild). */
  readonly functions: readonly LoadedFunction[];
  readonly edge: readonly EdgeEntry[];
  /**
   * Looks at generated/fingerprint.txt (every request does, by a stat): a new complete build is switched to as a
   * whole (fresh function instances, its deploy store, its pages and headers) before a request sees it; while none is
   * complete (a build under way or failed) every answer is 503. `npm start` also calls it every few seconds to log.
   */
  refreshBuild(): Promise<void>;
  stop(): Promise<void>;
}

/** The build a request is answered from. */
interface Served {
  /** generated/fingerprint.txt's text (undefined: started over a build without one). */
  stamp: string | undefined;
  /** The stamp file's stat identity when last read. */
  key: string | undefined;
  functions: LoadedFunction[];
  redirects: Redirects | null;
  /** The build is gone (under way or failed): everything answers 503. */
  gone?: boolean;
  /** The new build's functions failed to load (the message). */
  failed?: string;
  /** The build was made for another origin than the runtime's (the text that says so). */
  wrongOrigin?: string;
}

interface LoadedEdge extends EdgeEntry {
  handler: EdgeHandler;
}

export async function startRuntime(options: RuntimeOptions = {}): Promise<LocalRuntime> {
  const root = options.root ?? ROOT;
  const distDir = path.join(root, 'dist');
  const [functionEntries, headerRules, redirects] = await Promise.all([
    listFunctionEntries(path.join(root, 'netlify', 'functions'), { cacheDir: routeCacheDir(root), root }),
    loadHeaderRules(root, distDir),
    loadRedirects(root, distDir),
  ]);
  assertUnambiguous(functionEntries);
  const platform = await startPlatform(options.blobsDir ?? localBlobsDir(), root);
  try {
    const functions = await loadFunctions(functionEntries);
    const edge = options.edgeFunctions === false ? [] : await loadEdge(root);
    return createRuntime({
      root,
      platform,
      functions,
      functionEntries,
      edge,
      site: new StaticSite(distDir, headerRules),
      redirects,
      origin: options.origin,
    });
  } catch (error) {
    await platform.stop();
    throw error;
  }
}

async function loadEdge(root: string): Promise<LoadedEdge[]> {
  const dir = path.join(root, 'netlify', 'edge-functions');
  const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => /\.(?:m?ts|m?js)$/.test(f)).sort();
  const modules = await Promise.all(
    files.map(async (file) => ({
      name: file.replace(/\.[^.]+$/, ''),
      mainFile: path.join(dir, file),
      ...(await loadEdgeFunction(path.join(dir, file))),
    })),
  );
  return (await edgeEntries(modules, { cacheDir: routeCacheDir(root), root })).map((entry) => ({
    ...entry,
    handler: modules.find((m) => m.name === entry.name)!.handler,
  }));
}

function lastForwardedFor(request: Request): string | undefined {
  return request.headers.get('x-forwarded-for')?.split(',').pop()?.trim() || undefined;
}

function createRuntime(parts: {
  root: string;
  platform: Awaited<ReturnType<typeof startPlatform>>;
  functions: LoadedFunction[];
  functionEntries: FunctionEntry[];
  edge: LoadedEdge[];
  site: StaticSite;
  redirects: Redirects | null;
  origin: string | undefined;
}): LocalRuntime {
  const { edge, site, platform, root, functionEntries } = parts;
  const stampFile = buildStampFile(root);
  /** What a request is answered from: one build's functions and redirects, or none while no build is complete. */
  let served: Served = {
    stamp: readBuildStamp(stampFile),
    key: stampKey(stampFile),
    functions: parts.functions,
    redirects: parts.redirects,
  };
  /** Started over a build with no fingerprint (`astro build` alone): nothing to follow, served as it is. */
  const followsBuilds = served.stamp !== undefined;
  let buildGone = false;
  let switching: Promise<void> | undefined;
  const snapshots: string[] = [];
  const compressor = new ResponseCompressor();
  const pending = new Set<Promise<unknown>>();
  const waitUntil = (promise: Promise<unknown>): void => {
    const tracked = promise
      .catch((error: unknown) => console.error('waitUntil task failed:', error))
      .finally(() => pending.delete(tracked));
    pending.add(tracked);
  };

  async function callFunction(
    fn: LoadedFunction,
    request: Request,
    route: Parameters<typeof invokeFunction>[2]['route'],
    ip: string,
  ): Promise<Response> {
    return invokeFunction(fn, request, { ip, origin: new URL(request.url).origin, route, waitUntil });
  }

  /** Switches to the build generated/ names now, if it is another (see refreshBuild). */
  async function refresh(): Promise<void> {
    if (switching) return switching;
    const key = stampKey(stampFile);
    if (key === served.key && !buildGone) return;
    const stamp = key === undefined ? undefined : readBuildStamp(stampFile);
    if (stamp === undefined) {
      if (!followsBuilds || buildGone) return;
      buildGone = true;
      console.warn(`\n  ${stampFile} is gone: a build is under way or failed. Pages and functions answer 503 until a build succeeds.\n`);
      return;
    }
    // A new stamp file is a new build, even with the same name (an unchanged rebuild still has a new build time).
    switching = switchTo(stamp, key).finally(() => (switching = undefined));
    return switching;
  }

  /** Fresh functions over a snapshot of the new build, its deploy store, redirects and headers, swapped in at once. */
  async function switchTo(stamp: string, key: string | undefined): Promise<void> {
    const builtFor = parts.origin === undefined ? undefined : buildOrigin(root);
    if (builtFor !== undefined && builtFor !== new URL(parts.origin!).origin) {
      const text = wrongOriginText(builtFor, new URL(parts.origin!).origin);
      served = { ...served, stamp, key, wrongOrigin: text };
      buildGone = false;
      console.warn(`\n  Not served: ${text}\n`);
      return;
    }
    try {
      const dir = snapshotBuild(root, path.join(root, '.netlify', 'local-runtime'));
      snapshots.push(dir);
      const functions = await loadFunctions(entriesIn(functionEntries, root, dir));
      seedDeployStore(platform.blobsDir, root);
      const [headerRules, redirects] = await Promise.all([loadHeaderRules(root, site.distDir), loadRedirects(root, site.distDir)]);
      site.reset(headerRules);
      compressor.reset();
      served = { stamp, key, functions, redirects };
      buildGone = false;
      console.warn(`\n  A new build is served (pages, functions, search, article bodies): ${stamp.slice(0, 12)}.\n`);
    } catch (error) {
      // Not retried per request: the next build (a new fingerprint) tries again.
      served = { ...served, stamp, key, failed: error instanceof Error ? error.message : String(error) };
      console.error('The new build could not be loaded; restart npm start:', error);
    }
  }

  /** Everything behind the edge: function → redirects → static → 404 page, all from the build `current`. */
  async function origin(current: Served, request: Request, ip: string, rewritten = false): Promise<Response> {
    if (current.gone) return await unavailable(request, BUILD_MISSING_TEXT);
    if (current.wrongOrigin) return await unavailable(request, current.wrongOrigin);
    if (current.failed)
      return unavailable(request, `The new build's functions could not be loaded (${current.failed}). Restart npm start.`);
    const { functions, redirects } = current;
    const url = new URL(request.url);
    const found = findFunction(functions, url.pathname, request.method);
    if (found && !(found.route?.preferStatic && (await site.find(url.pathname)))) return callFunction(found.fn, request, found.route, ip);

    const rule = !rewritten && redirects ? await redirects.match(request) : undefined;
    if (rule) {
      if (rule.status === 404 && rule.force) return site.notFound(request);
      const shadowed = !rule.force && (await site.find(url.pathname));
      if (!shadowed) {
        if (rule.redirect) return new Response(null, { status: rule.status, headers: { location: rule.target.href } });
        // A rewrite: to a function (once), else to a file, answered with the rule's status.
        const target = new Request(rule.target, {
          method: request.method,
          headers: request.headers,
          body: request.body,
          duplex: 'half',
        } as RequestInit);
        const viaFunction = findFunction(functions, rule.target.pathname, request.method);
        if (viaFunction && !viaFunction.route?.preferStatic) return callFunction(viaFunction.fn, target, viaFunction.route, ip);
        const file = await site.find(rule.target.pathname);
        if (file) return site.respond(target, file, { status: rule.status, rulesPath: rule.target.pathname });
      }
    }

    const file = await site.find(url.pathname);
    if (!file) return site.notFound(request);
    if (!STATIC_METHODS.includes(request.method)) return site.methodNotAllowed(url.pathname);
    return site.respond(request, file);
  }

  return {
    blobsDir: platform.blobsDir,
    blobsUrl: platform.blobsUrl,
    get functions() {
      return served.functions;
    },
    edge,
    async handle(request, options = {}) {
      const ip = options.ip ?? lastForwardedFor(request) ?? IN_PROCESS_IP;
      await refresh();
      // One build for the whole request, whatever switches meanwhile.
      const current: Served = buildGone ? { ...served, gone: true } : served;
      const dispatch = (r: Request): Promise<Response> => {
        // Several edge functions on one path chain in manifest order, each one's next() the following.
        const chain = findEdgeFunctions(edge, new URL(r.url).pathname, r.method).reduceRight<(req: Request) => Promise<Response>>(
          (next, fn) => (req) => runEdgeFunction(fn.name, (fn as LoadedEdge).handler, req, next, ip, waitUntil),
          (req) => origin(current, req, ip),
        );
        return chain(r);
      };
      // Compressed as Netlify's CDN compresses what it sends (compression.ts). As the CDN answers HEAD:
      // GET's status and headers, Content-Length of GET's (encoded) body, no body.
      if (request.method === 'HEAD') {
        const get = new Request(request, { method: 'GET' });
        return headOf(await compressor.encode(get, await dispatch(get)));
      }
      return compressor.encode(request, await dispatch(request));
    },
    async invokeScheduled(name) {
      await refresh();
      const fn = served.functions.find((f) => f.name === name && f.schedule);
      if (!fn) throw new Error(`No scheduled function ${name}`);
      // What Netlify's scheduler sends (@netlify/functions-dev: user agent and event header).
      const request = new Request(`http://localhost/.netlify/functions/${name}`, {
        method: 'POST',
        headers: { 'user-agent': 'Netlify Clockwork', 'x-nf-event': 'schedule' },
        body: JSON.stringify({ next_run: new Date(Date.now() + 60_000).toISOString() }),
      });
      return callFunction(fn, request, undefined, IN_PROCESS_IP);
    },
    refreshBuild: refresh,
    async stop() {
      await Promise.allSettled([...pending]);
      await platform.stop();
      for (const dir of snapshots) removeSnapshot(dir);
    },
  };
}

export { serve, TrustedProxies } from './http.ts';
