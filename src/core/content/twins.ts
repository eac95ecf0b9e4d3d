/**
 * The markdown twins of single pages (an article or solution, a product, a category listing):
 * shared by the page registry (pages.ts) and MCP `resources/read`, and kept apart from the registry
 * so the MCP function does not bundle every page builder (and the OpenAPI document) with them.
 * @module
 */
import { absoluteUrl, paths, twinPathOf } from '../kernel/paths.ts';
import type { Article, Catalog, CatalogIndex, Category, DocumentMeta, Lang, Product, Solution } from './catalog.ts';
import { formatDate, LANG_NAMES, messages } from './i18n.ts';
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

/** What a card says about its document besides the title and excerpt: the listing page's words, not the document's. */
export interface DocCardMeta {
  /** The document's language by its own name ("English", "中文"), only on a card of the other language. */
  language?: string;
  /** The draft badge's text, only on a draft. */
  draft?: string;
  /** The date, formatted for the page's language. */
  date: string;
  /** The category's name in the page's language. */
  category: string;
  /** The reading time, in the page's language. */
  readingTime: string;
}

/**
 * The meta line of `card` (DocCard.astro) in the language of the page that lists it: the chrome is the page's,
 * so a zh listing dates and names the category of an English article in Chinese; its title and excerpt stay English.
 */
export function docCardMeta(
  card: Pick<DocumentMeta, 'lang' | 'draft' | 'date' | 'category' | 'readingMinutes'> & { readerLang: Lang },
  categories: readonly Category[],
): DocCardMeta {
  const t = messages(card.readerLang);
  return {
    ...(card.lang !== card.readerLang ? { language: LANG_NAMES[card.lang] } : {}),
    ...(card.draft ? { draft: t.draft } : {}),
    date: formatDate(card.date, card.readerLang),
    category: categoryName(categories, card.category, card.readerLang),
    readingTime: t.minutes(card.readingMinutes),
  };
}

/**
 * A document's line on a listing's twin (home, listings, tag and category pages), with the words its card shows
 * (DocCard.astro, {@link docCardMeta}): the language badge of a document in the other language, the date, the category
 * and the reading time, in the page's language. A twin carries what its page shows (AFDocs markdown-content-parity).
 */
export function cardLine(origin: string, doc: DocumentMeta, readerLang: Lang, categories: readonly Category[]): string {
  // A document is a line on every tag page of its tags, in both chromes, and on the home and category twins: each line
  // is written once per build (docs/benchmarks-history.md, "Build, issue 25: cheaper per-build work").
  // Keyed by the document object, so a new catalogue starts afresh.
  let lines = CARD_LINES.get(doc);
  if (lines?.origin !== origin || lines.categories !== categories) {
    lines = { origin, categories };
    CARD_LINES.set(doc, lines);
  }
  lines[readerLang] ??= writeCardLine(origin, doc, readerLang, categories);
  return lines[readerLang];
}

/** Each document's card lines so far, by reader language, for one origin and list of categories. */
const CARD_LINES = new WeakMap<DocumentMeta, { origin: string; categories: readonly Category[] } & { [lang in Lang]?: string }>();

function writeCardLine(origin: string, doc: DocumentMeta, readerLang: Lang, categories: readonly Category[]): string {
  // Drafts are never published, so the line has no draft badge.
  const { language, date, category, readingTime } = docCardMeta({ ...doc, readerLang, draft: false }, categories);
  const meta = [language, date, category, readingTime].filter(Boolean);
  return `- [${doc.title}](${twinUrl(origin, doc.path)}) (${meta.join(' · ')}): ${doc.excerpt}`;
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

/**
 * The markdown twin of one category's listing page, as the page shows it: the description in English and in Chinese,
 * then each article's card (English first, each group newest first), in the English page's words.
 */
export function categoryTwin(catalog: Pick<CatalogIndex, 'origin' | 'categories' | 'articles'>, category: Category): string {
  const { origin, categories, articles } = catalog;
  const items = articles.filter((a) => a.category === category.slug);
  const englishFirst = [...items.filter((a) => a.lang === 'en'), ...items.filter((a) => a.lang !== 'en')];
  return markdownDocument(
    origin,
    `${category.name} (${category.name_zh})`,
    category.description,
    [
      ['URL', absoluteUrl(origin, paths.category(category.slug))],
      ['Articles', items.length],
    ],
    [
      category.description_zh ?? '',
      items.length ? englishFirst.map((a) => cardLine(origin, a, 'en', categories)).join('\n') : messages('en').noArticles,
    ]
      .filter(Boolean)
      .join('\n\n'),
  );
}

/**
 * A product page's call to action in `lang` (ProductPage.astro): the contact form with the product chosen, and what
 * happens next.
 */
export function productCallToAction(origin: string, product: Pick<Product, 'name' | 'slug'>, lang: Lang): string {
  const t = messages(lang);
  const form = absoluteUrl(origin, `${paths.langContact(lang)}?product=${encodeURIComponent(product.slug)}`);
  return `[${t.askAbout(product.name)}](${form}): ${t.productCtaLead}`;
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
    [
      productCallToAction(origin, product, 'en'),
      `## Features\n\n${product.features.map((f) => `- ${f}`).join('\n')}`,
      product.markdown,
    ].join('\n\n'),
  );
}
