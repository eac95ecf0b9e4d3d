/**
 * The props of every solution page, for both of its routes: `/solutions/<slug>` in the solution's
 * own chrome and `/<lang>/solutions/<slug>` in the other language's (the page says it is written in
 * one language only). Each page receives its solution, the source's digest, its related cards
 * (solutions first, then articles), tag pages and the documents its body links to here instead of
 * searching the catalogue per page; its cache key covers them (page-cache.ts).
 */
import type { Article, Lang, Solution } from '../core/content/catalog.ts';
import { otherLang } from '../core/content/i18n.ts';
import { inChrome } from '../core/kernel/paths.ts';
import { documentLangsOf, linkedDocuments, type LinkedDocuments } from '../core/publish/localize-links.ts';
import { docCard, relatedIndex, tagPathIn, type DocCard } from '../core/publish/pages.ts';
import { getCatalog } from './collection-catalog.ts';
import { documentKeyData, type EntrySource, entrySources, pageCacheKey } from './page-cache.ts';

/** What a solution page shows besides the site's facts. */
export interface SolutionPageProps {
  doc: Solution;
  chrome: Lang;
  /** Where its body comes from: only the cache key reads it. */
  source: EntrySource | undefined;
  related: DocCard[];
  tags: { name: string; path: string }[];
  linked: LinkedDocuments;
}

/** Every solution's page props and cache key in its own chrome (`'own'`) or the other language's (`'other'`). */
export async function solutionPages(which: 'own' | 'other'): Promise<{ doc: Solution; props: SolutionPageProps; cacheKey: string }[]> {
  const catalog = await getCatalog();
  const { solutions, articles } = catalog;
  const related = relatedIndex<Article | Solution>([...solutions, ...articles]);
  const sources = await entrySources('solutions');
  const documents = documentLangsOf(catalog);
  return Promise.all(
    solutions.map(async (doc) => {
      const chrome = which === 'own' ? doc.lang : otherLang(doc.lang);
      const props: SolutionPageProps = {
        doc,
        chrome,
        source: sources.get(doc.slug),
        related: related(doc, 3).map((r) => docCard(r, chrome)),
        tags: doc.tags.map((name) => ({ name, path: tagPathIn(catalog, name, chrome) })),
        linked: linkedDocuments(doc.markdown, documents),
      };
      return { doc, props, cacheKey: await pageCacheKey(inChrome(chrome, doc.path, doc.lang), documentKeyData(props)) };
    }),
  );
}
