/**
 * The static layer: files from dist/ as Netlify's CDN serves them, with the `netlify.toml` and
 * `_headers` rules read by Netlify's own parser (@netlify/headers-parser). URL variations and the
 * base headers copy @netlify/static; unlike it, the method is checked (405) and files carry an ETag
 * (If-None-Match → 304), as the CDN does. A miss is the site's 404.html with status 404.
 *
 * A failed `npm run build` leaves dist/ empty (Astro empties it before it builds) under a running `npm start`: then a
 * miss is a 503 that says so, logged once, instead of a silent 404 for every page (stranger s8b, M3). Netlify never
 * deploys a failed build, so only the local server meets this. Building into a fresh folder and swapping it in on
 * success would keep the last good build served, but the build also empties generated/ and the deploy store, which
 * would have to be swapped with it, and `npm run build` (Netlify's build command) runs astro build directly.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { parseAllHeaders, type Header } from '@netlify/headers-parser';
import mime from 'mime-types';

/** @netlify/static: no `.html`/`/index.html` variations for these. */
const ASSET_EXTENSION = /\.(html?|png|jpg|js|css|svg|gif|ico|woff|woff2)$/;
/** @netlify/static's headers on every file. */
const BASE_HEADERS = { age: '0', 'cache-control': 'public, max-age=0, must-revalidate' };
/** Remembered path lookups (hits and misses) before the cache starts afresh: bounds memory under probing. */
const MAX_CACHED_LOOKUPS = 10_000;
/** Files up to this size keep their bytes in memory (as a CDN edge does), within the total below. */
const MAX_KEPT_FILE_BYTES = 256 * 1024;
const MAX_KEPT_BYTES = 64 * 1024 * 1024;
/** The methods a static file answers. */
export const STATIC_METHODS = ['GET', 'HEAD', 'OPTIONS'];
/** What a miss answers while dist/ holds no build. */
export const BUILD_MISSING_TEXT =
  'This site has no build to serve: the last `npm run build` failed (or one is under way). Run `npm run build`: it lists what to fix. ' +
  'The pages come back as soon as a build succeeds.\n';

/** Reads the header rules (dist/_headers first, then netlify.toml) once; a syntax error refuses to start. */
export async function loadHeaderRules(root: string, distDir: string): Promise<Header[]> {
  const { headers, errors } = await parseAllHeaders({
    headersFiles: [path.join(distDir, '_headers')],
    netlifyConfigPath: path.join(root, 'netlify.toml'),
    configHeaders: [],
    minimal: false,
  });
  if (errors.length) throw new AggregateError(errors, `netlify headers: ${errors.map((e) => e.message).join('; ')}`);
  return headers as Header[];
}

/** Every matching rule merged in order, a later one overwriting the same name (as @netlify/headers). */
export function headersFor(rules: readonly Header[], pathname: string): Record<string, string> {
  return Object.assign({}, ...rules.filter((rule) => rule.forRegExp.test(pathname)).map((rule) => rule.values));
}

/** The candidate files for a URL path, in @netlify/static's order. */
function urlVariations(pathname: string): string[] {
  const paths: string[] = [];
  if (pathname.endsWith('/')) {
    if (pathname !== '/') paths.push(`${pathname.slice(0, -1)}.html`, `${pathname.slice(0, -1)}.htm`);
    paths.push(`${pathname}index.html`, `${pathname}index.htm`);
  } else if (!ASSET_EXTENSION.test(pathname)) {
    paths.push(`${pathname}.html`, `${pathname}.htm`, `${pathname}/index.html`, `${pathname}/index.htm`);
  }
  return paths.includes(pathname) ? paths : [pathname, ...paths];
}

interface StaticFile {
  file: string;
  size: number;
  etag: string;
  contentType: string | false;
  /** The bytes, when small enough to keep (read once for the ETag anyway). */
  bytes: Buffer<ArrayBuffer> | undefined;
}

export class StaticSite {
  /** pathname → file (or null for a miss); cleared when the build changes. */
  #lookups = new Map<string, StaticFile | null>();
  #keptBytes = 0;
  #headerRules: readonly Header[];

  /** Whether the missing build was logged since a build was last seen: once per failed build, not once per request. */
  #missingBuildLogged = false;
  readonly #log: (line: string) => void;

  readonly distDir: string;

  constructor(distDir: string, headerRules: readonly Header[], log: (line: string) => void = console.warn) {
    this.distDir = distDir;
    this.#headerRules = headerRules;
    this.#log = log;
  }

  /** Forget what was read from dist/ (after a rebuild). */
  reset(headerRules: readonly Header[]): void {
    this.#lookups.clear();
    this.#keptBytes = 0;
    this.#headerRules = headerRules;
  }

  /**
   * Whether dist/ holds a build: every build has a home page. Looked at on a miss only (a stat), so a hit costs
   * nothing more; the lookups are forgotten when the build has gone, so its pages are not answered from a stale list.
   */
  #holdsBuild(): boolean {
    if (existsSync(path.join(this.distDir, 'index.html'))) {
      this.#missingBuildLogged = false;
      return true;
    }
    this.#lookups.clear();
    this.#keptBytes = 0;
    if (!this.#missingBuildLogged) {
      this.#missingBuildLogged = true;
      this.#log(
        `\n  ${this.distDir} holds no build: the last npm run build failed (or one is under way). Pages answer 503 until a build succeeds: run npm run build.\n`,
      );
    }
    return false;
  }

  /** The file a path serves, if any. `pathname` is the raw (encoded) URL path. */
  async find(pathname: string): Promise<StaticFile | undefined> {
    const cached = this.#lookups.get(pathname);
    if (cached !== undefined) return cached ?? undefined;
    let found: StaticFile | null = null;
    let decoded: string;
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      return undefined; // not a file name (the HTTP server answers such paths 400 before here)
    }
    for (const variation of urlVariations(decoded)) {
      const file = path.join(this.distDir, ...variation.split('/').filter(Boolean));
      if (file !== this.distDir && !file.startsWith(this.distDir + path.sep)) continue; // never outside dist/
      const info = await stat(file).catch(() => undefined);
      if (!info?.isFile()) continue;
      const bytes = await readFile(file);
      const etag = `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`;
      const keep = bytes.length <= MAX_KEPT_FILE_BYTES && this.#keptBytes + bytes.length <= MAX_KEPT_BYTES;
      if (keep) this.#keptBytes += bytes.length;
      found = { file, size: info.size, etag, contentType: mime.contentType(path.extname(file)), bytes: keep ? bytes : undefined };
      break;
    }
    if (this.#lookups.size > MAX_CACHED_LOOKUPS) {
      this.#lookups.clear();
      this.#keptBytes = 0;
    }
    this.#lookups.set(pathname, found);
    return found ?? undefined;
  }

  /** The response for a found file; `rulesPath` is the path whose header rules apply. */
  async respond(request: Request, found: StaticFile, options: { status?: number; rulesPath?: string } = {}): Promise<Response> {
    const headers = new Headers(BASE_HEADERS);
    if (found.contentType) headers.set('content-type', found.contentType);
    headers.set('etag', found.etag);
    for (const [name, value] of Object.entries(headersFor(this.#headerRules, options.rulesPath ?? new URL(request.url).pathname)))
      headers.set(name, value);
    const status = options.status ?? 200;
    if (status === 200 && ifNoneMatch(request.headers.get('if-none-match'), found.etag))
      return new Response(null, { status: 304, headers });
    headers.set('content-length', String(found.size));
    let body: Buffer<ArrayBuffer> | null = null;
    try {
      body = request.method === 'HEAD' ? null : (found.bytes ?? (await readFile(found.file)));
    } catch {
      // Gone since it was found (a build emptied dist/): answer as for a miss.
      this.#lookups.clear();
      return this.notFound(request);
    }
    return new Response(body, { status, headers });
  }

  /** 405 for a method a static file does not answer. */
  methodNotAllowed(pathname: string): Response {
    const headers = new Headers(headersFor(this.#headerRules, pathname));
    headers.set('allow', STATIC_METHODS.join(', '));
    headers.set('cache-control', 'no-store'); // not the file's lifetime (e.g. /_astro/* immutable)
    headers.set('content-type', 'text/plain; charset=utf-8');
    return new Response('Method Not Allowed\n', { status: 405, headers });
  }

  /** The site's 404 page for a miss (rules of /404.html, not of the missing path). */
  async notFound(request: Request): Promise<Response> {
    if (!this.#holdsBuild())
      return new Response(request.method === 'HEAD' ? null : BUILD_MISSING_TEXT, {
        status: 503,
        headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', 'retry-after': '30' },
      });
    const page = await this.find('/404.html');
    if (!page) return new Response('Not Found\n', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });
    return this.respond(request, page, { status: 404, rulesPath: '/404.html' });
  }
}

function ifNoneMatch(header: string | null, etag: string): boolean {
  if (!header) return false;
  return header.trim() === '*' || header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
