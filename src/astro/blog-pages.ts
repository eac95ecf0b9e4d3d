/**
 * The props of pages 2… of the listing of every article, for both of its routes: `/blog/page/<n>`
 * (English chrome, English first) and `/zh/blog/all/page/<n>` (Chinese chrome, Chinese first). Each
 * page is keyed on its cards and the page count (page-cache.ts).
 */
import type { Lang } from '../core/content/catalog.ts';
import { paths } from '../core/kernel/paths.ts';
import { articlesOnPage, docCard, pageCount, readerFirst, type DocCard } from '../core/publish/pages.ts';
import { getCatalog } from './collection-catalog.ts';
import { pageCacheKey } from './page-cache.ts';

/** What a later page of the listing of every article shows besides the site's facts. */
export interface BlogAllPageProps {
  page: number;
  total: number;
  items: DocCard[];
}

/** Pages 2… of the listing of every article in `lang`'s chrome, `lang`'s articles first. */
export async function blogAllPages(lang: Lang): Promise<{ params: { page: string }; props: BlogAllPageProps; cacheKey: string }[]> {
  const articles = readerFirst((await getCatalog()).articles, lang);
  const total = pageCount(articles.length);
  return Promise.all(
    Array.from({ length: total - 1 }, async (_, i) => {
      const props: BlogAllPageProps = { page: i + 2, total, items: articlesOnPage(articles, i + 2).map((a) => docCard(a, lang)) };
      return { params: { page: String(i + 2) }, props, cacheKey: await pageCacheKey(paths.blogAll(lang, i + 2), props) };
    }),
  );
}
