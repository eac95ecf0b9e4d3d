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
import { BODY_DIR } from '../content-bodies.ts';

/** Project files every build output may depend on, besides the content (which the caches key themselves). */
export const CODE_INPUTS = ['src', 'public', 'astro.config.mjs', 'package.json', 'package-lock.json', 'tsconfig.json'] as const;

/**
 * What the cacheDir holds that depends on the code: Astro's content store (one file, or chunks), the
 * incremental build's manifest and pages, and the bodies kept beside the store (src/astro/content-bodies.ts).
 */
const ASTRO_CACHED = ['data-store.json', 'data-store', 'incremental-build.json', 'dist', BODY_DIR] as const;

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

/**
 * A hash of the code and settings the build's output depends on: every file of {@link CODE_INPUTS}
 * under `root` (tests aside), the Node version and `settings` (the build's parsed environment).
 */
export function codeFingerprint(root: string, settings: unknown): string {
  const hash = createHash('sha256').update(`node ${process.version}\n${JSON.stringify(settings)}\n`);
  for (const input of CODE_INPUTS) {
    for (const file of filesUnder(path.join(root, input))) hash.update(path.relative(root, file)).update('\0').update(readFileSync(file));
  }
  return hash.digest('hex');
}

/**
 * Removes what Astro cached in `cacheDir` when it was built from other code than `fingerprint`;
 * returns whether it did. The new fingerprint is written only when the build has finished
 * ({@link buildCache}), so a failed build leaves the next one to start clean as well.
 */
export function clearIfCodeChanged(cacheDir: string, fingerprint: string): boolean {
  const file = path.join(cacheDir, FINGERPRINT_FILE);
  const previous = existsSync(file) ? readFileSync(file, 'utf8').trim() : null;
  if (previous === fingerprint) return false;
  const cached = ASTRO_CACHED.filter((name) => existsSync(path.join(cacheDir, name)));
  for (const name of cached) rmSync(path.join(cacheDir, name), { recursive: true, force: true });
  rmSync(file, { force: true });
  return cached.length > 0;
}

/** The integration: checks the fingerprint before Astro reads its caches, records it once the build is done. */
export function buildCache(options: { root: string; cacheDir: string; settings: unknown }): AstroIntegration {
  let fingerprint: string | undefined;
  return {
    name: 'build-cache',
    hooks: {
      // config:setup runs before the content sync and the page generation read the cache.
      'astro:config:setup': ({ command, logger }) => {
        if (command !== 'build') return;
        fingerprint = codeFingerprint(options.root, options.settings);
        if (clearIfCodeChanged(options.cacheDir, fingerprint))
          logger.info('the code changed since the cached build: building every page again');
      },
      'astro:build:done': async () => {
        if (!fingerprint) return;
        await mkdir(options.cacheDir, { recursive: true });
        await writeFile(path.join(options.cacheDir, FINGERPRINT_FILE), `${fingerprint}\n`);
      },
    },
  };
}
