/**
 * The schema.org WebPage every HTML page describes itself with, beside any main entity of its own
 * (an Article, a product, the organisation): when the page last changed (`dateModified`) and where
 * it sits in the site (a `BreadcrumbList`), which the Agent Readability Spec reads from the JSON-LD.
 * @module
 */
import { absoluteUrl, paths } from '../kernel/paths.ts';
import { langTag } from '../content/i18n.ts';
import type { Lang } from '../content/catalog.ts';
import type { SitePage } from './pages.ts';

/** One step of a breadcrumb trail: a page's name and path. */
export interface Crumb {
  name: string;
  path: string;
}

/**
 * The paths that may stand above `path` in a reader of `lang`'s trail, outermost first: the home
 * page in that language, then each leading part of the path in that language's chrome (`/zh/blog`
 * for `/zh/blog/tag/x`), the developers hub standing for `/docs`. The caller keeps those that are
 * pages (a tag's `/blog/tag` is not).
 */
export function breadcrumbCandidates(path: string, lang: Lang): string[] {
  const bare = path.replace(/^\/(zh|en)(?=\/|$)/, '') || '/';
  const segments = bare.split('/').filter(Boolean);
  const inLang = (p: string): string => (lang === 'zh' ? `/zh${p}` : p);
  const home = paths.langHome(lang);
  const candidates = [home];
  for (let i = 1; i < segments.length; i++) {
    const prefix = `/${segments.slice(0, i).join('/')}`;
    candidates.push(prefix === '/docs' ? paths.langDevelopers(lang) : inLang(prefix));
  }
  return [...new Set(candidates)].filter((p) => p !== path);
}

/** The JSON-LD of a page as a WebPage (a CollectionPage for listings) with its date and breadcrumb trail (`crumbs`, the page last). */
export function webPageJsonLd(
  origin: string,
  page: Pick<SitePage, 'path' | 'title' | 'description' | 'lang' | 'lastmod' | 'kind'>,
  crumbs: readonly Crumb[],
  site: { name: string },
): Record<string, unknown> {
  const url = absoluteUrl(origin, page.path);
  return {
    '@context': 'https://schema.org',
    '@type': page.kind === 'list' ? 'CollectionPage' : 'WebPage',
    '@id': url,
    url,
    name: page.title,
    description: page.description,
    inLanguage: langTag(page.lang),
    dateModified: page.lastmod,
    isPartOf: { '@type': 'WebSite', name: site.name, url: absoluteUrl(origin, paths.home) },
    breadcrumb: {
      '@type': 'BreadcrumbList',
      itemListElement: crumbs.map((crumb, i) => ({
        '@type': 'ListItem',
        position: i + 1,
        name: crumb.name,
        item: absoluteUrl(origin, crumb.path),
      })),
    },
  };
}
