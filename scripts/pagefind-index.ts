/**
 * Build step after `astro build` (`npm run build`, and `ensureBuild` for `npm start` and tests):
 * indexes the built HTML with Pagefind: the /search page falls back to it when neither its copy of
 * the search index nor /api/search answers.
 *
 * It runs Pagefind's own CLI in a child process, not the Node API in Astro's process or this one:
 * - inside Astro's process the indexer's peak memory added to Astro's (10,000 articles: 5.0 GB, one
 *   step after the other ≈ 3 GB);
 * - the Node API's `writeFiles` builds the index twice (its verbose log shows "Building search
 *   indexes" twice; the CLI once): at 10,000 articles 22 s against 18 s for the CLI on the same files.
 * Both measured in BENCHMARKS.md, "Build".
 *
 * Usage: node scripts/pagefind-index.ts [siteDir]   (default: $ASTRO_OUT_DIR or ./dist)
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { answerHelp } from './usage.ts';
import { parseBuildConfig } from '../src/core/config.ts';

/**
 * The pages the /search page searches: articles, solutions and products (one level below their section).
 * Listing pages hold no `data-pagefind-body` and would be read only to be dropped.
 */
export const PAGEFIND_GLOB = '{blog,solutions,products}/*/index.html';

/**
 * Fragment files per language at most; above it Pagefind bundles fragments into shared files
 * (10,000 articles: ≈ 10 per file). Writing 10,000 small files was ≈ 2.5 s of the indexer's time
 * on this machine class; a result list then fetches a few 10 KB files instead of ten 1 KB ones.
 * Sites under this size per language are unaffected.
 */
export const PAGEFIND_MAX_FRAGMENTS = 500;

/** The CLI the `pagefind` package installs (it starts the platform binary from its optional dependency). */
const PAGEFIND_CLI = fileURLToPath(new URL('./runner/bin.cjs', import.meta.resolve('pagefind')));

/** Indexes the HTML files of `siteDir` matching {@link PAGEFIND_GLOB} into `siteDir/pagefind`; returns how many pages Pagefind indexed. */
export function runPagefind(siteDir: string): Promise<number> {
  const args = [PAGEFIND_CLI, '--site', siteDir, '--glob', PAGEFIND_GLOB, '--max-fragments', String(PAGEFIND_MAX_FRAGMENTS)];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      // "Total:\n  Indexed 2 languages\n  Indexed 10004 pages" ("1 page" for one).
      const pages = /Total:[\s\S]*?Indexed (\d+) pages?\b/.exec(output)?.[1];
      if (code !== 0 || pages === undefined) reject(new Error(`Pagefind failed (exit ${code}):\n${output.trim()}`));
      else resolve(Number(pages));
    });
  });
}

if (import.meta.main) {
  answerHelp(`Usage: node scripts/pagefind-index.ts [siteDir]

The second build step of npm run build: indexes siteDir (default: $ASTRO_OUT_DIR or ./dist) with
Pagefind's CLI into siteDir/pagefind (pages matching ${PAGEFIND_GLOB}).`);
  const siteDir = path.resolve(process.argv[2] ?? parseBuildConfig(process.env).outDir);
  const started = performance.now();
  try {
    const pages = await runPagefind(siteDir);
    // bench/build.bench.ts reads this line for Pagefind's share of the build.
    console.log(
      `[pagefind] Pagefind index written (${pages} HTML files in ${((performance.now() - started) / 1000).toFixed(1)} s) to ${path.join(siteDir, 'pagefind')}`,
    );
  } catch (error) {
    console.error(`[pagefind] ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
