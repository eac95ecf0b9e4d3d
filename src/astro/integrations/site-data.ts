/**
 * Build hook: after Astro writes dist/, write the functions' data straight into generated/data
 * (nothing of it passes through dist/): the catalogue the pages rendered from (handed over by
 * src/astro/integrations/build-data.ts), its body-less index (sharded, for the functions) and
 * site profile, the search index (whole, for the /search page's copy and the tests, and sharded,
 * for the functions), the validated tweet
 * snapshot and the contact page template; then the markdown twins, the deploy-store bodies for the
 * MCP function (in DEPLOY_BLOBS_DIR), and the build facts. In `npm run dev` it injects the
 * route that serves the twins instead. The Pagefind index is the next build step
 * (scripts/pagefind-index.ts).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import type { AstroIntegration, AstroIntegrationLogger } from 'astro';
import type { ViteDevServer } from 'vite';
import { catalogIndex, documentsOf, siteProfile, type Catalog } from '../../core/content/catalog.ts';
import { shardCatalog } from '../../core/content/catalog-shards.ts';
import { buildSearchIndex } from '../../core/search/build-index.ts';
import { SEARCH_INDEX_FILE } from '../../core/search/index-data.ts';
import type { TweetFeed } from '../../core/tweets/tweets.ts';
import type { OgImagesMode } from '../../core/config.ts';
import { OG_BRAND_FILE, OG_CARDS_FILE, type OgBrand, ogCardTexts, serializeOgCards } from '../../core/publish/og-card.ts';
import { logoSvg, themeColor } from '../brand.ts';
import { type SitePage, sitePages } from '../../core/publish/pages.ts';
import { SCHEDULED_DAYS_FILE, type ScheduledDays } from '../../core/publish/scheduled-publish.ts';
import { contentErrorsFailure, readTweetSnapshotFile } from '../content-errors.ts';
import { sharedBuildData } from './build-data.ts';
import { writeDeployBodies } from './deploy-blobs.ts';
import { writeMarkdownTwins } from './markdown-twins.ts';

export interface BuildInfo {
  origin: string;
  version: string;
  commit: string;
  built_at: string;
  content_dir: string;
}

/** The commit built: COMMIT_REF (Netlify sets it), else git's HEAD. */
function currentCommit(commitRef: string | null): string {
  if (commitRef) return commitRef;
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'unknown'; // not a git checkout (e.g. an unpacked archive): the build still works
  }
}

/**
 * The build-time tweet snapshot (`<content>/tweets.json`), validated: /api/tweets serves it until a
 * live feed is stored. Its errors read as content errors (the catalogue lists them with the rest first).
 */
export async function readTweetSnapshot(contentDir: string): Promise<TweetFeed> {
  const { feed, errors } = readTweetSnapshotFile(contentDir);
  if (!feed) throw contentErrorsFailure(errors);
  return feed;
}

/** The catalogue the pages were rendered from; a build that rendered none has nothing to publish. */
async function renderedCatalog(): Promise<Catalog> {
  const shared = sharedBuildData().catalog;
  if (!shared)
    throw new Error(
      'site-data: no page built the catalogue (src/astro/collection-catalog.ts getCatalog), so there is no data for the functions; did the prerender run in another process?',
    );
  return shared;
}

/** Where the build's data goes and what it records. */
interface SiteDataOptions {
  origin: string;
  generatedDir: string;
  deployBlobsDir: string;
  contentDir: string;
  commitRef: string | null;
  /** OG_IMAGES: with `off` the og-image function gets no cards (every page names the site-wide image). */
  ogImages: OgImagesMode;
  /** `npm run dev:functions`: the dev server serves the functions, so it writes their data (astro.config.mjs). */
  devFunctions?: boolean;
  /**
   * Gives the local Blobs folder the deploy store of the data just written (scripts/runtime/deploy-blobs.ts
   * seedDeployStore, passed in by astro.config.mjs: src/astro imports nothing from scripts/).
   */
  seedLocalBlobs?: (blobsDir: string, root: string) => unknown;
}

/** Writes a sharded index's files (name to contents) into a new folder. */
async function writeShards(dir: string, files: ReadonlyMap<string, string | Uint8Array>): Promise<void> {
  await mkdir(dir);
  await Promise.all([...files].map(([name, contents]) => writeFile(path.join(dir, name), contents)));
}

/** The contact page's two languages, the templates of the contact function's no-JavaScript answer. */
interface ContactTemplates {
  en: string;
  zh: string;
}

/**
 * Writes what the functions read into generated/ (the data folder anew, build-info.json) and the
 * article bodies into the deploy store folder. Returns how many bodies it wrote.
 */
async function writeFunctionData(
  options: SiteDataOptions,
  catalog: Catalog,
  searchIndexFile: Uint8Array,
  contact: ContactTemplates,
  mode: 'build' | 'dev',
  pages: readonly SitePage[] = [],
  scheduledDays: readonly string[] = [],
): Promise<number> {
  const root = process.cwd();
  const outDir = path.resolve(root, options.generatedDir);
  const dataDir = path.join(outDir, 'data');
  const tweets = await readTweetSnapshot(options.contentDir);
  // generated/ afresh, its build fingerprint too: after `npm run dev` wrote it (drafts included), `npm start` builds again.
  await rm(outDir, { recursive: true, force: true });
  await mkdir(dataDir, { recursive: true });
  const products = catalog.products.map((p) => ({ slug: p.slug, name: p.name }));
  await Promise.all([
    writeFile(path.join(dataDir, 'catalog.json'), JSON.stringify(catalog)),
    writeFile(path.join(dataDir, 'site-profile.json'), JSON.stringify(siteProfile(catalog))),
    writeFile(path.join(dataDir, 'tweets-snapshot.json'), JSON.stringify(tweets)),
    writeFile(path.join(dataDir, 'contact-page.json'), JSON.stringify({ ...contact, products })),
    // The days publish-scheduled asks for a build on (src/core/publish/scheduled-publish.ts); none in dev, which shows all.
    writeFile(path.join(dataDir, SCHEDULED_DAYS_FILE), JSON.stringify({ days: [...scheduledDays] } satisfies ScheduledDays)),
  ]);
  // The MCP and A2A functions' data: the catalogue without bodies in files beside them (a head,
  // documents files, slug files: a cold answer reads only its documents'), the bodies as deploy
  // blobs. Their few answers that need every document read every file.
  await writeShards(path.join(dataDir, 'catalog'), shardCatalog(catalogIndex(catalog)));
  // The og-image function's card texts, one file read on its first request (src/core/publish/og-card.ts).
  const cards = options.ogImages === 'off' ? new Map() : ogCardTexts(catalog, pages);
  const brand: OgBrand = { logoSvg: logoSvg(), accent: themeColor() };
  await writeShards(
    path.join(dataDir, 'og'),
    new Map([
      [OG_CARDS_FILE, serializeOgCards(cards)],
      [OG_BRAND_FILE, JSON.stringify(brand)],
    ]),
  );
  // The functions' search index: one file, read by byte range (src/core/search/index-data.ts).
  await writeShards(path.join(dataDir, 'search'), new Map([[SEARCH_INDEX_FILE, searchIndexFile]]));
  // The upload folder is the build's alone; `npm run dev:functions` seeds the local Blobs folder from catalog.json instead.
  const bodies = mode === 'build' ? await writeDeployBodies(path.resolve(root, options.deployBlobsDir), catalog) : 0;
  const pkg = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as { version: string };
  const info: BuildInfo = {
    origin: options.origin,
    version: pkg.version,
    commit: mode === 'dev' ? 'dev' : currentCommit(options.commitRef),
    built_at: new Date().toISOString(),
    content_dir: options.contentDir,
  };
  await writeFile(path.join(outDir, 'build-info.json'), `${JSON.stringify(info, null, 2)}\n`);
  return bodies;
}

/** A catalogue with nothing in it: what the functions answer from in `npm run dev` until the real one is built. */
function placeholderCatalog(origin: string): Catalog {
  const company = { name: '', name_zh: '', legal_name: '', tagline: '', description: '', description_zh: '', founded: 2000 };
  return {
    origin,
    company: { ...company, headquarters: '', operator_attribution: '', contact: [], key_resources: [] },
    categories: [],
    articles: [],
    solutions: [],
    products: [],
  };
}

/** The dev server's own origin (it may listen on another port than the configured one when that is taken). */
function listeningOrigin(server: ViteDevServer): string | undefined {
  const address = server.httpServer?.address();
  return address && typeof address === 'object' ? `http://localhost:${address.port}` : undefined;
}

/**
 * `npm run dev`'s functions read the same generated/ data as a build's: written here from the catalogue the dev
 * server's pages render from, each time it is built anew (a content change), and the deploy store seeded with its
 * bodies. Drafts are in it (dev shows them), so generated/ loses its build fingerprint and `npm start` builds again.
 */
function devDataWriter(options: SiteDataOptions, server: ViteDevServer, logger: AstroIntegrationLogger) {
  let written = '';
  const page = async (pagePath: string): Promise<string> => {
    const origin = listeningOrigin(server);
    return origin ? await (await fetch(new URL(pagePath, origin))).text() : '';
  };
  const write = async (catalogPromise: Promise<Catalog>): Promise<void> => {
    try {
      const catalog = await catalogPromise;
      const digest = createHash('sha256').update(JSON.stringify(catalog)).digest('hex');
      if (digest === written) return;
      written = digest;
      const [en, zh] = await Promise.all([page('/contact'), page('/zh/contact')]);
      // The og-image function answers /og/* under `npm run dev:functions` too: it gets the dev catalogue's cards.
      await writeFunctionData(options, catalog, buildSearchIndex(documentsOf(catalog)), { en, zh }, 'dev', sitePages(catalog));
      options.seedLocalBlobs?.(path.resolve('.netlify', 'blobs-serve'), process.cwd());
      logger.info(`functions' data written for ${catalog.articles.length} articles and ${catalog.solutions.length} solutions`);
    } catch (error) {
      // A content error: the pages say so (src/astro/content-errors.ts); the functions keep the last good data.
      written = '';
      logger.debug(`functions' data not written: ${(error as Error).message}`);
    }
  };
  return {
    write: (catalogPromise: Promise<Catalog>) => void write(catalogPromise),
    warmUp: async () => {
      try {
        await page('/contact');
      } catch {
        // The server stopped, or the page failed: the author's own request shows why.
      }
    },
  };
}

/** Folders and facts come from the build's environment, parsed once in astro.config.mjs (src/core/config.ts parseBuildConfig). */
export function siteData(options: SiteDataOptions): AstroIntegration {
  return {
    name: 'site-data',
    hooks: {
      'astro:config:setup': async ({ command, injectRoute }) => {
        sharedBuildData().devServer = command === 'dev';
        if (command !== 'dev') return;
        injectRoute({ pattern: '/[...twin].md', entrypoint: new URL('../routes/markdown-twin.ts', import.meta.url), prerender: true });
        if (!options.devFunctions) return;
        // The functions are bundled as the dev server starts and import generated/ files: give a fresh checkout placeholders.
        if (!existsSync(path.resolve(options.generatedDir, 'data', 'site-profile.json')))
          await writeFunctionData(options, placeholderCatalog(options.origin), buildSearchIndex([]), { en: '', zh: '' }, 'dev');
      },
      'astro:server:setup': ({ server, logger }) => {
        if (!options.devFunctions) return;
        const writer = devDataWriter(options, server, logger);
        sharedBuildData().onCatalog = writer.write;
        // Render one page as soon as the server listens: the catalogue, and with it the functions' data, is there before the
        // author's first request (which it also makes faster, its modules compiled).
        server.httpServer?.once('listening', () => void writer.warmUp());
      },
      'astro:build:start': () => {
        // A second build in the same process must not publish the first one's data.
        delete sharedBuildData().catalog;
        delete sharedBuildData().searchIndexFile;
        delete sharedBuildData().sitePages;
      },
      'astro:build:done': async ({ dir, logger }) => {
        const distDir = fileURLToPath(dir);
        const catalog = await renderedCatalog();
        // The same file the /search page's copy was made from, when a page built it.
        const searchIndexFile = (await sharedBuildData().searchIndexFile) ?? buildSearchIndex(documentsOf(catalog));
        // The contact pages double as the templates of the no-JavaScript answer (src/core/contact/contact-form.ts).
        const [en, zh] = await Promise.all(
          ['contact', 'zh/contact'].map((page) => readFile(path.join(distDir, page, 'index.html'), 'utf8')),
        );
        const twins = await writeMarkdownTwins(distDir, catalog, sharedBuildData().sitePages);
        const bodies = await writeFunctionData(
          options,
          catalog,
          searchIndexFile,
          { en: en!, zh: zh! },
          'build',
          sharedBuildData().sitePages ?? sitePages(catalog),
          sharedBuildData().scheduledDays,
        );
        // Pagefind runs after this process exits (scripts/pagefind-index.ts): inside it, the indexer's
        // peak memory adds to Astro's (BENCHMARKS.md, "Build"; docs/build-scale.md).
        logger.info(
          `${twins} markdown twins and ${bodies} deploy-store bodies written; data written to generated/data; origin ${options.origin}`,
        );
      },
    },
  };
}
