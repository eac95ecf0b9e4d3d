/**
 * Cache keys for Astro's incremental build (`experimental.incrementalBuild`, astro.config.mjs): a
 * page whose key and code are unchanged since the last build is copied from the cache instead of
 * rendered again. Astro hashes each page's code (its module graph) itself; the key says which
 * data the page was rendered from, so it must cover everything the page reads:
 * - its props, which a cached route computes in getStaticPaths (the document and its source
 *   file's digest, which the rendered body comes from; its neighbours, related cards, its
 *   translation's path);
 * - its page-registry entry (title, description, language: the layout reads them by path);
 * - the site's facts ({@link siteFacts}: origin, company, categories, products), the year in the
 *   footer and the Open Graph setting, which every page's layout shows.
 * A cached route's template and the components it renders read the catalogue only through those
 * (src/astro/page-cache.test.ts checks that none of them calls getCatalog or getCollection). Code that
 * Astro does not see in a page's module graph (markdown plugins, the content config, the
 * integrations) is covered by the build's code fingerprint, which empties the cache when it
 * changes (src/astro/integrations/build-cache.ts). docs/build-cache.md has the whole scheme.
 * @module
 */
import { createHash } from 'node:crypto';
import { getCollection } from 'astro:content';
import type { Catalog, Document } from '../core/content/catalog.ts';
import { type OgImagesMode, parseBuildConfig } from '../core/config.ts';
import { getCatalog, registeredPage } from './collection-catalog.ts';
import { storedSlim } from './content-bodies.ts';
import { hasGlossary } from '../core/publish/glossary.ts';

/**
 * Where each page's Open Graph image comes from (OG_IMAGES, src/core/config.ts): every page's
 * layout names its image, so the setting is one of the site's facts in every page's key.
 */
export const OG_IMAGES: OgImagesMode = parseBuildConfig(process.env).ogImages;

/** What every page's layout may read from the catalogue besides its own props. */
export type SiteFacts = Pick<Catalog, 'origin' | 'company' | 'categories' | 'products'> & {
  /** Whether content/glossary.yaml defines terms: the footer links the glossary only then. */
  hasGlossary: boolean;
};

const facts = new WeakMap<Catalog, { site: SiteFacts; key: string }>();

async function siteEntry(): Promise<{ site: SiteFacts; key: string }> {
  const catalog = await getCatalog();
  let entry = facts.get(catalog);
  if (!entry) {
    const site: SiteFacts = {
      origin: catalog.origin,
      company: catalog.company,
      categories: catalog.categories,
      products: catalog.products,
      hasGlossary: hasGlossary(catalog.glossary),
    };
    const key = digest([site, new Date().getUTCFullYear(), OG_IMAGES]);
    entry = { site, key };
    facts.set(catalog, entry);
  }
  return entry;
}

/** The site's facts: what the layout and the components of cached pages read instead of the whole catalogue. */
export async function siteFacts(): Promise<SiteFacts> {
  return (await siteEntry()).site;
}

function digest(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('base64url');
}

/**
 * The incremental build's key of the page at `pagePath` rendered from `data` (its props, or what
 * the route derives its output from): a hash of `data`, the page's registry entry and the site's facts.
 */
export async function pageCacheKey(pagePath: string, data: unknown): Promise<string> {
  const [{ key }, registered] = await Promise.all([siteEntry(), registeredPage(pagePath)]);
  const entry = registered ? [registered.title, registered.description, registered.lang] : null;
  return digest([key, entry, data]);
}

/**
 * Where a document page's body comes from: its source file's digest (computed by the content loader), and whether
 * that file is all of it (a slim entry: plain markdown without pictures, src/astro/content-bodies.ts).
 */
export interface EntrySource {
  digest: string | number | undefined;
  slim: boolean;
}

/** Each entry's {@link EntrySource} by id: the body a page renders comes from the file, so its key names the file. */
export async function entrySources(collection: 'articles' | 'solutions'): Promise<Map<string, EntrySource>> {
  return new Map((await getCollection(collection)).map((entry) => [entry.id, { digest: entry.digest, slim: storedSlim(entry) }]));
}

/**
 * A document page's props as its cache key reads them. A slim entry's markdown comes from its source file alone, so
 * the file's digest (in the props) and the origin (a site fact) name it, as they name its catalogue body
 * (content-bodies.ts `sourceKey`): the key leaves the text out rather than hash every article's body again in every
 * build (docs/benchmarks-history.md, "Build: cache keys without the bodies"). Any other entry's markdown stays in: it
 * holds its pictures' built names, which change with the pictures' bytes where the digest does not.
 */
export function documentKeyData<P extends { doc: Document; source: EntrySource | undefined }>(props: P): unknown {
  return props.source?.slim ? { ...props, doc: { ...props.doc, markdown: null } } : props;
}
