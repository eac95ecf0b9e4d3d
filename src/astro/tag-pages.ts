/**
 * The props of every tag listing, for both of its routes: `/blog/tag/<tag>` in the language most of
 * its documents are in, and `/<lang>/blog/tag/<tag>` in the other language's chrome. Each page is
 * keyed on its tag, languages and cards (page-cache.ts).
 */
import type { Lang } from '../core/content/catalog.ts';
import { otherLang } from '../core/content/i18n.ts';
import { inChrome } from '../core/kernel/paths.ts';
import { docCard, readerFirst, tagListings, tagNeighbours, type DocCard } from '../core/publish/pages.ts';
import { getCatalog } from './collection-catalog.ts';
import { pageCacheKey } from './page-cache.ts';

/** What a tag page shows besides the site's facts. */
export interface TagPageProps {
  tag: string;
  /** The listing's own path, in the language of its documents. */
  path: string;
  listingLang: Lang;
  /** The chrome's language. */
  lang: Lang;
  cards: DocCard[];
  relatedTags: { tag: string; href: string; count: number }[];
  relatedCards: DocCard[];
}

/** Every tag's page props and cache key in its listing's language (`'own'`) or the other one (`'other'`). */
export async function tagPages(which: 'own' | 'other'): Promise<{ slug: string; props: TagPageProps; cacheKey: string }[]> {
  const catalog = await getCatalog();
  const neighbours = tagNeighbours(catalog);
  return Promise.all(
    tagListings(catalog).map(async (listing) => {
      const lang = which === 'own' ? listing.lang : otherLang(listing.lang);
      const { tags, related } = neighbours.get(listing.slug)!;
      const props: TagPageProps = {
        tag: listing.tag,
        path: listing.path,
        listingLang: listing.lang,
        lang,
        cards: readerFirst(listing.docs, lang).map((d) => docCard(d, lang)),
        relatedTags: tags.map((r) => ({ tag: r.tag, href: inChrome(lang, r.path, r.lang), count: r.count })),
        relatedCards: readerFirst(related, lang).map((d) => docCard(d, lang)),
      };
      return { slug: listing.slug, props, cacheKey: await pageCacheKey(inChrome(lang, listing.path, listing.lang), props) };
    }),
  );
}
