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
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import type { AstroIntegration } from 'astro';
import { catalogIndex, documentsOf, siteProfile, type Catalog } from '../../core/content/catalog.ts';
import { shardCatalog } from '../../core/content/catalog-shards.ts';
import { buildSearchIndex } from '../../core/search/build-index.ts';
import { SEARCH_INDEX_FILE } from '../../core/search/index-data.ts';
import { parseTweetFeed, type TweetFeed } from '../../core/tweets/tweets.ts';
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

/** The build-time tweet snapshot (`<content>/tweets.json`), validated: /api/tweets serves it until a live feed is stored. */
export async function readTweetSnapshot(contentDir: string): Promise<TweetFeed> {
  const file = path.join(contentDir, 'tweets.json');
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new Error(`${file}: expected a JSON tweet feed ({"updated_at", "tweets": [...]})`, { cause: error });
  }
  try {
    return parseTweetFeed(raw);
  } catch (error) {
    throw new Error(`${file}: ${(error as Error).message}`, { cause: error });
  }
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

/** Writes a sharded index's files (name to contents) into a new folder. */
async function writeShards(dir: string, files: ReadonlyMap<string, string | Uint8Array>): Promise<void> {
  await mkdir(dir);
  await Promise.all([...files].map(([name, contents]) => writeFile(path.join(dir, name), contents)));
}

/** Folders and facts come from the build's environment, parsed once in astro.config.mjs (src/core/config.ts parseBuildConfig). */
export function siteData(options: {
  origin: string;
  generatedDir: string;
  deployBlobsDir: string;
  contentDir: string;
  commitRef: string | null;
}): AstroIntegration {
  return {
    name: 'site-data',
    hooks: {
      'astro:config:setup': ({ command, injectRoute }) => {
        if (command === 'dev')
          injectRoute({ pattern: '/[...twin].md', entrypoint: new URL('../routes/markdown-twin.ts', import.meta.url), prerender: true });
      },
      'astro:build:start': () => {
        // A second build in the same process must not publish the first one's data.
        delete sharedBuildData().catalog;
        delete sharedBuildData().searchIndexFile;
        delete sharedBuildData().sitePages;
      },
      'astro:build:done': async ({ dir, logger }) => {
        const distDir = fileURLToPath(dir);
        const root = process.cwd();
        const outDir = path.resolve(root, options.generatedDir);
        const dataDir = path.join(outDir, 'data');
        const catalog = await renderedCatalog();
        // The same file the /search page's copy was made from, when a page built it.
        const searchIndexFile = (await sharedBuildData().searchIndexFile) ?? buildSearchIndex(documentsOf(catalog));
        const tweets = await readTweetSnapshot(options.contentDir);
        await rm(outDir, { recursive: true, force: true });
        await mkdir(dataDir, { recursive: true });
        await Promise.all([
          writeFile(path.join(dataDir, 'catalog.json'), JSON.stringify(catalog)),
          writeFile(path.join(dataDir, 'site-profile.json'), JSON.stringify(siteProfile(catalog))),
          writeFile(path.join(dataDir, 'tweets-snapshot.json'), JSON.stringify(tweets)),
        ]);
        const twins = await writeMarkdownTwins(distDir, catalog, sharedBuildData().sitePages);
        // The MCP and A2A functions' data: the catalogue without bodies in files beside them (a head,
        // documents files, slug files: a cold answer reads only its documents'), the bodies as deploy
        // blobs. Their few answers that need every document read every file.
        await writeShards(path.join(dataDir, 'catalog'), shardCatalog(catalogIndex(catalog)));
        // The functions' search index: one file, read by byte range (src/core/search/index-data.ts).
        await writeShards(path.join(dataDir, 'search'), new Map([[SEARCH_INDEX_FILE, searchIndexFile]]));
        const bodies = await writeDeployBodies(path.resolve(root, options.deployBlobsDir), catalog);
        // The contact pages double as the templates of the no-JavaScript answer (src/core/contact/contact-form.ts).
        const [en, zh] = await Promise.all(
          ['contact', 'zh/contact'].map((page) => readFile(path.join(distDir, page, 'index.html'), 'utf8')),
        );
        const products = catalog.products.map((p) => ({ slug: p.slug, name: p.name }));
        await writeFile(path.join(dataDir, 'contact-page.json'), JSON.stringify({ en, zh, products }));
        const pkg = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as { version: string };
        const info: BuildInfo = {
          origin: options.origin,
          version: pkg.version,
          commit: currentCommit(options.commitRef),
          built_at: new Date().toISOString(),
          content_dir: options.contentDir,
        };
        await writeFile(path.join(outDir, 'build-info.json'), `${JSON.stringify(info, null, 2)}\n`);
        // Pagefind runs after this process exits (scripts/pagefind-index.ts): inside it, the indexer's
        // peak memory adds to Astro's (BENCHMARKS.md, "Build"; docs/build-scale.md).
        logger.info(
          `${twins} markdown twins and ${bodies} deploy-store bodies written; data written to generated/data; origin ${options.origin}`,
        );
      },
    },
  };
}
