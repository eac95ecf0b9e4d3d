/**
 * `npm run deploy:check`: runs Netlify's real build pipeline offline (@netlify/build, the
 * `netlify-build --offline` CLI) over this site and checks what it would deploy against what the
 * local runtime serves:
 *
 * 1. its functions manifest (.netlify/functions/manifest.json: routes, excluded routes, methods,
 *    preferStatic, schedules) equals the runtime's route table (scripts/runtime/routes.ts);
 * 2. each function archive holds the bundle at netlify/functions/<name>.mjs and the files the
 *    function reads beside it (netlify.toml `included_files`) at their paths, and those functions
 *    answer when run from their unpacked archive in another working directory;
 * 3. the deploy blobs the build leaves for upload (.netlify/v1/blobs/deploy) are the body of
 *    every article and solution.
 *
 * Edge functions are skipped: edge-bundler needs the network (Deno imports
 * https://edge.netlify.com/bootstrap/…), so the check points the pipeline at an empty folder and
 * says so. The pipeline runs with the resolved netlify.toml, changed in two places only: the build
 * command is `node scripts/build.ts` for the current build's origin (a no-op when dist/ is
 * current; it restores the deploy blobs that the pipeline's pre-build cleanup removes) and the edge
 * folder. Exit 0 when everything matches, 1 otherwise.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { resolveConfig } from '@netlify/config';
import StreamZip from 'node-stream-zip';
import picomatch from 'picomatch';
import { bodyKey, type Catalog } from '../src/core/content/catalog.ts';
import { answerHelp } from './usage.ts';
import { parseBuildConfig } from '../src/core/config.ts';
import { BLOB_FILE, DEPLOY_BLOBS_DIR } from '../src/astro/integrations/deploy-blobs.ts';
import { ensureBuild } from './build.ts';
import { listFunctionEntries, type FunctionEntry } from './runtime/routes.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const BUILD_TIMEOUT_MS = 5 * 60_000;

/** One function as both sides describe it, in one comparable shape. */
export interface ManifestFunction {
  name: string;
  schedule: string | null;
  routes: { pattern: string; match: string; methods: string[]; preferStatic: boolean }[];
  excludedRoutes: { pattern: string; match: string }[];
}

interface NetlifyManifestRoute {
  pattern: string;
  literal?: string;
  expression?: string;
  methods?: string[];
  prefer_static?: boolean;
}
interface NetlifyManifest {
  functions: { name: string; schedule?: string; routes?: NetlifyManifestRoute[]; excludedRoutes?: NetlifyManifestRoute[]; path: string }[];
}

const byName = (a: { name: string }, b: { name: string }): number => a.name.localeCompare(b.name);

/** Netlify's functions manifest, normalised. */
export function fromNetlifyManifest(manifest: NetlifyManifest): ManifestFunction[] {
  return manifest.functions
    .map((fn) => ({
      name: fn.name,
      schedule: fn.schedule ?? null,
      routes: (fn.routes ?? []).map((r) => ({
        pattern: r.pattern,
        match: r.literal ?? r.expression ?? '',
        methods: [...(r.methods ?? [])].sort(),
        preferStatic: Boolean(r.prefer_static),
      })),
      excludedRoutes: (fn.excludedRoutes ?? []).map((r) => ({ pattern: r.pattern, match: r.literal ?? r.expression ?? '' })),
    }))
    .sort(byName);
}

/** The local runtime's route table, normalised. */
export function fromRuntimeTable(entries: readonly FunctionEntry[]): ManifestFunction[] {
  return entries
    .map((fn) => ({
      name: fn.name,
      schedule: fn.schedule ?? null,
      routes: fn.routes.map((r) => ({
        pattern: r.pattern,
        match: r.literal ?? r.expression?.source ?? '',
        methods: [...r.methods].sort(),
        preferStatic: r.preferStatic,
      })),
      excludedRoutes: fn.excluded.map((r) => ({ pattern: r.pattern, match: r.literal ?? r.expression?.source ?? '' })),
    }))
    .sort(byName);
}

/** Every difference between what Netlify deploys and what the runtime routes, one line each. */
export function manifestDifferences(netlify: readonly ManifestFunction[], runtime: readonly ManifestFunction[]): string[] {
  const differences: string[] = [];
  for (const name of [...new Set([...netlify, ...runtime].map((f) => f.name))].sort()) {
    const theirs = netlify.find((f) => f.name === name);
    const ours = runtime.find((f) => f.name === name);
    if (!theirs) differences.push(`${name}: served by the runtime, not deployed by Netlify`);
    else if (!ours) differences.push(`${name}: deployed by Netlify, unknown to the runtime`);
    else {
      for (const field of ['schedule', 'routes', 'excludedRoutes'] as const) {
        const [a, b] = [JSON.stringify(theirs[field]), JSON.stringify(ours[field])];
        if (a !== b) differences.push(`${name}.${field}: Netlify ${a}, runtime ${b}`);
      }
    }
  }
  return differences;
}

/** Runs netlify-build offline with the given resolved config; resolves with its output, rejects on a non-zero exit. */
function runNetlifyBuild(root: string, configPath: string, origin: string): Promise<string> {
  const bin = path.join(root, 'node_modules', '@netlify', 'build', 'bin.js');
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [bin, '--offline', '--context', 'production', '--cwd', root, '--cachedConfigPath', configPath, '--nodePath', process.execPath],
      {
        cwd: root,
        env: {
          ...process.env,
          SITE_URL: origin,
          PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`,
          NETLIFY_BUILD_TELEMETRY_DISABLED: '1',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), BUILD_TIMEOUT_MS);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(output);
      else reject(new Error(`netlify-build exited with ${code}:\n${output}`));
    });
  });
}

/** The first request each function that reads files beside it must answer from its unpacked archive. */
const ARCHIVE_PROBES: Record<string, { request: string; expect: string }> = {
  'api-search': { request: `new Request('http://localhost/api/search?q=agent')`, expect: `res.status === 200 && text.startsWith('[')` },
  // No Blobs service here (the store check fails): the index half of the answer is what is checked.
  health: { request: `new Request('http://localhost/health')`, expect: `/"search_index":\\{"ok":true,"documents":[1-9]/.test(text)` },
  mcp: {
    request: `new Request('http://localhost/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'resources/list' }) })`,
    expect: `res.status === 200 && text.includes('"resources":[{')`,
  },
  // A search needs both index files and no body.
  a2a: {
    request: `new Request('http://localhost/a2a', { method: 'POST', headers: { 'content-type': 'application/json', 'a2a-version': '1.0' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message: { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'agent' }] } } }) })`,
    expect: `res.status === 200 && text.includes('"message"') && !text.includes('"error"')`,
  },
  // A card drawn from the archive: the card file, the fonts (found by module resolution) and sharp's native binary are there.
  'og-image': {
    request: `new Request('http://localhost/og/index.png')`,
    expect: `res.status === 200 && res.headers.get('content-type') === 'image/png' && text.length > 10000`,
  },
  // The catalogue says which paths are pages: a path that is none is refused before any store is touched.
  'api-feedback': {
    request: `new Request('http://localhost/api/feedback', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ page: '/blog/no-such-article', kind: 'helpful' }) })`,
    expect: `res.status === 400 && text.includes('an article, solution')`,
  },
};

/** The line the probe's child writes before the first lines of the function's own error (import or request). */
const PROBE_ERROR = 'function error:';
/** How many lines of that error are kept: the message, which names the cause (a bad variable, a missing file). */
const PROBE_ERROR_LINES = 3;

/**
 * Why a probe failed, from its child's stderr: the first lines of the function's own error when it threw (its
 * message names the cause, e.g. the variable), else the last lines (an answer that was not the expected one).
 */
export function probeFailure(stderr: string): string {
  const lines = stderr.trim().split('\n');
  const at = lines.findIndex((line) => line.startsWith(PROBE_ERROR));
  const kept =
    at === -1
      ? lines.slice(-3)
      : lines
          .slice(at + 1)
          .filter((line) => line.trim() !== '' && !/^\s+at /.test(line))
          .slice(0, PROBE_ERROR_LINES);
  return kept.map((line) => line.trim()).join(' | ');
}

/**
 * Runs a function's bundle from an unpacked archive, in another working directory, with one request: null when it
 * answers as expected, else the failure (see {@link probeFailure}).
 */
export function runFromArchive(dir: string, name: string): Promise<string | null> {
  const probe = ARCHIVE_PROBES[name];
  if (!probe) return Promise.resolve(`${name}: reads files beside it but has no probe in scripts/deploy-check.ts`);
  const script = `
    let res;
    try {
      const { default: handler } = await import(${JSON.stringify(pathToFileURL(path.join(dir, 'netlify', 'functions', `${name}.mjs`)).href)});
      res = await handler(${probe.request}, { ip: '127.0.0.1', params: {}, waitUntil() {} });
    } catch (error) {
      console.error(${JSON.stringify(PROBE_ERROR)});
      console.error(error instanceof Error ? String(error.stack ?? error) + (error.cause ? '\\ncause: ' + String(error.cause) : '') : String(error));
      process.exit(1);
    }
    const text = await res.text();
    if (!(${probe.expect})) { console.error(res.status + ' ' + text.slice(0, 300)); process.exit(1); }`;
  return new Promise((resolve) => {
    // A Blobs context that points nowhere: functions may build their stores at import, as on Netlify; a store call fails fast.
    const blobs = Buffer.from(
      JSON.stringify({
        siteID: '0',
        deployID: '0',
        token: 'none',
        edgeURL: 'http://127.0.0.1:9',
        uncachedEdgeURL: 'http://127.0.0.1:9',
        primaryRegion: 'us-east-2',
      }),
    ).toString('base64');
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      cwd: tmpdir(),
      env: { ...process.env, NETLIFY_BLOBS_CONTEXT: blobs },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('exit', (code) => resolve(code === 0 ? null : `${name}: run from its archive, it failed: ${probeFailure(err)}`));
  });
}

export interface DeployCheckResult {
  ok: boolean;
  /** What was checked, one line each (failures start with "FAIL"). */
  lines: string[];
}

export async function deployCheck(root = ROOT): Promise<DeployCheckResult> {
  const lines: string[] = [];
  const fail = (line: string): void => void lines.push(`FAIL ${line}`);
  const buildInfoFile = path.join(root, 'generated', 'build-info.json');
  const origin = existsSync(buildInfoFile)
    ? (JSON.parse(readFileSync(buildInfoFile, 'utf8')) as { origin: string }).origin
    : parseBuildConfig(process.env).origin;
  ensureBuild(origin, { quiet: true });

  const work = mkdtempSync(path.join(tmpdir(), 'deploy-check-'));
  try {
    // The resolved netlify.toml, with the two changes above.
    const resolved = await resolveConfig({ cwd: root, repositoryRoot: root, offline: true, context: 'production' });
    const noEdge = path.join(work, 'no-edge-functions');
    mkdirSync(noEdge);
    resolved.config.build.command = 'node scripts/build.ts';
    resolved.config.build.edge_functions = noEdge;
    const configPath = path.join(work, 'netlify-config.json');
    writeFileSync(configPath, JSON.stringify(resolved));
    const started = performance.now();
    await runNetlifyBuild(root, configPath, origin);
    lines.push(
      `netlify-build --offline (@netlify/build ${packageVersion(root, '@netlify/build')}): ${((performance.now() - started) / 1000).toFixed(1)} s, build command reused the build for ${origin}`,
    );

    // 1. Routes.
    const manifest = JSON.parse(readFileSync(path.join(root, '.netlify', 'functions', 'manifest.json'), 'utf8')) as NetlifyManifest;
    const netlify = fromNetlifyManifest(manifest);
    const runtime = fromRuntimeTable(await listFunctionEntries(path.join(root, 'netlify', 'functions'), { root }));
    const differences = manifestDifferences(netlify, runtime);
    differences.forEach(fail);
    if (!differences.length) {
      lines.push(
        `functions manifest = runtime route table: ${netlify.length} functions, ${netlify.reduce((n, f) => n + f.routes.length, 0)} routes, ${netlify.reduce((n, f) => n + f.excludedRoutes.length, 0)} excluded routes, ${netlify.filter((f) => f.schedule).length} schedules`,
      );
    }

    // 2. Archives: the bundle and included files in place, and the readers run from the archive.
    const functionsConfig = resolved.config.functions as Record<string, { included_files?: string[] }> | undefined;
    for (const fn of manifest.functions.sort(byName)) {
      const included = functionsConfig?.[fn.name]?.included_files ?? [];
      const zip = new StreamZip.async({ file: fn.path });
      try {
        const entries = Object.keys(await zip.entries());
        // A "!" pattern leaves files out (zip-it-and-ship-it's included_files): none of its files may be in the archive.
        const required = included.filter((pattern) => !pattern.startsWith('!'));
        const excluded = included.filter((pattern) => pattern.startsWith('!')).map((pattern) => picomatch(pattern.slice(1), { dot: true }));
        const missing = [`netlify/functions/${fn.name}.mjs`, ...required.flatMap((pattern) => filesMatching(root, pattern))].filter(
          (file) => !entries.includes(file),
        );
        const leftIn = entries.filter((file) => excluded.some((isMatch) => isMatch(file)));
        if (leftIn.length) {
          fail(`${fn.name}: its archive holds ${leftIn.length} files its included_files leave out, e.g. ${leftIn[0]}`);
          continue;
        }
        if (missing.length) {
          fail(`${fn.name}: its archive lacks ${missing.join(', ')}`);
          continue;
        }
        if (!included.length) continue;
        const dir = path.join(work, 'archives', fn.name);
        mkdirSync(dir, { recursive: true });
        await zip.extract(null, dir);
        const problem = await runFromArchive(dir, fn.name);
        if (problem) fail(problem);
        else
          lines.push(
            `${fn.name}: archive holds ${required.join(', ')}${excluded.length ? `, not ${included.filter((p) => p.startsWith('!')).join(', ')}` : ''} (${(statSync(fn.path).size / 1e6).toFixed(1)} MB zipped); answered when run from it (working directory elsewhere)`,
          );
      } finally {
        await zip.close();
      }
    }

    // 3. Deploy blobs: one per article and solution, its body.
    const catalog = JSON.parse(readFileSync(path.join(root, 'generated', 'data', 'catalog.json'), 'utf8')) as Catalog;
    const blobsDir = path.join(root, DEPLOY_BLOBS_DIR);
    const docs = [...catalog.articles, ...catalog.solutions];
    const wrong = docs.filter((doc) => {
      const file = path.join(blobsDir, ...bodyKey(doc.slug).split('/'), BLOB_FILE);
      return !existsSync(file) || readFileSync(file, 'utf8') !== doc.markdown;
    });
    const stored = countBlobs(blobsDir);
    if (wrong.length || stored !== docs.length)
      fail(
        `deploy blobs: ${stored} in ${DEPLOY_BLOBS_DIR} for ${docs.length} documents; missing or different: ${wrong
          .map((d) => d.slug)
          .slice(0, 5)
          .join(', ')}`,
      );
    else lines.push(`deploy blobs for upload: ${stored}, one body per article and solution (${DEPLOY_BLOBS_DIR})`);

    lines.push(
      "edge functions: skipped (edge-bundler needs the network: it imports https://edge.netlify.com/bootstrap/…); the runtime takes their routes from edge-bundler's manifest generator",
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return { ok: !lines.some((l) => l.startsWith('FAIL')), lines };
}

/**
 * The repository files an `included_files` entry names: itself, or for a glob
 * (`generated/data/search/*`) every file under its base folder it matches (picomatch, the
 * matcher of the fast-glob Netlify's bundler expands them with); a glob matching nothing is
 * returned as is, so it shows as missing.
 */
function filesMatching(root: string, pattern: string): string[] {
  const scan = picomatch.scan(pattern);
  if (!scan.isGlob) return [pattern];
  const base = path.join(root, scan.base);
  const isMatch = picomatch(pattern, { dot: true });
  const files = existsSync(base)
    ? readdirSync(base, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
        .filter((file) => isMatch(file))
    : [];
  return files.length ? files : [pattern];
}

function countBlobs(dir: string): number {
  if (!existsSync(dir)) return 0;
  let count = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) if (entry.isFile() && entry.name === BLOB_FILE) count++;
  return count;
}

function packageVersion(root: string, name: string): string {
  return (JSON.parse(readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
}

if (import.meta.main) {
  answerHelp(`Usage: npm run deploy:check   (node scripts/deploy-check.ts)

Runs Netlify's build pipeline offline (netlify-build --offline) on a copy of the site and checks that
its functions manifest (routes, excluded routes, schedules) equals the local runtime's route table,
that every function archive is complete and every article body is a deploy blob. Edge functions
are not bundled offline (the bundler needs the network); the check says so.`);
  const result = await deployCheck();
  for (const line of result.lines) console.log(line);
  console.log(result.ok ? 'deploy check: OK' : 'deploy check: FAILED');
  process.exitCode = result.ok ? 0 : 1;
}
