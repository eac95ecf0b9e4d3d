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
 * its own Pagefind run, which bounds the indexer's memory (docs/build-scale.md). A rebuild reuses
 * them from the build cache (ASTRO_CACHE_DIR/pagefind/): a bundle whose pages changed little is kept
 * and the changed pages go to a small delta bundle ({@link indexSite}). `pagefind/bundles.json` lists
 * the bundles; the /search page merges them (src/browser/search-page.ts). A site of up to
 * PAGES_PER_BUNDLE pages has one base bundle at `pagefind/`, as before.
 *
 * Usage: node scripts/pagefind-index.ts [siteDir]   (default: $ASTRO_OUT_DIR or ./dist)
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { cp, link, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { answerHelp } from './usage.ts';
import { parseBuildConfig } from '../src/core/config.ts';
import { DELTA_META } from '../src/core/search/pagefind-delta.ts';
import { loadDotEnv } from './dot-env.ts';

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
 * Pages changed since a bundle was indexed that the bundle may still serve stale, at most, as a share of its pages:
 * up to this many go to the small delta bundle; past it the bundle is indexed again (a compaction).
 */
export const DELTA_MAX_SHARE = 0.05;

/** Where each bundle's cache slot records what it indexed: each page's path and the hash of its bytes. */
const SLOT_PAGES = 'pages.json';
/** The version of Pagefind and this step's options: a slot or delta indexed with others is not reused. */
const INDEX_SETTINGS = `pagefind ${PAGEFIND_VERSION}\n${PAGEFIND_GLOB}\n${PAGEFIND_MAX_FRAGMENTS}\n${DELTA_META.name}:${DELTA_META.value}\n`;

/** The Pagefind URL of a page file: `blog/a/index.html` is `/blog/a/`, as Pagefind's results name it. */
export function pageUrl(page: string): string {
  return `/${page.replace(/index\.html$/, '')}`;
}

/** The hash of a page file's bytes. */
const hashOf = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('base64url');

/**
 * A page as the delta bundle indexes it: its HTML with an empty element carrying {@link DELTA_META} at the start of
 * its `data-pagefind-body` element (or of `<body>`), so the search page can tell its results from a base bundle's.
 */
export function markedForDelta(html: string): string {
  const marker = `<span data-pagefind-meta="${DELTA_META.name}:${DELTA_META.value}"></span>`;
  const opening = /<[a-zA-Z][^>]*\sdata-pagefind-body(?:[\s=>][^>]*)?>/.exec(html) ?? /<body(?:\s[^>]*)?>/i.exec(html);
  if (!opening) return `${marker}${html}`;
  const at = opening.index + opening[0].length;
  return `${html.slice(0, at)}${marker}${html.slice(at)}`;
}

export interface BundleManifest {
  bundles: { url: string; languages: string[] }[];
  /**
   * Pages changed since their base bundle was indexed (and pages removed since): the search page drops a base
   * bundle's result for one of these URLs; the delta bundle, listed last in `bundles`, holds their current text.
   */
  superseded?: string[];
}

export interface IndexedSite {
  pages: number;
  /** Base bundles (the delta bundle, when there is one, is not counted). */
  bundles: number;
  /** Base bundles Pagefind indexed in this run; the others came from the cache. */
  built: number;
  /** Pages the delta bundle holds: changed since their base bundle was indexed. */
  delta: number;
}

interface SlotPages {
  settings: string;
  pages: Record<string, string>;
}

async function readSlot(slot: string): Promise<SlotPages | null> {
  try {
    const read = JSON.parse(await readFile(path.join(slot, SLOT_PAGES), 'utf8')) as SlotPages;
    return read.settings === INDEX_SETTINGS && existsSync(path.join(slot, 'bundle', 'pagefind-entry.json')) ? read : null;
  } catch {
    return null;
  }
}

/** Indexes `pages` of `siteDir` into `out` from a folder holding only them (hard links, or marked copies), under the same paths. */
async function indexPages(siteDir: string, pages: readonly string[], out: string, work: string, mark: boolean): Promise<void> {
  await rm(work, { recursive: true, force: true });
  for (const page of pages) {
    await mkdir(path.dirname(path.join(work, page)), { recursive: true });
    if (mark) await writeFile(path.join(work, page), markedForDelta(await readFile(path.join(siteDir, page), 'utf8')));
    else await link(path.join(siteDir, page), path.join(work, page));
  }
  await runPagefind(work, out);
  await rm(work, { recursive: true, force: true });
}

async function languagesOf(bundleDir: string): Promise<string[]> {
  const { languages } = JSON.parse(await readFile(path.join(bundleDir, 'pagefind-entry.json'), 'utf8')) as {
    languages: Record<string, unknown>;
  };
  return Object.keys(languages).sort();
}

/**
 * Indexes `siteDir` in base bundles of at most `pagesPerBundle` pages, each page in the bundle its path hashes to.
 * Each base bundle is kept in a cache slot (`cacheDir/pagefind/base-<count>-<index>/`) with the hash of every page it
 * indexed. The next build reuses a slot whose pages changed by at most {@link DELTA_MAX_SHARE} of it: the changed
 * (and new) pages are indexed into one small delta bundle, `pagefind/delta/`, and listed with the removed ones as
 * `superseded` in the bundle list, so the search page drops a base bundle's stale result for them. Past that share the
 * base bundle is indexed again. An edit therefore costs Pagefind a run over the few pages whose bytes changed (the
 * article, its neighbours, the pages listing it as related), not over the 10,000 of its bundle (BENCHMARKS.md,
 * "Build"). Writes the bundle list (pagefind/bundles.json).
 */
export async function indexSite(
  siteDir: string,
  options: { cacheDir: string; pagesPerBundle?: number; deltaMaxShare?: number },
): Promise<IndexedSite> {
  const pages = await indexedPages(siteDir);
  if (pages.length === 0) await runPagefind(siteDir); // Pagefind's own error: nothing to index
  const count = Math.max(1, Math.ceil(pages.length / (options.pagesPerBundle ?? PAGES_PER_BUNDLE)));
  const deltaMaxShare = options.deltaMaxShare ?? DELTA_MAX_SHARE;
  const outRoot = path.join(siteDir, 'pagefind');
  const cacheRoot = path.join(options.cacheDir, 'pagefind');
  const workRoot = path.join(options.cacheDir, 'pagefind-work');
  await rm(outRoot, { recursive: true, force: true });
  const hashes = new Map<string, string>();
  // Pagefind indexes only pages with a data-pagefind-body when any page has one: the delta's folder must do the same.
  let anyBody = false;
  const withBody = new Set<string>();
  for (const page of pages) {
    const bytes = await readFile(path.join(siteDir, page));
    hashes.set(page, hashOf(bytes));
    if (bytes.includes('data-pagefind-body')) {
      anyBody = true;
      withBody.add(page);
    }
  }
  const groups = Array.from({ length: count }, () => [] as string[]);
  for (const page of pages) groups[count === 1 ? 0 : bundleOf(page, count)]!.push(page);
  const used = new Set<string>();
  const manifest: Required<BundleManifest> = { bundles: [], superseded: [] };
  const deltaPages: string[] = [];
  let built = 0;
  for (const [index, group] of groups.entries()) {
    // One bundle keeps Pagefind's usual place; several get a folder each.
    const name = count === 1 ? '' : `b${index}`;
    const out = path.join(outRoot, name);
    const slotName = `base-${count}-${index}`;
    used.add(slotName);
    const slot = path.join(cacheRoot, slotName);
    const kept = await readSlot(slot);
    const changed = kept ? group.filter((page) => kept.pages[page] !== hashes.get(page)) : group;
    const removed = kept ? Object.keys(kept.pages).filter((page) => !hashes.has(page) || !group.includes(page)) : [];
    const stale = changed.length + removed.length;
    if (kept && stale <= Math.floor(group.length * deltaMaxShare)) {
      await cp(path.join(slot, 'bundle'), out, { recursive: true });
      manifest.bundles.push({ url: `/pagefind/${name ? `${name}/` : ''}`, languages: await languagesOf(out) });
      for (const page of [...changed, ...removed]) manifest.superseded.push(pageUrl(page));
      deltaPages.push(...changed.filter((page) => !anyBody || withBody.has(page)));
      continue;
    }
    if (count === 1) await runPagefind(siteDir);
    else await indexPages(siteDir, group, out, path.join(workRoot, name), false);
    built++;
    manifest.bundles.push({ url: `/pagefind/${name ? `${name}/` : ''}`, languages: await languagesOf(out) });
    await rm(slot, { recursive: true, force: true });
    await mkdir(slot, { recursive: true });
    // Copied before the bundle list and the delta are written, so the slot holds this bundle's files only.
    await cp(out, path.join(slot, 'bundle'), { recursive: true });
    const indexed: SlotPages = { settings: INDEX_SETTINGS, pages: Object.fromEntries(group.map((page) => [page, hashes.get(page)!])) };
    await writeFile(path.join(slot, SLOT_PAGES), JSON.stringify(indexed));
  }
  let delta = 0;
  if (deltaPages.length > 0) {
    deltaPages.sort();
    const key = createHash('sha256').update(INDEX_SETTINGS);
    for (const page of deltaPages) key.update(`${page}\0${hashes.get(page)}\0`);
    const deltaName = `delta-${key.digest('base64url')}`;
    used.add(deltaName);
    const cached = path.join(cacheRoot, deltaName);
    const out = path.join(outRoot, 'delta');
    if (existsSync(path.join(cached, 'pagefind-entry.json'))) await cp(cached, out, { recursive: true });
    else {
      await indexPages(siteDir, deltaPages, out, path.join(workRoot, 'delta'), true);
      await rm(cached, { recursive: true, force: true });
      await cp(out, cached, { recursive: true });
    }
    manifest.bundles.push({ url: '/pagefind/delta/', languages: await languagesOf(out) });
    delta = deltaPages.length;
  }
  // Slots and deltas no build names any more (another bundle count, an older delta) are dropped from the cache.
  if (existsSync(cacheRoot)) {
    for (const entry of await readdir(cacheRoot))
      if (!used.has(entry)) await rm(path.join(cacheRoot, entry), { recursive: true, force: true });
  }
  manifest.superseded.sort();
  const written: BundleManifest = manifest.superseded.length > 0 ? manifest : { bundles: manifest.bundles };
  await writeFile(path.join(outRoot, BUNDLES_MANIFEST), `${JSON.stringify(written)}\n`);
  return { pages: pages.length, bundles: count, built, delta };
}

if (import.meta.main) {
  answerHelp(`Usage: node scripts/pagefind-index.ts [siteDir]

The second build step of npm run build: indexes siteDir (default: $ASTRO_OUT_DIR or ./dist) with
Pagefind's CLI into siteDir/pagefind (pages matching ${PAGEFIND_GLOB}), in bundles of at most
${PAGES_PER_BUNDLE.toLocaleString('en')} pages listed in pagefind/${BUNDLES_MANIFEST}. A bundle is copied from
$ASTRO_CACHE_DIR/pagefind when at most ${100 * DELTA_MAX_SHARE} % of its pages changed since it was indexed; the changed
pages are then indexed into a small delta bundle, pagefind/delta/.`);
  // The build's variables as astro.config.mjs takes them, `.env` included.
  loadDotEnv(path.join(import.meta.dirname, '..', '.env'));
  const config = parseBuildConfig(process.env);
  const siteDir = path.resolve(process.argv[2] ?? config.outDir);
  const started = performance.now();
  try {
    const { pages, bundles, built, delta } = await indexSite(siteDir, { cacheDir: path.resolve(config.cacheDir) });
    // bench/build.bench.ts reads this line for Pagefind's share of the build.
    console.log(
      `[pagefind] Pagefind index written (${pages} HTML files in ${((performance.now() - started) / 1000).toFixed(1)} s) to ${path.join(siteDir, 'pagefind')}: ${bundles} bundle(s), ${built} built, ${bundles - built} from the cache, ${delta} page(s) in the delta bundle`,
    );
  } catch (error) {
    console.error(`[pagefind] ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
