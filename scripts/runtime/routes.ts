/**
 * The route table of the local runtime, read with Netlify's own parsers: functions from
 * zip-it-and-ship-it's in-source-config parser (the routes Netlify deploys), the edge function from
 * edge-bundler's manifest generator. Matching copies @netlify/functions-dev and
 * @netlify/edge-functions-dev, so both runtimes route a request the same way.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { cachedJson } from './route-cache.ts';

export interface PathMatcher {
  /** The path as written in `config` (`/api/*`). */
  pattern: string;
  literal?: string;
  expression?: RegExp;
}

export interface FunctionRoute extends PathMatcher {
  /** Empty: every method. */
  methods: string[];
  preferStatic: boolean;
}

export interface FunctionEntry {
  name: string;
  mainFile: string;
  schedule?: string;
  routes: FunctionRoute[];
  excluded: PathMatcher[];
}

export interface EdgeEntry {
  name: string;
  mainFile: string;
  pattern: RegExp;
  excluded: RegExp[];
  methods: string[];
}

/**
 * `/.netlify/functions/<name>`: reaches only functions with neither routes nor a schedule. A scheduled
 * function has no public URL, as on Netlify: only the scheduler runs it (the runtime's
 * `invokeScheduled`, `npm run scheduled -- <name>`), never a client.
 */
const DEFAULT_FUNCTION_URL = /^\/\.netlify\/(?:functions|builders)\/([^/]+)/;

interface RawMatcher {
  pattern: string;
  literal?: string;
  expression?: string;
}
type RawFunction = Omit<FunctionEntry, 'routes' | 'excluded'> & {
  routes: (RawMatcher & { methods: string[]; preferStatic: boolean })[];
  excluded: RawMatcher[];
};
type RawEdge = Omit<EdgeEntry, 'pattern' | 'excluded'> & { pattern: string; excluded: string[] };

/** Functions and their routes as Netlify's build would deploy them (zip-it-and-ship-it's ISC parser, esbuild bundler). */
async function parseFunctionRoutes(functionsDir: string): Promise<RawFunction[]> {
  const { listFunctions } = await import('@netlify/zip-it-and-ship-it'); // ~2 s to import: only on a cache miss
  const listed = await listFunctions([functionsDir], { parseISC: true, config: { '*': { nodeBundler: 'esbuild' } } });
  const raw = (route: RawMatcher): RawMatcher => ({
    pattern: route.pattern,
    ...(route.literal !== undefined ? { literal: route.literal } : {}),
    ...(route.expression !== undefined ? { expression: route.expression } : {}),
  });
  return listed
    .map((fn) => ({
      name: fn.name,
      mainFile: fn.mainFile,
      ...(fn.schedule ? { schedule: fn.schedule } : {}),
      routes: (fn.routes ?? []).map((route) => ({
        ...raw(route),
        methods: route.methods ?? [],
        preferStatic: Boolean((route as { prefer_static?: boolean }).prefer_static),
      })),
      excluded: (fn.excludedRoutes ?? []).map(raw),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The edge functions' routes from the manifest edge-bundler writes at deploy, over their imported `config`. */
async function parseEdgeRoutes(functions: { name: string; mainFile: string; config: object | undefined }[]): Promise<RawEdge[]> {
  const { generateManifest, mergeDeclarations } = await import('@netlify/edge-bundler');
  const configs = Object.fromEntries(functions.filter((f) => f.config).map((f) => [f.name, f.config!]));
  const declarations = mergeDeclarations([], configs, {}, []);
  const { manifest } = generateManifest({
    declarations,
    userFunctionConfig: configs,
    functions: functions.map((f) => ({ name: f.name, path: f.mainFile })),
  });
  return [...manifest.routes, ...manifest.post_cache_routes].map((route) => ({
    name: route.function,
    mainFile: functions.find((f) => f.name === route.function)!.mainFile,
    pattern: route.pattern,
    excluded: [...route.excluded_patterns, ...(manifest.function_config[route.function]?.excluded_patterns ?? [])],
    methods: route.methods ?? [],
  }));
}

function compileMatcher(route: RawMatcher): PathMatcher {
  return {
    pattern: route.pattern,
    ...(route.literal !== undefined ? { literal: route.literal } : {}),
    ...(route.expression !== undefined ? { expression: new RegExp(route.expression) } : {}),
  };
}

function packageVersion(root: string, name: string): string {
  try {
    return (JSON.parse(readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

/**
 * The function route table. Netlify's parser takes seconds to load, so its answer is cached
 * (`cacheDir`) under a key of the parser's version and every file in the functions folder.
 */
export async function listFunctionEntries(
  functionsDir: string,
  options: { cacheDir?: string; root?: string } = {},
): Promise<FunctionEntry[]> {
  const files = createHash('sha256');
  for (const entry of readdirSync(functionsDir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    files.update(entry.name).update('\0');
    if (entry.isFile()) files.update(readFileSync(path.join(functionsDir, entry.name))).update('\0');
  }
  const key = ['functions', functionsDir, packageVersion(options.root ?? '.', '@netlify/zip-it-and-ship-it'), files.digest('hex')];
  const raw = await cachedJson(options.cacheDir, key, () => parseFunctionRoutes(functionsDir));
  return raw.map((fn) => ({
    ...fn,
    routes: fn.routes.map((r) => ({ ...compileMatcher(r), methods: r.methods, preferStatic: r.preferStatic })),
    excluded: fn.excluded.map(compileMatcher),
  }));
}

/** The edge route table, cached like the function table under edge-bundler's version and the functions' configs. */
export async function edgeEntries(
  functions: { name: string; mainFile: string; config: object | undefined }[],
  options: { cacheDir?: string; root?: string } = {},
): Promise<EdgeEntry[]> {
  const key = [
    'edge',
    packageVersion(options.root ?? '.', '@netlify/edge-bundler'),
    JSON.stringify(functions.map(({ name, mainFile, config }) => [name, mainFile, config])),
  ];
  const raw = await cachedJson(options.cacheDir, key, () => parseEdgeRoutes(functions));
  return raw.map((e) => ({ ...e, pattern: new RegExp(e.pattern), excluded: e.excluded.map((x) => new RegExp(x)) }));
}

function matches(matcher: PathMatcher, pathname: string): boolean {
  if (matcher.literal !== undefined) return pathname === matcher.literal;
  return matcher.expression?.test(pathname) ?? false;
}

/** The function route for a path, as @netlify/functions-dev matches it: trailing slash dropped, lower case. */
export function matchFunctionRoute(entry: FunctionEntry, rawPath: string, method: string): FunctionRoute | undefined {
  const pathname = (rawPath !== '/' && rawPath.endsWith('/') ? rawPath.slice(0, -1) : rawPath).toLowerCase();
  const route = entry.routes.find((r) => (r.methods.length === 0 || r.methods.includes(method)) && matches(r, pathname));
  if (!route || entry.excluded.some((e) => matches(e, pathname))) return undefined;
  return route;
}

export type FunctionMatch<F extends FunctionEntry> = { fn: F; route: FunctionRoute | undefined };

/** The function that answers a path: its own route, or the default URL of a route-less function. */
export function findFunction<F extends FunctionEntry>(
  functions: readonly F[],
  pathname: string,
  method: string,
): FunctionMatch<F> | undefined {
  const byName = DEFAULT_FUNCTION_URL.exec(pathname);
  if (byName) {
    const fn = functions.find((f) => f.name === byName[1]);
    return fn && fn.routes.length === 0 && !fn.schedule ? { fn, route: undefined } : undefined;
  }
  for (const fn of functions) {
    const route = matchFunctionRoute(fn, pathname, method);
    if (route) return { fn, route };
  }
  return undefined;
}

/** The edge functions for a path, in manifest order (case-sensitive, as @netlify/edge-functions-dev). */
export function findEdgeFunctions(edges: readonly EdgeEntry[], pathname: string, method: string): EdgeEntry[] {
  return edges.filter(
    (e) => (e.methods.length === 0 || e.methods.includes(method)) && e.pattern.test(pathname) && !e.excluded.some((x) => x.test(pathname)),
  );
}

/**
 * Netlify does not order overlapping function routes, so a path two functions claim would answer
 * differently here and there: refuse to start instead. Checks every literal path against the others.
 */
export function assertUnambiguous(functions: readonly FunctionEntry[]): void {
  const clashes: string[] = [];
  for (const fn of functions) {
    for (const route of fn.routes) {
      if (route.literal === undefined) continue;
      for (const other of functions) {
        if (other !== fn && matchFunctionRoute(other, route.literal, route.methods[0] ?? 'GET'))
          clashes.push(`${route.literal}: ${fn.name} and ${other.name}`);
      }
    }
  }
  if (clashes.length)
    throw new Error(`Function routes claimed twice (Netlify does not order them; add excludedPath):\n  ${clashes.join('\n  ')}`);
}

/** The `config` a module must export for the ISC route table to be the truth: `path`, `excludedPath`, `schedule`. */
export function assertConfigMatches(
  entry: FunctionEntry,
  config: { path?: string | string[]; excludedPath?: string | string[]; schedule?: string } | undefined,
): void {
  const list = (v: string | string[] | undefined): string[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
  const expected = JSON.stringify([list(config?.path), list(config?.excludedPath), config?.schedule ?? null]);
  const parsed = JSON.stringify([entry.routes.map((r) => r.pattern), entry.excluded.map((r) => r.pattern), entry.schedule ?? null]);
  if (expected !== parsed) {
    throw new Error(
      `${path.basename(entry.mainFile)}: the exported config ${expected} differs from what Netlify's parser reads ${parsed}; keep config a literal`,
    );
  }
}
