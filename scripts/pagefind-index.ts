/**
 * Build step after `astro build` (`npm run build`, and `ensureBuild` for `npm start` and tests):
 * indexes the built HTML with Pagefind for the /search page. It runs in its own process because
 * inside Astro's the indexer's peak memory added to Astro's: a 10,000-article build peaked at 5 GB,
 * one step after the other stays near 3 GB (BENCHMARKS.md, "Build").
 *
 * Usage: node scripts/pagefind-index.ts [siteDir]   (default: $ASTRO_OUT_DIR or ./dist)
 */
import path from 'node:path';
import * as pagefind from 'pagefind';

/** The pages the /search page searches: articles, solutions and products (one level below their section). Listing pages hold no `data-pagefind-body` and would be read only to be dropped. */
export const PAGEFIND_GLOB = '{blog,solutions,products}/*/index.html';

/** Indexes the HTML files of `siteDir` matching {@link PAGEFIND_GLOB} into `siteDir/pagefind`; returns how many pages Pagefind read. */
export async function runPagefind(siteDir: string): Promise<number> {
  const { index, errors } = await pagefind.createIndex({});
  if (!index) throw new Error(`Pagefind could not start: ${errors.join('; ')}`);
  try {
    const added = await index.addDirectory({ path: siteDir, glob: PAGEFIND_GLOB });
    if (added.errors.length) throw new Error(`Pagefind indexing failed: ${added.errors.join('; ')}`);
    const written = await index.writeFiles({ outputPath: path.join(siteDir, 'pagefind') });
    if (written.errors.length) throw new Error(`Pagefind could not write its index: ${written.errors.join('; ')}`);
    return added.page_count;
  } finally {
    await pagefind.close();
  }
}

if (import.meta.main) {
  const siteDir = path.resolve(process.argv[2] ?? process.env.ASTRO_OUT_DIR ?? 'dist');
  const started = performance.now();
  try {
    const pages = await runPagefind(siteDir);
    // bench/build.bench.ts reads this line for Pagefind's share of the build.
    console.log(`[pagefind] Pagefind index written (${pages} HTML files in ${((performance.now() - started) / 1000).toFixed(1)} s) to ${path.join(siteDir, 'pagefind')}`);
  } catch (error) {
    console.error(`[pagefind] ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
