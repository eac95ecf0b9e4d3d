/**
 * /og/<page>.png: the Open Graph image of every page (src/astro/og-image.ts), prerendered. With
 * OG_IMAGES=off (large benchmark corpora) only the site-wide /og/index.png is drawn and every
 * page uses it (src/components/BaseHead.astro).
 */
import type { APIRoute } from 'astro';
import { documentsOf } from '../../core/content/catalog.ts';
import { categoryName, type SitePage } from '../../core/publish/pages.ts';
import { messages } from '../../core/content/i18n.ts';
import { paths } from '../../core/kernel/paths.ts';
import { getCatalog, getSitePages } from '../../astro/collection-catalog.ts';
import { OG_IMAGES_ENABLED, renderOgImage } from '../../astro/og-image.ts';
import { pageCacheKey, siteFacts } from '../../astro/page-cache.ts';

export async function getStaticPaths() {
  const catalog = await getCatalog();
  const docs = new Map(documentsOf(catalog).map((d) => [d.path, d]));
  const pages = (await getSitePages()).filter((p) => OG_IMAGES_ENABLED || p.path === paths.home);
  const kicker = (page: SitePage): string => {
    const t = messages(page.lang);
    const doc = docs.get(page.path);
    if (doc) return categoryName(catalog.categories, doc.category, doc.lang);
    if (page.kind === 'product') return t.navProducts;
    if (page.kind === 'home') return t.home;
    if (page.path.startsWith('/blog/tag/')) return t.tags;
    if (page.path.startsWith('/blog/category/')) return t.category;
    if (page.path === paths.apiDocs || page.path.startsWith(`${paths.apiDocs}/`)) return t.navDevelopers;
    if (page.kind === 'list') return page.path.includes('/blog') ? t.navBlog : page.title;
    return page.lang === 'zh' ? catalog.company.name_zh : catalog.company.name;
  };
  return Promise.all(
    pages.map(async (page) => {
      const props = {
        title:
          page.kind === 'home'
            ? page.lang === 'zh'
              ? (catalog.company.tagline_zh ?? catalog.company.tagline)
              : catalog.company.tagline
            : page.title,
        kicker: kicker(page),
        lang: page.lang,
      };
      const image = paths.ogImage(page.path);
      // Keyed on what the card shows (brand and host are site facts): an image is drawn again only when its text changes.
      return { params: { slug: image.replace(/^\/og\//, '').replace(/\.png$/, '') }, props, cacheKey: await pageCacheKey(image, props) };
    }),
  );
}

export const GET: APIRoute = async ({ props }) => {
  const catalog = await siteFacts();
  const { title, kicker, lang } = props as { title: string; kicker: string; lang: 'zh' | 'en' };
  const png = await renderOgImage({
    title,
    kicker,
    lang,
    brand: lang === 'zh' ? `${catalog.company.name_zh} · ${catalog.company.name}` : catalog.company.name,
    host: new URL(catalog.origin).host,
  });
  return new Response(new Uint8Array(png), { headers: { 'content-type': 'image/png' } });
};
