/**
 * The markdown twins of single pages (an article or solution, a product, a category listing):
 * shared by the page registry (pages.ts) and MCP `resources/read`, and kept apart from the registry
 * so the MCP function does not bundle every page builder (and the OpenAPI document) with them.
 * @module
 */
import { absoluteUrl, paths, twinPathOf } from '../kernel/paths.ts';
import type { Article, Catalog, CatalogIndex, Category, DocumentMeta, Lang, Product, Solution } from './catalog.ts';
import { LANG_NAMES } from './i18n.ts';
import { markdownDocument, type MetaEntry } from './markdown.ts';

/** A category's display name in `lang`, or the slug when the category is unknown. */
export function categoryName(categories: readonly Category[], slug: string, lang: Lang = 'en'): string {
  const category = categories.find((c) => c.slug === slug);
  if (!category) return slug;
  return lang === 'zh' ? category.name_zh : category.name;
}

/** Twin URL of a page path, absolute. */
export function twinUrl(origin: string, path: string): string {
  return absoluteUrl(origin, twinPathOf(path) ?? path);
}

/** A listing line for an article or solution: title linked to its twin, date, category, language, excerpt. */
export function docLine(origin: string, doc: DocumentMeta, categories: readonly Category[]): string {
  return `- [${doc.title}](${twinUrl(origin, doc.path)}) (${doc.date}, ${categoryName(categories, doc.category, doc.lang)}, ${doc.lang}): ${doc.excerpt}`;
}

/** A listing line for a product: name linked to its twin, and its summary. */
export function productLine(origin: string, product: Product): string {
  return `- [${product.name}](${twinUrl(origin, product.path)}): ${product.summary}`;
}

/** The same text in the other language (front matter `translation`), as a twin's metadata names it. */
export type TwinTranslation = Pick<DocumentMeta, 'path' | 'title' | 'lang'>;

function documentMeta(
  origin: string,
  doc: Article | Solution,
  categories: readonly Category[],
  translation?: TwinTranslation,
): MetaEntry[] {
  return [
    ['URL', absoluteUrl(origin, doc.path)],
    ['Type', doc.type === 'article' ? 'Article' : 'Solution'],
    ['Language', doc.lang],
    // The page's language switch reads this translation; the twin names it as a product's Chinese twin names its English page.
    ...(translation
      ? ([[LANG_NAMES[translation.lang], `[${translation.title}](${twinUrl(origin, translation.path)})`]] as MetaEntry[])
      : []),
    ['Category', categoryName(categories, doc.category, doc.lang)],
    ...(doc.type === 'solution' ? ([['Industry', doc.industry]] as MetaEntry[]) : []),
    ['Published', doc.date],
    ['Updated', doc.updated],
    ['Author', doc.type === 'article' ? doc.author : undefined],
    ['Tags', doc.tags.join(', ')],
    ['Reading time', `${doc.readingMinutes} min`],
  ];
}

/**
 * The markdown twin of one article or solution (its page's `.md`; also what MCP `resources/read` returns);
 * `translation` is the published document `doc.translation` names, when there is one.
 */
export function documentTwin(
  catalog: Pick<Catalog, 'origin' | 'categories' | 'products'>,
  doc: Article | Solution,
  translation?: TwinTranslation,
): string {
  const { origin, categories, products } = catalog;
  const meta = documentMeta(origin, doc, categories, translation);
  if (doc.type === 'article') return markdownDocument(origin, doc.title, doc.excerpt, meta, doc.markdown);
  const related = doc.products.map((slug) => products.find((p) => p.slug === slug)).filter((p): p is Product => Boolean(p));
  return markdownDocument(
    origin,
    doc.title,
    doc.excerpt,
    meta,
    [doc.markdown, related.length ? `## Products used\n\n${related.map((p) => productLine(origin, p)).join('\n')}` : '']
      .filter(Boolean)
      .join('\n\n'),
  );
}

/** The markdown twin of one category's listing page (its articles, newest first). */
export function categoryTwin(catalog: Pick<CatalogIndex, 'origin' | 'categories' | 'articles'>, category: Category): string {
  const { origin, categories, articles } = catalog;
  const items = articles.filter((a) => a.category === category.slug);
  return markdownDocument(
    origin,
    `${category.name} (${category.name_zh})`,
    category.description,
    [
      ['URL', absoluteUrl(origin, paths.category(category.slug))],
      ['Articles', items.length],
    ],
    items.length ? items.map((a) => docLine(origin, a, categories)).join('\n') : 'No articles in this category yet.',
  );
}

/** The markdown twin of one product page. */
export function productTwin(origin: string, product: Product): string {
  return markdownDocument(
    origin,
    product.name,
    product.summary,
    [
      ['URL', absoluteUrl(origin, product.path)],
      ['Product link', product.url],
    ],
    [`## Features\n\n${product.features.map((f) => `- ${f}`).join('\n')}`, product.markdown].join('\n\n'),
  );
}
