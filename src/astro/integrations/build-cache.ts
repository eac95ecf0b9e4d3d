/**
 * Keeps the build cache honest. Astro reuses two things from its cacheDir between builds: the
 * content store (each entry's parsed data and rendered HTML, reused while the file's digest is
 * unchanged) and, with `experimental.incrementalBuild`, the output of every page whose cacheKey
 * and module graph are unchanged (src/astro/page-cache.ts). Neither notices a change to code outside
 * a page's module graph: the markdown plugins (astro.config.mjs passes them as functions, which
 * Astro's config hash cannot see), the content config and its loader wrappers, the integrations,
 * or Node itself (its ICU formats the dates). So the build records a fingerprint of all the code
 * and settings the output depends on, and empties Astro's caches when it differs from the one the
 * cache was built with: a code change costs one full build, content changes stay incremental.
 * docs/build-cache.md describes the cache, where Netlify keeps it and how it is invalidated.
 * @module
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { AstroIntegration } from 'astro';
import { BODY_DIR, CATALOG_BODIES_FILE } from '../content-bodies.ts';
import { SEARCH_TERMS_FILE } from '../search-terms-cache.ts';
import { sharedBuildData } from './build-data.ts';

/** Project files every build output may depend on, besides the content (which the caches key themselves). */
export const CODE_INPUTS = ['src', 'public', 'astro.config.mjs', 'package.json', 'package-lock.json', 'tsconfig.json'] as const;

/**
 * What the cacheDir holds that depends on the code: Astro's content store (one file, or chunks), the
 * incremental build's manifest and pages, the bodies kept beside the store (src/astro/content-bodies.ts) and the
 * search index's terms (src/astro/search-terms-cache.ts: the tokenizer is code) and the catalogue's bodies
 * (src/astro/collection-catalog.ts: the twin's markdown is made by code).
 */
const ASTRO_CACHED = [
  'data-store.json',
  'data-store',
  'incremental-build.json',
  'dist',
  BODY_DIR,
  SEARCH_TERMS_FILE,
  CATALOG_BODIES_FILE,
] as const;

/** The file in cacheDir that names the code the cache was built by. */
export const FINGERPRINT_FILE = 'code-fingerprint.txt';

function* filesUnder(entry: string): Generator<string> {
  if (!existsSync(entry)) return;
  if (statSync(entry).isDirectory()) {
    for (const name of readdirSync(entry).sort()) yield* filesUnder(path.join(entry, name));
  } else if (!entry.endsWith('.test.ts')) {
    yield entry;
  }
}

/** What the cache was built with: a hash of the code, and the build settings as they were (origin, content, options). */
export interface CodeFingerprint {
  code: string;
  settings: Record<string, unknown>;
}

/**
 * The code and settings the build's output depends on: a hash of every file of {@link CODE_INPUTS}
 * under `root` (tests aside) and the Node version, and `settings` (the build's parsed environment).
 */
export function codeFingerprint(root: string, settings: Record<string, unknown>): CodeFingerprint {
  const hash = createHash('sha256').update(`node ${process.version}\n`);
  for (const input of CODE_INPUTS) {
    for (const file of filesUnder(path.join(root, input))) hash.update(path.relative(root, file)).update('\0').update(readFileSync(file));
  }
  return { code: hash.digest('hex'), settings };
}

/**
 * Why a cache built with `previous` (the fingerprint file's text, null when there is none) cannot serve a build with
 * `next`, in words for the build log: "the code", "the build settings (origin: a → b)", or both; null when it can.
 */
export function fingerprintChange(previous: string | null, next: CodeFingerprint): string | null {
  let before: Partial<CodeFingerprint> = {};
  try {
    if (previous !== null) before = JSON.parse(previous) as Partial<CodeFingerprint>;
  } catch {
    // A fingerprint from an older build of this project (one hash): nothing can be told apart.
  }
  if (before.code === undefined || before.settings === undefined) return 'the code or the build settings';
  const old = before.settings;
  const settings = [...new Set([...Object.keys(old), ...Object.keys(next.settings)])]
    .filter((key) => JSON.stringify(old[key]) !== JSON.stringify(next.settings[key]))
    .map((key) => `${key}: ${JSON.stringify(old[key]) ?? 'none'} → ${JSON.stringify(next.settings[key]) ?? 'none'}`);
  const settingsPart = settings.length > 0 ? `the build settings (${settings.join(', ')})` : null;
  if (before.code !== next.code) return settingsPart ? `the code and ${settingsPart}` : 'the code';
  return settingsPart;
}

/**
 * Removes what Astro cached in `cacheDir` when it was built from other code or settings than `fingerprint`;
 * returns why when it removed anything. The new fingerprint is written only when the build has finished
 * ({@link buildCache}), so a failed build leaves the next one to start clean as well.
 */
export function clearIfCodeChanged(cacheDir: string, fingerprint: CodeFingerprint): string | null {
  const file = path.join(cacheDir, FINGERPRINT_FILE);
  const previous = existsSync(file) ? readFileSync(file, 'utf8').trim() : null;
  const change = fingerprintChange(previous, fingerprint);
  if (change === null) return null;
  const cached = ASTRO_CACHED.filter((name) => existsSync(path.join(cacheDir, name)));
  for (const name of cached) rmSync(path.join(cacheDir, name), { recursive: true, force: true });
  rmSync(file, { force: true });
  return cached.length > 0 ? change : null;
}

/** Astro's incremental build manifest in cacheDir, as far as {@link pagesFromCache} reads it (astro/dist/core/build/incremental.js). */
const INCREMENTAL_MANIFEST = 'incremental-build.json';

interface IncrementalManifest {
  configHash?: string;
  lockfileHash?: string;
  routes?: Record<string, { dependencyHash?: string; paths?: Record<string, { cacheKey?: string; contentHashes?: unknown }> }>;
}

function readManifest(cacheDir: string): IncrementalManifest | null {
  try {
    return JSON.parse(readFileSync(path.join(cacheDir, INCREMENTAL_MANIFEST), 'utf8')) as IncrementalManifest;
  } catch {
    return null;
  }
}

/**
 * How many of the pages keyed in `next` (the manifest this build wrote) Astro copied from the cache: those whose route
 * code, cache key and rendered content entries are as `previous` (the manifest the build started with) recorded them,
 * Astro's own rule.
 */
export function pagesFromCache(previous: IncrementalManifest | null, next: IncrementalManifest | null): PagesFromCache {
  let copied = 0;
  // Astro ignores a manifest written with another configuration or lockfile.
  const usable = previous !== null && previous.configHash === next?.configHash && previous.lockfileHash === next?.lockfileHash;
  const ignored = previous !== null && !usable ? (previous.configHash === next?.configHash ? 'lock file' : 'configuration') : undefined;
  for (const [component, route] of Object.entries(next?.routes ?? {})) {
    const before = usable ? previous.routes?.[component] : undefined;
    for (const [pathname, entry] of Object.entries(route.paths ?? {})) {
      // Endpoints' files (icons, OG images) are not pages: the line counts the pages Astro lists as built.
      if (/\.[a-z0-9]+$/i.test(pathname)) continue;
      const old = before?.dependencyHash === route.dependencyHash ? before?.paths?.[pathname] : undefined;
      if (old && old.cacheKey === entry.cacheKey && JSON.stringify(old.contentHashes) === JSON.stringify(entry.contentHashes)) copied++;
    }
  }
  return ignored === undefined ? { copied } : { copied, ignored };
}

/** What {@link pagesFromCache} found: pages copied, and what made Astro ignore its cache, if anything did. */
export interface PagesFromCache {
  copied: number;
  ignored?: 'configuration' | 'lock file';
}

/** The build log's line of what the caches gave: pages copied and rendered, and each of the build's own caches. */
export function reuseSummary(pages: number, fromCache: PagesFromCache, reuse: SharedReuse): string {
  const n = (count: number): string => count.toLocaleString('en');
  const why = fromCache.ignored ? ` (Astro's ${fromCache.ignored} changed since the cached build: it renders every page)` : '';
  const parts = [`${n(fromCache.copied)} of ${n(pages)} pages copied from the cache, ${n(pages - fromCache.copied)} rendered${why}`];
  for (const [name, { reused, counted }] of Object.entries(reuse)) parts.push(`${name}: ${n(reused)} reused, ${n(counted)} derived`);
  return parts.join('; ');
}

type SharedReuse = NonNullable<ReturnType<typeof sharedBuildData>['reuse']>;

/** The integration: checks the fingerprint before Astro reads its caches, records it once the build is done. */
export function buildCache(options: { root: string; cacheDir: string; settings: Record<string, unknown> }): AstroIntegration {
  let fingerprint: CodeFingerprint | undefined;
  let startManifest: IncrementalManifest | null = null;
  return {
    name: 'build-cache',
    hooks: {
      // config:setup runs before the content sync and the page generation read the cache.
      'astro:config:setup': ({ command, logger }) => {
        if (command !== 'build') return;
        fingerprint = codeFingerprint(options.root, options.settings);
        const change = clearIfCodeChanged(options.cacheDir, fingerprint);
        if (change) logger.info(`${change} changed since the cached build: building every page again`);
        startManifest = readManifest(options.cacheDir);
      },
      'astro:build:done': async ({ pages, logger }) => {
        if (!fingerprint) return;
        // One line for the author of what this build could reuse (Astro marks each copied page "(restored)").
        logger.info(
          reuseSummary(pages.length, pagesFromCache(startManifest, readManifest(options.cacheDir)), sharedBuildData().reuse ?? {}),
        );
        await mkdir(options.cacheDir, { recursive: true });
        await writeFile(path.join(options.cacheDir, FINGERPRINT_FILE), `${JSON.stringify(fingerprint)}\n`);
      },
    },
  };
}
