/**
 * Hands the build's catalogue from the page renderer to the `site-data` integration. Astro's
 * default prerenderer renders the pages in the build's own process (it imports the prerender
 * bundle), but the bundle holds its own copy of every module, so the two meet on a process-wide
 * symbol rather than a shared module variable. Only `astro:content` can build the catalogue, and
 * only page rendering can call it; this replaces the never-served data pages that used to carry it
 * out through dist/.
 * @module
 */
import type { Catalog } from '../../core/content/catalog.ts';
import type { SitePage } from '../../core/publish/pages.ts';

/** What rendering shares: the catalogue, and the search index when a page built it (the /search page does). */
export interface SharedBuildData {
  catalog?: Promise<Catalog>;
  /** The search index file (src/astro/search-index.ts). */
  searchIndexFile?: Promise<Uint8Array>;
  /**
   * The days (YYYY-MM-DD, sorted) of the articles and solutions the catalogue holds back for a later day
   * (src/core/publish/scheduled-publish.ts), set with the catalogue.
   */
  scheduledDays?: string[];
  /** The pages computed from that catalogue (src/astro/collection-catalog.ts getSitePages), when a page asked for them. */
  sitePages?: SitePage[];
  /**
   * True in `npm run dev`'s process (set by src/astro/integrations/site-data.ts). Not `import.meta.env.DEV`:
   * Vite derives that from NODE_ENV, which a build started under Vitest inherits as `test`.
   */
  devServer?: boolean;
  /**
   * What the build's own caches gave, by cache (`search terms`, `catalogue bodies`): how many values came from the
   * cache and how many were derived again. The build log sums it up (src/astro/integrations/build-cache.ts).
   */
  reuse?: Record<string, { reused: number; counted: number }>;
  /** `npm run dev` only: told of each catalogue the pages build (src/astro/integrations/site-data.ts writes the functions' data). */
  onCatalog?: (catalog: Promise<Catalog>) => void;
}

const KEY = Symbol.for('agent-ready-site/build-data');

/** The process-wide record; the renderer fills it, the integration reads it in `astro:build:done`. */
export function sharedBuildData(): SharedBuildData {
  const scope = globalThis as { [KEY]?: SharedBuildData };
  scope[KEY] ??= {};
  return scope[KEY];
}
