/**
 * Build step after `astro build` (`npm run build`, and `ensureBuild` for `npm start` and tests):
 * indexes the built HTML with Pagefind: the /search page falls back to it when neither its copy of
 * the search index nor /api/search answers.
 *
 * It runs Pagefind's own CLI in a child process, not the Node API in Astro's process or this one:
 * - inside Astro's process the indexer's peak memory added to Astro's, one step after the other it does not;
 * - the Node API's `writeFiles` builds the index twice (its verbose log shows "Building search
 *   indexes" twice; the CLI once), so it is slower than the CLI on the same files.
 * Both measured: docs/benchmarks-history.md, "Build, issue 7".
 *
 * A large site is indexed as several Pagefind bundles of at most PAGES_PER_BUNDLE pages, each from
 * its own Pagefind run, which bounds the indexer's memory (docs/build-scale.md) and lets a
 * rebuild reuse the bundles whose pages did not change: each bundle's output is kept in the build
 * cache (ASTRO_CACHE_DIR/pagefind/<key>), keyed by what Pagefind reads of its pages
 * ({@link indexedContent}), Pagefind's version and these options. `pagefind/bundles.json` lists the bundles; the /search page merges them
 * (src/browser/search-page.ts). A site of up to PAGES_PER_BUNDLE pages has one bundle at
 * `pagefind/`, as before.
 *
 * Usage: node scripts/pagefind-index.ts [siteDir]   (default: $ASTRO_OUT_DIR or ./dist)
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { cp, link, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Parser } from 'htmlparser2';
import { answerHelp } from './usage.ts';
import { parseBuildConfig } from '../src/core/config.ts';

/**
 * The pages the /search page searches: articles, solutions and products (one level below their section).
 * Listing pages hold no `data-pagefind-body` and would be read only to be dropped.
 */
export const PAGEFIND_GLOB = '{blog,solutions,products}/*/index.html';

/**
 * Fragment files per language at most; above it Pagefind bundles fragments into shared files
 * (about ten per file at 10,000 articles). Writing one small file per article was seconds of the
 * indexer's time (BENCHMARKS.md, "Build"); a result list then fetches a few larger files instead of many small ones.
 * Sites under this size per language are unaffected.
 */
export const PAGEFIND_MAX_FRAGMENTS = 500;

/**
 * Pages one Pagefind bundle indexes at most. One run's memory grows with its pages (docs/build-scale.md);
 * the /search page merges every bundle when it falls back to
 * Pagefind, so bundles are few (10 at 100,000 articles).
 */
export const PAGES_PER_BUNDLE = 10_000;

/** The list of bundles the search page merges, in the Pagefind folder. */
export const BUNDLES_MANIFEST = 'bundles.json';

/** The CLI the `pagefind` package installs (it starts the platform binary from its optional dependency). */
const PAGEFIND_CLI = fileURLToPath(new URL('./runner/bin.cjs', import.meta.resolve('pagefind')));
const PAGEFIND_VERSION = (
  JSON.parse(readFileSync(fileURLToPath(new URL('../package.json', import.meta.resolve('pagefind'))), 'utf8')) as { version: string }
).version;

/**
 * Indexes the HTML files of `siteDir` matching {@link PAGEFIND_GLOB} into one bundle, `siteDir/pagefind`
 * or `outputPath`; returns how many pages Pagefind indexed.
 */
export function runPagefind(siteDir: string, outputPath?: string): Promise<number> {
  const args = [PAGEFIND_CLI, '--site', siteDir, '--glob', PAGEFIND_GLOB, '--max-fragments', String(PAGEFIND_MAX_FRAGMENTS)];
  if (outputPath) args.push('--output-path', outputPath);
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

/** The pages {@link PAGEFIND_GLOB} matches under `siteDir`, relative and sorted. */
export async function indexedPages(siteDir: string): Promise<string[]> {
  const pages: string[] = [];
  for (const section of ['blog', 'solutions', 'products']) {
    const dir = path.join(siteDir, section);
    if (!existsSync(dir)) continue;
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (entry.isDirectory() && existsSync(path.join(dir, entry.name, 'index.html'))) pages.push(`${section}/${entry.name}/index.html`);
    }
  }
  return pages.sort();
}

/** Which of `bundles` bundles a page goes to: by a hash of its path, so it stays there while the count does. */
export function bundleOf(page: string, bundles: number): number {
  return createHash('sha256').update(page).digest().readUInt32BE(0) % bundles;
}

/**
 * What Pagefind can read of a page, as one string: every element, attribute and text in document
 * order, except the content of `data-pagefind-ignore` elements (whose own `data-pagefind-*`
 * attributes and those of their descendants are kept: Pagefind still reads filters and meta
 * there). An edit to an article changes its neighbours' and related pages' HTML only inside such
 * elements (the newer/older links, the related list), so their bundles stay cached.
 */
export function indexedContent(html: string): string {
  const parts: string[] = [];
  const stack: boolean[] = [];
  let ignored = 0;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        const ignores = 'data-pagefind-ignore' in attributes;
        stack.push(ignores);
        const all = Object.entries(attributes);
        const kept = ignored > 0 || ignores ? all.filter(([key]) => key.startsWith('data-pagefind-')) : all;
        if (ignores) ignored++;
        parts.push(`<${name}${kept.map(([key, value]) => ` ${key}=${JSON.stringify(value)}`).join('')}>`);
      },
      ontext(text) {
        if (ignored === 0) parts.push(text);
      },
      onclosetag(name) {
        if (stack.pop()) ignored--;
        parts.push(`</${name}>`);
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
  return parts.join('');
}

/** The cache key of a bundle: Pagefind's version, this step's options and every page's path and {@link indexedContent}. */
async function bundleKey(siteDir: string, pages: readonly string[]): Promise<string> {
  const hash = createHash('sha256').update(`pagefind ${PAGEFIND_VERSION}\n${PAGEFIND_GLOB}\n${PAGEFIND_MAX_FRAGMENTS}\n`);
  for (const page of pages) {
    hash
      .update(page)
      .update('\0')
      .update(indexedContent(await readFile(path.join(siteDir, page), 'utf8')))
      .update('\0');
  }
  return hash.digest('base64url');
}

export interface BundleManifest {
  bundles: { url: string; languages: string[] }[];
}

export interface IndexedSite {
  pages: number;
  bundles: number;
  /** Bundles Pagefind built in this run; the others came from the cache. */
  built: number;
}

/**
 * Indexes `siteDir` in bundles of at most `pagesPerBundle` pages, reusing from `cacheDir` every
 * bundle whose pages are unchanged, and writes the bundle list (pagefind/bundles.json).
 */
export async function indexSite(siteDir: string, options: { cacheDir: string; pagesPerBundle?: number }): Promise<IndexedSite> {
  const pages = await indexedPages(siteDir);
  if (pages.length === 0) await runPagefind(siteDir); // Pagefind's own error: nothing to index
  const count = Math.max(1, Math.ceil(pages.length / (options.pagesPerBundle ?? PAGES_PER_BUNDLE)));
  const outRoot = path.join(siteDir, 'pagefind');
  const cacheRoot = path.join(options.cacheDir, 'pagefind');
  const groups = Array.from({ length: count }, () => [] as string[]);
  for (const page of pages) groups[count === 1 ? 0 : bundleOf(page, count)]!.push(page);
  const used = new Set<string>();
  const manifest: BundleManifest = { bundles: [] };
  let built = 0;
  for (const [index, group] of groups.entries()) {
    // One bundle keeps Pagefind's usual place; several get a folder each.
    const name = count === 1 ? '' : `b${index}`;
    const out = path.join(outRoot, name);
    const key = await bundleKey(siteDir, group);
    used.add(key);
    const cached = path.join(cacheRoot, key);
    const restored = existsSync(cached);
    if (restored) await cp(cached, out, { recursive: true });
    const entry = async (): Promise<void> => {
      const { languages } = JSON.parse(await readFile(path.join(out, 'pagefind-entry.json'), 'utf8')) as {
        languages: Record<string, unknown>;
      };
      manifest.bundles.push({ url: `/pagefind/${name ? `${name}/` : ''}`, languages: Object.keys(languages).sort() });
    };
    if (restored) {
      await entry();
      continue;
    }
    if (count === 1) {
      await runPagefind(siteDir);
    } else {
      // Pagefind indexes a folder: give it one holding only this bundle's pages (hard links), under the same paths.
      const work = path.join(options.cacheDir, 'pagefind-work', name);
      await rm(work, { recursive: true, force: true });
      for (const page of group) {
        await mkdir(path.dirname(path.join(work, page)), { recursive: true });
        await link(path.join(siteDir, page), path.join(work, page));
      }
      await runPagefind(work, out);
      await rm(work, { recursive: true, force: true });
    }
    built++;
    await entry();
    await rm(cached, { recursive: true, force: true });
    // The bundle list is written after the loop, so the folder holds this bundle's files only.
    await cp(out, cached, { recursive: true });
  }
  // Bundles no page set names any more (an edit, a new bundle count) are dropped from the cache.
  if (existsSync(cacheRoot)) {
    for (const key of await readdir(cacheRoot)) if (!used.has(key)) await rm(path.join(cacheRoot, key), { recursive: true, force: true });
  }
  await writeFile(path.join(outRoot, BUNDLES_MANIFEST), `${JSON.stringify(manifest)}\n`);
  return { pages: pages.length, bundles: count, built };
}

if (import.meta.main) {
  answerHelp(`Usage: node scripts/pagefind-index.ts [siteDir]

The second build step of npm run build: indexes siteDir (default: $ASTRO_OUT_DIR or ./dist) with
Pagefind's CLI into siteDir/pagefind (pages matching ${PAGEFIND_GLOB}), in bundles of at most
${PAGES_PER_BUNDLE.toLocaleString('en')} pages listed in pagefind/${BUNDLES_MANIFEST}; bundles whose pages did not
change since the last build are copied from $ASTRO_CACHE_DIR/pagefind.`);
  const config = parseBuildConfig(process.env);
  const siteDir = path.resolve(process.argv[2] ?? config.outDir);
  const started = performance.now();
  try {
    const { pages, bundles, built } = await indexSite(siteDir, { cacheDir: path.resolve(config.cacheDir) });
    // bench/build.bench.ts reads this line for Pagefind's share of the build.
    console.log(
      `[pagefind] Pagefind index written (${pages} HTML files in ${((performance.now() - started) / 1000).toFixed(1)} s) to ${path.join(siteDir, 'pagefind')}: ${bundles} bundle(s), ${built} built, ${bundles - built} from the cache`,
    );
  } catch (error) {
    console.error(`[pagefind] ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
