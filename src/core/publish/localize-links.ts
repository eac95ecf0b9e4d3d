/**
 * Links inside a document's body, made to keep the reader's chrome: authors write the stable paths
 * (`/products/llm-platform`, `/contact`), and a Chinese page turns them into the Chinese chrome's
 * (`/zh/products/llm-platform`, `/zh/contact`). A link to a solution in the other language leads to
 * its copy in the reader's chrome; a link to an article in the other language keeps its target and
 * says where it leads (`hreflang`), as the cards do (docs/design/site-design.md, "Chrome").
 * @module
 */
import { inChrome, paths } from '../kernel/paths.ts';

type Lang = 'zh' | 'en';

/** The documents a body may link to: their language by path. */
export type DocumentLangs = ReadonlyMap<string, { lang: Lang; type: 'article' | 'solution' }>;

/** Section paths that exist in both chromes, English path → the path in `lang`. */
function sectionPath(lang: Lang, path: string): string | undefined {
  if (path === '/' || path === '') return paths.langHome(lang);
  if (path === paths.blog) return lang === 'zh' ? paths.langBlog('zh') : paths.blog;
  if (path === paths.contact) return paths.langContact(lang);
  if (path === paths.search) return paths.langSearch(lang);
  if (path === paths.solutions) return paths.langSolutions(lang);
  if (path === paths.products) return paths.langProducts(lang);
  if (path === paths.developers) return paths.langDevelopers(lang);
  const product = /^\/products\/([^/]+)$/.exec(path);
  if (product) return paths.langProduct(lang, product[1]!);
  return undefined;
}

/** Where a link to `href` leads from a page in `lang`'s chrome, and the language to declare on it when that is not `lang`. */
export function localizeLink(lang: Lang, href: string, documents: DocumentLangs): { href: string; hreflang?: Lang } {
  if (!href.startsWith('/') || href.startsWith('//')) return { href };
  const match = /^([^?#]*)(.*)$/.exec(href)!;
  const path = match[1]!;
  const rest = match[2]!;
  // An English reader following a link to a Chinese section path gets the English one, and back.
  const english = path.replace(/^\/zh(?=\/|$)/, '') || '/';
  const section = sectionPath(lang, english);
  if (section !== undefined && (path === english || path.startsWith('/zh'))) return { href: section + rest };
  // The API reference is written in English only (its text comes from the OpenAPI description).
  if (lang === 'zh' && (path === paths.apiDocs || path.startsWith(`${paths.apiDocs}/`))) return { href, hreflang: 'en' };
  const doc = documents.get(path);
  if (!doc || doc.lang === lang) return { href };
  if (doc.type === 'solution') return { href: inChrome(lang, path, doc.lang) + rest };
  return { href, hreflang: doc.lang };
}

const ANCHOR = /<a\s[^>]*>/g;
const HREF = /\shref="([^"]*)"/;

/** Every `<a>` of rendered HTML through {@link localizeLink} (build-time HTML from our own renderer, not arbitrary markup). */
export function localizeLinks(html: string, lang: Lang, documents: DocumentLangs): string {
  return html.replace(ANCHOR, (tag) => {
    const href = HREF.exec(tag)?.[1];
    if (href === undefined) return tag;
    const local = localizeLink(lang, href.replaceAll('&amp;', '&'), documents);
    let out = tag.replace(HREF, ` href="${local.href.replaceAll('&', '&amp;')}"`);
    if (local.hreflang && !/\shreflang=/.test(out)) out = out.replace(/^<a/, `<a hreflang="${local.hreflang === 'zh' ? 'zh-CN' : 'en'}"`);
    return out;
  });
}

const documentLangsCache = new WeakMap<object, DocumentLangs>();

/** The language and type of every article and solution by path (one table per catalogue). */
export function documentLangsOf(catalog: {
  articles: readonly { path: string; lang: Lang }[];
  solutions: readonly { path: string; lang: Lang }[];
}): DocumentLangs {
  let table = documentLangsCache.get(catalog.articles);
  if (!table) {
    table = new Map<string, { lang: Lang; type: 'article' | 'solution' }>([
      ...catalog.articles.map((a): [string, { lang: Lang; type: 'article' }] => [a.path, { lang: a.lang, type: 'article' }]),
      ...catalog.solutions.map((s): [string, { lang: Lang; type: 'solution' }] => [s.path, { lang: s.lang, type: 'solution' }]),
    ]);
    documentLangsCache.set(catalog.articles, table);
  }
  return table;
}

/** {@link DocumentLangs} as a plain object: a page's props, which its cache key hashes as JSON (a Map would hash as `{}`). */
export type LinkedDocuments = Readonly<Record<string, { lang: Lang; type: 'article' | 'solution' }>>;

/** Every `/path` in text, with the scheme-relative host of an absolute URL (`//example.com/blog/x`) in it. */
const PATH_LIKE = /\/[^\s()<>"'[\]?#]*/g;

/**
 * The entries of `documents` whose paths `markdown` mentions (its links, root-relative or absolute):
 * what {@link localizeLinks} needs for this body, so a cached page is keyed on those documents only
 * and not on every document of the site (src/astro/page-cache.ts). A mention that is not a link
 * costs nothing but a key entry.
 */
export function linkedDocuments(markdown: string, documents: DocumentLangs): LinkedDocuments {
  const linked: Record<string, { lang: Lang; type: 'article' | 'solution' }> = {};
  for (const [token] of markdown.matchAll(PATH_LIKE)) {
    for (const candidate of [token, token.replace(/^\/\/[^/]*/, '')]) {
      const doc = documents.get(candidate);
      if (doc) linked[candidate] = doc;
    }
  }
  return linked;
}
