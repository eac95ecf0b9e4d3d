/**
 * The page registry: every HTML page of the site with its title, language, last change and
 * markdown twin. Sitemap, twins and llms.txt all read this list, so they cannot disagree.
 * @module
 */
import { apiDocsMarkdown, apiDocumentOf, apiOverviewTwin } from './openapi.ts';
import { operationDetailsMarkdown } from './reference/markdown.ts';
import { apiReference } from './reference/reference.ts';
import { developersHub, developersMarkdown, hubSearchText } from './developers.ts';
import { developersHubZh } from './developers-zh.ts';
import { glossaryMarkdown, hasGlossary } from './glossary.ts';
import { type Messages, messages, otherLang } from '../content/i18n.ts';
import { siteCopy } from '../content/site-copy.ts';
import { ARTICLES_PER_PAGE, absoluteUrl, inChrome, paths, tagSlug } from '../kernel/paths.ts';
import { type Article, type Catalog, type Document, documentsOf, type Lang, type Product } from '../content/catalog.ts';
import { inlinePlainText, markdownDocument, type MetaEntry, withFrontMatter } from '../content/markdown.ts';
import { agentInstructionsSection, withTwinClosing } from '../agent-tools/instructions.ts';
import {
  cardLine,
  categoryName,
  categoryTwin,
  docCardMeta,
  type DocCardMeta,
  documentTwin,
  productCallToAction,
  productTwin,
  twinUrl,
} from '../content/twins.ts';

export { cardLine, categoryName, docCardMeta, type DocCardMeta, twinUrl };

export type PageKind = 'home' | 'list' | 'article' | 'solution' | 'product' | 'static';

export interface SitePage {
  path: string;
  kind: PageKind;
  title: string;
  description: string;
  lang: Lang;
  /** YYYY-MM-DD of the newest content shown on the page. */
  lastmod: string;
  /** The complete markdown twin: front matter, index pointer, body, site map section, instructions for agents. */
  markdown: string;
  /** False for pages that exist but are not listed in the sitemap (the contact thank-you page). */
  listed?: boolean;
  /** Words beyond the title a search may name the page by (the developers hub's sections and tools). */
  searchText?: string;
}

/**
 * The first sentence of a CommonMark description as plain text (a page description), or the first
 * two when one says less than `minChars`: inline code, emphasis and link markup dropped, at most
 * {@link DESCRIPTION_MAX_CHARS} characters.
 */
function plainSentence(markdown: string, minChars = 0): string {
  const text = inlinePlainText(markdown).replace(/\s+/g, ' ').trim();
  const first = /^.*?[.!?](?=\s|$)/.exec(text)?.[0] ?? text;
  const sentence = first.length < minChars ? (/^.*?[.!?](?=\s|$).*?[.!?](?=\s|$)/.exec(text)?.[0] ?? text) : first;
  return sentence.length > DESCRIPTION_MAX_CHARS ? `${sentence.slice(0, DESCRIPTION_MAX_CHARS - 1).trimEnd()}…` : sentence;
}

/** Longest page description written from an OpenAPI description, in characters (what search result snippets show). */
const DESCRIPTION_MAX_CHARS = 160;

/**
 * What a document's card shows (DocCard.astro: listings, tag pages, the related list), for a reader
 * of the listing page's language: where the card links in that reader's chrome ({@link documentPathIn})
 * and that language, so a card of the other language shows its badge and `hreflang`. Cached pages key
 * on the cards they list (src/astro/page-cache.ts), so the card component reads only these fields.
 */
export type DocCard = Pick<
  Document,
  'type' | 'slug' | 'path' | 'title' | 'date' | 'lang' | 'category' | 'readingMinutes' | 'excerpt' | 'cover' | 'draft'
> & {
  /** The language of the page listing the card (the reader's chrome). */
  readerLang: Lang;
  /** Where the card links from that page: {@link documentPathIn}. */
  href: string;
};

/** The card of `doc` on a page in `readerLang`'s chrome (default: the document's own language). */
export function docCard(doc: Document, readerLang: Lang = doc.lang): DocCard {
  const { type, slug, path, title, date, lang, category, readingMinutes, excerpt, cover, draft } = doc;
  return {
    type,
    slug,
    path,
    title,
    date,
    lang,
    category,
    readingMinutes,
    excerpt,
    ...(cover ? { cover } : {}),
    ...(draft ? { draft } : {}),
    readerLang,
    href: documentPathIn(readerLang, doc),
  };
}

/** What the newer/older links of an article page show. */
export type DocLink = Pick<Document, 'path' | 'title'>;

/** Number of listing pages for `count` articles. */
export function pageCount(count: number): number {
  return Math.max(1, Math.ceil(count / ARTICLES_PER_PAGE));
}

/** The articles shown on listing page `page` (1-based). */
export function articlesOnPage(articles: readonly Article[], page: number): Article[] {
  return articles.slice((page - 1) * ARTICLES_PER_PAGE, page * ARTICLES_PER_PAGE);
}

/**
 * Each article (newest first) with its newer and older neighbours in its own language (a reader of
 * a Chinese article pages through Chinese articles), in one pass over the list.
 */
export function withNeighbours(articles: readonly Article[]): { doc: Article; newer?: Article | undefined; older?: Article | undefined }[] {
  const last = new Map<Lang, { doc: Article; newer?: Article | undefined; older?: Article | undefined }>();
  return articles.map((doc) => {
    const entry: { doc: Article; newer?: Article | undefined; older?: Article | undefined } = {
      doc,
      newer: last.get(doc.lang)?.doc,
      older: undefined,
    };
    const previous = last.get(doc.lang);
    if (previous) previous.older = doc;
    last.set(doc.lang, entry);
    return entry;
  });
}

/**
 * A listing for a reader of `lang`: the documents in their language first, then the others, each
 * group in its given order (newest first). The others carry a language badge and link (see
 * {@link documentPathIn}) into the reader's chrome where a page exists there.
 */
export function readerFirst<T extends { lang: Lang }>(docs: readonly T[], lang: Lang): T[] {
  return [...docs.filter((d) => d.lang === lang), ...docs.filter((d) => d.lang !== lang)];
}

/**
 * Where a reader of `lang` opens a document. A solution in the other language opens in the reader's
 * chrome (`/zh/solutions/<slug>`, saying the text is in English). An article opens at its own page in
 * its own language's chrome, and links to it say so (a language badge, `hreflang`): a page per
 * article in the other chrome would double a 10,000-article build (BENCHMARKS.md, "Build").
 */
export function documentPathIn(lang: Lang, doc: Pick<Document, 'type' | 'path' | 'lang'>): string {
  return doc.type === 'solution' ? inChrome(lang, doc.path, doc.lang) : doc.path;
}

const tagLangs = new WeakMap<object, Map<string, Lang>>();

/** A tag's listing page in the chrome of `lang` (its own page, or the other language's copy under `/<lang>`). */
export function tagPathIn(catalog: Pick<Catalog, 'articles' | 'solutions'>, tag: string, lang: Lang): string {
  let langs = tagLangs.get(catalog.articles);
  if (!langs) {
    langs = new Map(tagListings(catalog).map((listing) => [listing.slug, listing.lang]));
    tagLangs.set(catalog.articles, langs);
  }
  return inChrome(lang, paths.tag(tag), langs.get(tagSlug(tag)) ?? 'en');
}

/** The articles of one language, newest first. */
export function articlesIn(articles: readonly Article[], lang: Lang): Article[] {
  return articles.filter((a) => a.lang === lang);
}

/** A tag with the documents (articles and solutions) that carry it, newest first. */
export interface TagListing {
  tag: string;
  slug: string;
  path: string;
  docs: Document[];
  /** The language most of its documents are in (English on a tie): the language of its page. */
  lang: Lang;
}

/**
 * Every tag of the published documents. Tags that differ only in case or punctuation (`vLLM`,
 * `vllm`) share one page, named by the first spelling met.
 */
export function tagListings(catalog: Pick<Catalog, 'articles' | 'solutions'>): TagListing[] {
  return perCatalog(TAG_LISTINGS, catalog, listTags);
}

/**
 * `compute(catalog)`, once per catalogue (its document lists): the tag listings and their neighbours are asked for by the
 * page registry, both tag routes, the search page's addresses and every tag link
 * (docs/benchmarks-history.md, "Build, issue 25: cheaper per-build work").
 */
function perCatalog<T>(
  memo: WeakMap<object, { solutions: object; value: T }>,
  catalog: Pick<Catalog, 'articles' | 'solutions'>,
  compute: (c: typeof catalog) => T,
): T {
  const known = memo.get(catalog.articles);
  if (known?.solutions === catalog.solutions) return known.value;
  const value = compute(catalog);
  memo.set(catalog.articles, { solutions: catalog.solutions, value });
  return value;
}

const TAG_LISTINGS = new WeakMap<object, { solutions: object; value: TagListing[] }>();
const TAG_NEIGHBOURS = new WeakMap<object, { solutions: object; value: Map<string, TagNeighbours> }>();

function listTags(catalog: Pick<Catalog, 'articles' | 'solutions'>): TagListing[] {
  const bySlug = new Map<string, TagListing>();
  for (const doc of documentsOf(catalog)) {
    for (const tag of doc.tags) {
      const slug = tagSlug(tag);
      const listing = bySlug.get(slug) ?? { tag, slug, path: paths.tag(tag), docs: [], lang: 'en' as Lang };
      // A document lists two spellings of one tag at most once; its tags are visited together, so it can only be the last one added.
      if (listing.docs.at(-1) !== doc) listing.docs.push(doc);
      bySlug.set(slug, listing);
    }
  }
  for (const listing of bySlug.values()) {
    const zh = listing.docs.filter((d) => d.lang === 'zh').length;
    listing.lang = zh * 2 > listing.docs.length ? 'zh' : 'en';
  }
  return [...bySlug.values()].sort((a, b) => a.slug.localeCompare(b.slug));
}

/** Shortest page description, in characters (the a14y meta-description check; shorter ones say too little in a result snippet). */
const DESCRIPTION_MIN_CHARS = 50;

/**
 * A tag page's description: how many documents carry the tag and their titles (newest first, the
 * reader's language first), then the first one's excerpt while that is still under
 * {@link DESCRIPTION_MIN_CHARS}; at most {@link DESCRIPTION_MAX_CHARS}.
 */
export function tagDescription(listing: TagListing, lang: Lang, company: Pick<Catalog['company'], 'name' | 'name_zh'>): string {
  const docs = readerFirst(listing.docs, lang);
  const n = docs.length;
  const titles = docs.map((d) => d.title);
  let text =
    lang === 'zh'
      ? `${company.name_zh}带有“${listing.tag}”标签的 ${n} 篇文章与解决方案：${titles.join('；')}。`
      : `${n === 1 ? 'The one article or solution' : `The ${n} articles and solutions`} on ${company.name} tagged “${listing.tag}”: ${titles.join('; ')}.`;
  if (text.length < DESCRIPTION_MIN_CHARS && docs[0]) text = `${text} ${docs[0].excerpt}`;
  return text.length > DESCRIPTION_MAX_CHARS ? `${text.slice(0, DESCRIPTION_MAX_CHARS - 1).trimEnd()}…` : text;
}

/** Related tags a tag page lists at most. */
export const TAG_RELATED_TAGS = 12;
/** A tag page with fewer documents than this lists related ones below its own, up to this many cards in all. */
export const TAG_PAGE_MIN_CARDS = 4;

/** What a tag page shows besides its documents: the tags its documents also carry, and related reading when it lists few. */
export interface TagNeighbours {
  /** Other tags of the listing's documents, most shared first: the tag, its listing's path and how many of these documents carry it. */
  tags: { tag: string; path: string; lang: Lang; count: number }[];
  /** Documents related to the listing's (shared tags, then category), none of its own: only on a listing with few documents. */
  related: Document[];
}

/**
 * For each tag listing, its {@link TagNeighbours}, computed for the whole site at once: the related
 * documents come from one {@link relatedIndex}, the related tags from the listings' documents (a
 * document's tags are few, so this is linear in the site's tag assignments).
 */
export function tagNeighbours(catalog: Pick<Catalog, 'articles' | 'solutions'>): Map<string, TagNeighbours> {
  return perCatalog(TAG_NEIGHBOURS, catalog, findTagNeighbours);
}

function findTagNeighbours(catalog: Pick<Catalog, 'articles' | 'solutions'>): Map<string, TagNeighbours> {
  const listings = tagListings(catalog);
  const bySlug = new Map(listings.map((l) => [l.slug, l]));
  const related = relatedIndex(documentsOf(catalog));
  const result = new Map<string, TagNeighbours>();
  for (const listing of listings) {
    const counts = new Map<string, number>();
    for (const doc of listing.docs)
      for (const slug of new Set(doc.tags.map(tagSlug))) if (slug !== listing.slug) counts.set(slug, (counts.get(slug) ?? 0) + 1);
    const tags = [...counts]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, TAG_RELATED_TAGS)
      .map(([slug, count]) => {
        const other = bySlug.get(slug)!;
        return { tag: other.tag, path: other.path, lang: other.lang, count };
      });
    const own = new Set(listing.docs.map((d) => d.slug));
    const wanted = TAG_PAGE_MIN_CARDS - listing.docs.length;
    const reading: Document[] = [];
    if (wanted > 0)
      for (const doc of listing.docs) {
        for (const candidate of related(doc, TAG_PAGE_MIN_CARDS + listing.docs.length))
          if (!own.has(candidate.slug) && !reading.includes(candidate) && reading.length < wanted) reading.push(candidate);
        if (reading.length >= wanted) break;
      }
    result.set(listing.slug, { tags, related: reading });
  }
  return result;
}

/** Weights of the related-articles score: a shared tag says more than a shared category. */
const RELATED_WEIGHTS = { tag: 3, category: 2, language: 1 } as const;

/**
 * Finds, for any document, the `limit` candidates most related to it: shared tags, then the same
 * category, then the same language; newer first among equals, then the candidates' own order.
 * Documents sharing neither tag nor category are never listed, nor the document itself.
 *
 * Built once per candidate list: tag slugs are computed once, an inverted index maps each tag to
 * the candidates carrying it, and each (category, language) group is kept newest first, so a
 * lookup touches only the candidates sharing a tag plus the first few of its category. Scoring
 * every candidate for every page was O(n²): at 10,000 articles it was most of the build
 * (BENCHMARKS.md, "Build"). A site's tags are few next to its documents, so a tag's candidates
 * grow with the site: the lookup reads only typed arrays (candidate index, category, language,
 * rank), which stay in the processor's cache; reading the candidate objects instead took minutes
 * at 100,000 articles.
 */
export function relatedIndex<T extends Document>(candidates: readonly T[]): (doc: Document, limit?: number) => T[] {
  const count = candidates.length;
  /** Tag slug → the candidates carrying it, and how many of each one's tags have that slug (a candidate's duplicates count). */
  const lists = new Map<string, { index: number[]; times: number[] }>();
  candidates.forEach((candidate, index) => {
    const times = new Map<string, number>();
    for (const tag of candidate.tags) {
      const slug = tagSlug(tag);
      times.set(slug, (times.get(slug) ?? 0) + 1);
    }
    for (const [slug, n] of times) {
      const list = lists.get(slug) ?? { index: [], times: [] };
      list.index.push(index);
      list.times.push(n);
      lists.set(slug, list);
    }
  });
  const postings = new Map(
    [...lists].map(([slug, list]) => [slug, { index: Int32Array.from(list.index), times: Int32Array.from(list.times) }]),
  );
  /** Candidate order among equal scores (newer first, then the candidates' order) as a rank: lower ranks first. */
  const order = [...candidates.keys()].sort((a, b) => {
    const da = candidates[a]!.date;
    const db = candidates[b]!.date;
    return da !== db ? (da > db ? -1 : 1) : a - b;
  });
  const rank = new Int32Array(count);
  order.forEach((index, position) => {
    rank[index] = position;
  });
  const categoryIds = new Map<string, number>();
  const category = Int32Array.from(candidates, (c) => {
    if (!categoryIds.has(c.category)) categoryIds.set(c.category, categoryIds.size);
    return categoryIds.get(c.category)!;
  });
  const zh = Uint8Array.from(candidates, (c) => (c.lang === 'zh' ? 1 : 0));
  const bySlug = new Map(candidates.map((c, index) => [c.slug, index]));
  /** Category and language → candidate indexes, in rank order. */
  const groups = new Map<string, number[]>();
  for (const index of order) {
    const key = `${category[index]}:${zh[index]}`;
    const list = groups.get(key) ?? [];
    list.push(index);
    groups.set(key, list);
  }
  const shared = new Int32Array(count);
  const touched = new Int32Array(count);

  return (doc: Document, limit = 3): T[] => {
    const self = bySlug.get(doc.slug) ?? -1;
    const docCategory = categoryIds.get(doc.category) ?? -1;
    const docZh = doc.lang === 'zh' ? 1 : 0;
    const topIndex: number[] = [];
    const topScore: number[] = [];
    const offer = (index: number, score: number): void => {
      let at = topIndex.length;
      while (at > 0 && (topScore[at - 1]! < score || (topScore[at - 1] === score && rank[index]! < rank[topIndex[at - 1]!]!))) at--;
      if (at < limit) {
        topIndex.splice(at, 0, index);
        topScore.splice(at, 0, score);
        if (topIndex.length > limit) {
          topIndex.pop();
          topScore.pop();
        }
      }
    };
    // Phase 1: how many tags each candidate shares (a site's big tags make this the long part: keep it to typed arrays).
    let touchedCount = 0;
    for (const slug of new Set(doc.tags.map(tagSlug))) {
      const list = postings.get(slug);
      if (!list) continue;
      const { index: indexes, times } = list;
      for (let i = 0; i < indexes.length; i++) {
        const index = indexes[i]!;
        if (shared[index] === 0) touched[touchedCount++] = index;
        shared[index] = shared[index]! + times[i]!;
      }
    }
    // Phase 2: score only the candidates that can still place.
    const best = RELATED_WEIGHTS.category + RELATED_WEIGHTS.language;
    for (let i = 0; i < touchedCount; i++) {
      const index = touched[i]!;
      const tags = shared[index]! * RELATED_WEIGHTS.tag;
      if (index === self || (topIndex.length === limit && tags + best < topScore[limit - 1]!)) continue;
      offer(
        index,
        tags + (category[index] === docCategory ? RELATED_WEIGHTS.category : 0) + (zh[index] === docZh ? RELATED_WEIGHTS.language : 0),
      );
    }
    // The same category without a shared tag: the first `limit` of each language group are all that can place.
    for (const lang of [docZh, 1 - docZh]) {
      const score = RELATED_WEIGHTS.category + (lang === docZh ? RELATED_WEIGHTS.language : 0);
      let taken = 0;
      for (const index of groups.get(`${docCategory}:${lang}`) ?? []) {
        if (taken === limit) break;
        if (shared[index] !== 0 || index === self) continue;
        offer(index, score);
        taken++;
      }
    }
    for (let i = 0; i < touchedCount; i++) shared[touched[i]!] = 0;
    return topIndex.map((index) => candidates[index]!);
  };
}

/** The `limit` documents of `candidates` most related to `doc` ({@link relatedIndex}, for a single lookup). */
export function relatedDocuments<T extends Document>(doc: Document, candidates: readonly T[], limit = 3): T[] {
  return relatedIndex(candidates)(doc, limit);
}

function newest(dates: (string | undefined)[], fallback: string): string {
  return (
    dates
      .filter((d): d is string => Boolean(d))
      .sort()
      .at(-1) ?? fallback
  );
}

/**
 * Builds every page of the site from the catalogue, family by family (the sitemap keeps this order).
 * Each twin closes with the site map section and the instructions for agents (agent-instructions.ts),
 * each written once; the served twin also opens with front matter ({@link framedTwin}).
 */
export function sitePages(catalog: Catalog): SitePage[] {
  const today = newest(
    [...catalog.articles, ...catalog.solutions].flatMap((d) => [d.date, d.updated]),
    '2026-01-01',
  );
  const instructions = agentInstructionsSection(catalog);
  return [homePage, blogPages, categoryPages, articlePages, solutionPages, productPages, servicePages, glossaryPages]
    .flatMap((family) => family(catalog, today))
    .map((page) => ({ ...page, markdown: withTwinClosing(page.markdown, catalog.origin, instructions) }));
}

/**
 * The twin as served at `<page>.md` and by negotiation: YAML front matter (title, description,
 * `doc_version`, last_updated: the a14y markdown.frontmatter check), then the page's markdown.
 * `docVersion` names the revision of that markdown: the build passes 16 hex digits of its SHA-256
 * (src/astro/integrations/markdown-twins.ts), native hashing, since a JavaScript hash over the twins
 * of a large site cost several times more (measured in docs/agents.md, "Twins").
 */
export function framedTwin(page: Pick<SitePage, 'title' | 'description' | 'lastmod' | 'markdown'>, docVersion: string): string {
  return withFrontMatter(
    { title: page.title, description: page.description, doc_version: docVersion, last_updated: page.lastmod },
    page.markdown,
  );
}

/** Documents on the home page: the latest articles shown (the reader's language first). */
export const HOME_LATEST_ARTICLES = 6;

/** A section head's "all …" link text without its arrow (the arrow is the page's decoration). */
const linkText = (text: string): string => text.replace(/\s*→$/, '');

/**
 * The home page, in each language: the twin says what the page shows, in the same order and language (HomePage.astro):
 * the pitch, the two actions, the note, then each section with its "all" link and its cards.
 */
function homePage(catalog: Catalog, today: string): SitePage[] {
  const { origin, company, categories, articles, solutions, products } = catalog;
  return (['en', 'zh'] as const).map((lang) => {
    const zh = lang === 'zh';
    const t = messages(lang);
    const tagline = zh ? (company.tagline_zh ?? company.tagline) : company.tagline;
    const name = zh ? company.name_zh : company.name;
    const path = paths.langHome(lang);
    const blog = twinUrl(origin, zh ? paths.langBlog('zh') : paths.blog);
    const note = zh ? company.disclaimer_zh : company.disclaimer;
    return {
      path,
      kind: 'home' as const,
      title: `${name}${zh ? '：' : ': '}${tagline}`,
      description: zh ? company.description_zh : company.description,
      lang,
      lastmod: today,
      markdown: markdownDocument(
        origin,
        name,
        tagline,
        zh
          ? [
              ['URL', absoluteUrl(origin, path)],
              ['English', absoluteUrl(origin, paths.home)],
            ]
          : [['URL', absoluteUrl(origin, path)]],
        [
          zh ? (company.pitch_zh ?? company.description_zh) : (company.pitch ?? company.description),
          [`- [${t.talkToUs}](${twinUrl(origin, paths.langContact(lang))})`, `- [${t.readBlog}](${blog})`].join('\n'),
          note ?? '',
          `## ${t.latestArticles}`,
          `[${linkText(t.allArticlesLink)}](${blog})`,
          readerFirst(articles, lang)
            .slice(0, HOME_LATEST_ARTICLES)
            .map((a) => cardLine(origin, a, lang, categories))
            .join('\n'),
          `## ${t.products}`,
          `[${linkText(t.allProducts)}](${twinUrl(origin, paths.langProducts(lang))})`,
          products
            .map(
              (p) => `- [${p.name}](${twinUrl(origin, paths.langProduct(lang, p.slug))}): ${zh ? (p.summary_zh ?? p.summary) : p.summary}`,
            )
            .join('\n'),
          `## ${t.solutions}`,
          `[${linkText(t.allSolutions)}](${twinUrl(origin, paths.langSolutions(lang))})`,
          readerFirst(solutions, lang)
            .map((s) => cardLine(origin, s, lang, categories))
            .join('\n'),
        ]
          .filter(Boolean)
          .join('\n\n'),
      ),
    };
  });
}

/** A listing twin's links to its newer and older pages (`pathOf` names page n), or '' on a single page. */
function pageNav(origin: string, t: Messages, page: number, total: number, pathOf: (page: number) => string): string {
  return [
    page > 1 ? `- ${t.newerArticles}: ${twinUrl(origin, pathOf(page - 1))}` : null,
    page < total ? `- ${t.olderArticles}: ${twinUrl(origin, pathOf(page + 1))}` : null,
  ]
    .filter(Boolean)
    .join('\n');
}

/** One page of a blog listing: its articles date it; its twin is the heading, the lead, the links and the body. */
interface ListingPage {
  path: string;
  lang: Lang;
  title: string;
  /** The twin's heading, when it says more than the title. */
  heading?: string;
  description: string;
  lead: string;
  links: MetaEntry[];
  items: readonly Article[];
  body: string;
}

/** The page record of one page of a blog listing (the per-language listings, `/blog`, `/zh/blog/all`). */
function listingPage(origin: string, today: string, listing: ListingPage): SitePage {
  return {
    path: listing.path,
    kind: 'list',
    title: listing.title,
    description: listing.description,
    lang: listing.lang,
    lastmod: newest(
      listing.items.map((a) => a.updated ?? a.date),
      today,
    ),
    markdown: markdownDocument(origin, listing.heading ?? listing.title, listing.lead, listing.links, listing.body),
  };
}

/** The blog listing, one page per ARTICLES_PER_PAGE articles. */
function blogPages(catalog: Catalog, today: string): SitePage[] {
  const { origin, company, categories, articles } = catalog;
  const pages: SitePage[] = [];
  for (const lang of ['zh', 'en'] as const) {
    const t = messages(lang);
    const own = articlesIn(articles, lang);
    const total = pageCount(own.length);
    const lead = siteCopy(company, lang).blogLangLead;
    for (let page = 1; page <= total; page++) {
      const items = articlesOnPage(own, page);
      const path = paths.langBlog(lang, page);
      const nav = pageNav(origin, t, page, total, (n) => paths.langBlog(lang, n));
      pages.push(
        listingPage(origin, today, {
          path,
          lang,
          title: page === 1 ? t.blogLangTitle : `${t.blogLangTitle} · ${t.pageOf(page, total)}`,
          description: lead,
          lead,
          links: [
            ['URL', absoluteUrl(origin, path)],
            ['RSS', absoluteUrl(origin, paths.langRss(lang))],
          ],
          items,
          body: [items.length ? items.map((a) => cardLine(origin, a, lang, categories)).join('\n') : t.noArticles, nav]
            .filter(Boolean)
            .join('\n\n'),
        }),
      );
    }
  }

  // Each tag's page in the language most of its documents are in, and a copy in the other language's chrome.
  const neighbours = tagNeighbours(catalog);
  for (const listing of tagListings(catalog)) {
    const { tags, related } = neighbours.get(listing.slug)!;
    for (const lang of [listing.lang, otherLang(listing.lang)]) {
      const t = messages(lang);
      const path = inChrome(lang, listing.path, listing.lang);
      const sections = [
        tags.length
          ? `## ${t.relatedTags}\n\n${tags.map((r) => `- [${r.tag} (${r.count})](${twinUrl(origin, inChrome(lang, r.path, r.lang))})`).join('\n')}`
          : '',
        related.length
          ? `## ${t.relatedReading}\n\n${readerFirst(related, lang)
              .map((d) => cardLine(origin, d, lang, categories))
              .join('\n')}`
          : '',
      ];
      pages.push({
        path,
        kind: 'list',
        title: t.tagTitle(listing.tag),
        description: tagDescription(listing, lang, company),
        lang,
        lastmod: newest(
          listing.docs.map((d) => d.updated ?? d.date),
          today,
        ),
        markdown: markdownDocument(
          origin,
          t.tagTitle(listing.tag),
          t.tagLead(listing.docs.length),
          [['URL', absoluteUrl(origin, path)]],
          [
            readerFirst(listing.docs, lang)
              .map((d) => cardLine(origin, d, lang, categories))
              .join('\n'),
            ...sections,
          ]
            .filter(Boolean)
            .join('\n\n'),
        ),
      });
    }
  }

  // The listing of all languages sits in English chrome: English first (issue 28, item 4), then Chinese.
  const en = messages('en');
  const englishFirst = readerFirst(articles, 'en');
  const totalPages = pageCount(articles.length);
  for (let page = 1; page <= totalPages; page++) {
    const items = articlesOnPage(englishFirst, page);
    const path = paths.blogPage(page);
    const nav = [
      page > 1 ? `- Newer: [page ${page - 1}](${twinUrl(origin, paths.blogPage(page - 1))})` : null,
      page < totalPages ? `- Older: [page ${page + 1}](${twinUrl(origin, paths.blogPage(page + 1))})` : null,
    ]
      .filter(Boolean)
      .join('\n');
    pages.push(
      listingPage(origin, today, {
        path,
        lang: 'en',
        title: page === 1 ? 'Blog' : `Blog, page ${page}`,
        heading: page === 1 ? en.blogTitle : en.blogPageTitle(page, totalPages),
        description: siteCopy(company, 'en').blogAllDescription(page, totalPages),
        lead: siteCopy(company, 'en').blogLead,
        links: [['URL', absoluteUrl(origin, path)]],
        items,
        body: [
          items.map((a) => cardLine(origin, a, 'en', categories)).join('\n'),
          nav ? `## More pages\n\n${nav}` : '',
          '## Categories',
          categories.map((c) => `- [${c.name} (${c.name_zh})](${twinUrl(origin, paths.category(c.slug))}): ${c.description}`).join('\n'),
        ]
          .filter(Boolean)
          .join('\n\n'),
      }),
    );
  }

  // The same listing in Chinese chrome (docs/design/site-design.md, "Every section exists in both chromes"): Chinese first.
  const zh = messages('zh');
  const chineseFirst = readerFirst(articles, 'zh');
  for (let page = 1; page <= totalPages; page++) {
    const items = articlesOnPage(chineseFirst, page);
    const path = paths.blogAll('zh', page);
    const nav = pageNav(origin, zh, page, totalPages, (n) => paths.blogAll('zh', n));
    pages.push(
      listingPage(origin, today, {
        path,
        lang: 'zh',
        title: page === 1 ? zh.blogTitle : zh.blogPageTitle(page, totalPages),
        description: siteCopy(company, 'zh').blogAllDescription(page, totalPages),
        lead: siteCopy(company, 'zh').blogLead,
        links: [
          ['URL', absoluteUrl(origin, path)],
          ['English', absoluteUrl(origin, paths.blogAll('en', page))],
        ],
        items,
        body: [items.map((a) => cardLine(origin, a, 'zh', categories)).join('\n'), nav].filter(Boolean).join('\n\n'),
      }),
    );
  }
  return pages;
}

/** One listing per category. */
function categoryPages(catalog: Catalog, today: string): SitePage[] {
  const { origin, company, categories, articles } = catalog;
  const pages: SitePage[] = [];
  for (const category of categories) {
    const items = articles.filter((a) => a.category === category.slug);
    const path = paths.category(category.slug);
    const lastmod = newest(
      items.map((a) => a.updated ?? a.date),
      today,
    );
    pages.push({
      path,
      kind: 'list',
      title: `${category.name} (${category.name_zh})`,
      description:
        category.description.length < DESCRIPTION_MIN_CHARS
          ? `${company.name} blog, ${category.name}: ${category.description}`
          : category.description,
      lang: 'en',
      lastmod,
      markdown: categoryTwin(catalog, category),
    });
    // The same listing in Chinese chrome: Chinese articles first.
    const zhPath = inChrome('zh', path, 'en');
    // A Chinese description says much in few characters: one under the minimum names the blog and the category too.
    const ownZh = category.description_zh ?? category.description;
    const description = ownZh.length < DESCRIPTION_MIN_CHARS ? `${company.name_zh}博客「${category.name_zh}」分类：${ownZh}` : ownZh;
    // The twin leads with what the page's lead says (the description as written); the page description may say more.
    pages.push({
      path: zhPath,
      kind: 'list',
      title: category.name_zh,
      description,
      lang: 'zh',
      lastmod,
      markdown: markdownDocument(
        origin,
        category.name_zh,
        ownZh,
        [
          ['URL', absoluteUrl(origin, zhPath)],
          ['English', absoluteUrl(origin, path)],
        ],
        items.length
          ? readerFirst(items, 'zh')
              .map((a) => cardLine(origin, a, 'zh', categories))
              .join('\n')
          : messages('zh').noArticles,
      ),
    });
  }
  return pages;
}

/** The published document a document's `translation` names (the page's language switch and its twin's metadata name it). */
function translationsOf(catalog: Pick<Catalog, 'articles' | 'solutions'>): (doc: Document) => Document | undefined {
  const bySlug = new Map(documentsOf(catalog).map((d) => [d.slug, d]));
  return (doc) => (doc.translation ? bySlug.get(doc.translation) : undefined);
}

/** One page per article. */
function articlePages(catalog: Catalog): SitePage[] {
  const { articles } = catalog;
  const translationOf = translationsOf(catalog);
  const pages: SitePage[] = [];
  for (const article of articles) {
    pages.push({
      path: article.path,
      kind: 'article',
      title: article.title,
      description: article.excerpt,
      lang: article.lang,
      lastmod: article.updated ?? article.date,
      markdown: documentTwin(catalog, article, translationOf(article)),
    });
  }
  return pages;
}

/** The solutions listing and one page per solution. */
function solutionPages(catalog: Catalog, today: string): SitePage[] {
  const { origin, company, categories, solutions } = catalog;
  const pages: SitePage[] = [];
  pages.push({
    path: paths.solutions,
    kind: 'list',
    title: 'Solutions',
    description: siteCopy(company, 'en').solutionsDescription,
    lang: 'en',
    lastmod: newest(
      solutions.map((s) => s.updated ?? s.date),
      today,
    ),
    markdown: markdownDocument(
      origin,
      'Solutions',
      siteCopy(company, 'en').solutionsLead,
      [['URL', absoluteUrl(origin, paths.solutions)]],
      readerFirst(solutions, 'en')
        .map((s) => cardLine(origin, s, 'en', categories))
        .join('\n'),
    ),
  });
  const zh = messages('zh');
  pages.push({
    path: paths.langSolutions('zh'),
    kind: 'list',
    title: zh.solutions,
    description: siteCopy(company, 'zh').solutionsLead,
    lang: 'zh',
    lastmod: newest(
      solutions.map((s) => s.updated ?? s.date),
      today,
    ),
    markdown: markdownDocument(
      origin,
      zh.solutions,
      siteCopy(company, 'zh').solutionsLead,
      [
        ['URL', absoluteUrl(origin, paths.langSolutions('zh'))],
        ['English', absoluteUrl(origin, paths.solutions)],
      ],
      readerFirst(solutions, 'zh')
        .map((s) => cardLine(origin, s, 'zh', categories))
        .join('\n'),
    ),
  });
  const translationOf = translationsOf(catalog);
  for (const solution of solutions) {
    const page = {
      kind: 'solution' as const,
      title: solution.title,
      description: solution.excerpt,
      lastmod: solution.updated ?? solution.date,
      markdown: documentTwin(catalog, solution, translationOf(solution)),
    };
    pages.push({ ...page, path: solution.path, lang: solution.lang });
    // The same solution in the other language's chrome (its canonical URL stays the one above).
    const other = otherLang(solution.lang);
    pages.push({ ...page, path: inChrome(other, solution.path, solution.lang), lang: other, listed: false });
  }
  return pages;
}

/** Features a product's card on the products listing shows (ProductsPage.astro). */
export const PRODUCT_CARD_FEATURES = 3;

/**
 * A product's card on the products listing in `lang`, as its twin has it: the name linking the product's twin in that
 * language's chrome, the summary, then the first {@link PRODUCT_CARD_FEATURES} features (in that language where written).
 */
function productCard(origin: string, product: Product, lang: Lang): string {
  const zh = lang === 'zh';
  const features = (zh ? (product.features_zh ?? product.features) : product.features).slice(0, PRODUCT_CARD_FEATURES);
  return [
    `- [${product.name}](${twinUrl(origin, paths.langProduct(lang, product.slug))}): ${zh ? (product.summary_zh ?? product.summary) : product.summary}`,
    ...features.map((f) => `  - ${f}`),
  ].join('\n');
}

/** The products listing and one page per product. */
function productPages(catalog: Catalog, today: string): SitePage[] {
  const { origin, company, products } = catalog;
  const pages: SitePage[] = [];
  pages.push({
    path: paths.products,
    kind: 'list',
    title: 'Products',
    description: siteCopy(company, 'en').productsDescription(products.map((p) => p.name)),
    lang: 'en',
    lastmod: today,
    markdown: markdownDocument(
      origin,
      'Products',
      company.tagline,
      [['URL', absoluteUrl(origin, paths.products)]],
      products.map((p) => productCard(origin, p, 'en')).join('\n'),
    ),
  });
  for (const product of products) {
    pages.push({
      path: product.path,
      kind: 'product',
      title: product.name,
      description: product.summary,
      lang: 'en',
      lastmod: today,
      markdown: productTwin(origin, product),
    });
  }

  const zh = messages('zh');
  pages.push({
    path: paths.langProducts('zh'),
    kind: 'list',
    title: zh.products,
    description: siteCopy(company, 'zh').productsDescription(products.map((p) => p.name)),
    lang: 'zh',
    lastmod: today,
    markdown: markdownDocument(
      origin,
      zh.products,
      company.tagline_zh ?? company.tagline,
      [
        ['URL', absoluteUrl(origin, paths.langProducts('zh'))],
        ['English', absoluteUrl(origin, paths.products)],
      ],
      products.map((p) => productCard(origin, p, 'zh')).join('\n'),
    ),
  });
  for (const product of products) {
    const path = paths.langProduct('zh', product.slug);
    const features = product.features_zh ?? product.features;
    pages.push({
      path,
      kind: 'product',
      title: product.name,
      description: `${product.name}：${product.summary_zh ?? product.summary}`,
      lang: 'zh',
      lastmod: today,
      markdown: markdownDocument(
        origin,
        product.name,
        product.summary_zh ?? product.summary,
        [
          ['URL', absoluteUrl(origin, path)],
          ['English', absoluteUrl(origin, product.path)],
        ],
        [
          productCallToAction(origin, product, 'zh'),
          `## ${zh.features}\n\n${features.map((f) => `- ${f}`).join('\n')}`,
          `> ${zh.productDetailsInEnglish}`,
          product.markdown,
        ].join('\n\n'),
      ),
    });
  }
  return pages;
}

/** The search page's "browse by topic" list, as its twin has it: each category, linked in the page's chrome, with its description. */
function searchTopics(catalog: Catalog, lang: Lang): string {
  const lines = catalog.categories.map((c) =>
    lang === 'zh'
      ? `- [${c.name_zh}](${twinUrl(catalog.origin, inChrome('zh', paths.category(c.slug), 'en'))}): ${c.description_zh}`
      : `- [${c.name}](${twinUrl(catalog.origin, paths.category(c.slug))}): ${c.description}`,
  );
  return `## ${lang === 'zh' ? '按主题浏览' : 'Browse by topic'}\n\n${lines.join('\n')}`;
}

/**
 * The contact page in one language, its twin in the page's words and order (ContactPage.astro): the lead, the
 * enquiry form (its fields, the limit, how an agent sends it), then each channel with its label and value in the
 * page's language; the channel that is this site's form links the form on this page, as the page does.
 */
function contactPage(catalog: Catalog, lang: Lang, today: string): SitePage {
  const { origin, company, products } = catalog;
  const zh = lang === 'zh';
  const t = messages(lang);
  const copy = siteCopy(company, lang);
  const name = zh ? company.name_zh : company.name;
  const path = paths.langContact(lang);
  const form = `${absoluteUrl(origin, path)}#enquiry`;
  const ownForm = absoluteUrl(origin, paths.contact);
  const optional = (label: string): string => `${label}${zh ? '' : ' '}${t.optional}`;
  const api = `\`POST ${absoluteUrl(origin, paths.apiContact)}\``;
  const reference = twinUrl(origin, paths.apiOperation('send-enquiry'));
  const channels = company.contact.map((c) => {
    const label = zh ? (c.label_zh ?? c.label) : c.label;
    const value = zh ? (c.value_zh ?? c.value) : c.value;
    const url = c.url === ownForm ? form : c.url;
    return `- ${label}: ${url ? `[${value}](${url})` : value}`;
  });
  return {
    path,
    kind: 'static',
    title: t.contactTitle(name),
    description: copy.contactDescription,
    lang,
    lastmod: today,
    markdown: markdownDocument(
      origin,
      t.contactTitle(name),
      copy.contactLead,
      zh
        ? [
            ['URL', absoluteUrl(origin, path)],
            ['English', absoluteUrl(origin, paths.contact)],
          ]
        : [['URL', absoluteUrl(origin, path)]],
      [
        `## ${t.sendEnquiry}`,
        [
          `- ${t.fieldName}`,
          `- ${t.fieldEmail}`,
          `- ${optional(t.fieldCompany)}`,
          `- ${optional(t.fieldProduct)}${zh ? '：' : ': '}${[t.productNone, ...products.map((p) => p.name)].join(zh ? '、' : ', ')}`,
          `- ${optional(t.fieldMessage)}`,
        ].join('\n'),
        t.limitNote,
        zh
          ? `智能体可直接提交同一表单（JSON 或表单编码）：${api}，见 [API 参考](${reference})。`
          : `Agents send the same enquiry as JSON or form data: ${api} (see the [API reference](${reference})).`,
        `## ${t.channels}`,
        channels.join('\n'),
      ].join('\n\n'),
    ),
  };
}

/** Search, contact, API reference, developers hub and the contact thank-you page. */
function servicePages(catalog: Catalog, today: string): SitePage[] {
  const { origin, company } = catalog;
  const pages: SitePage[] = [];
  const zh = messages('zh');
  pages.push({
    path: paths.search,
    kind: 'static',
    title: 'Search',
    description: siteCopy(company, 'en').searchDescription,
    lang: 'en',
    lastmod: today,
    markdown: markdownDocument(
      origin,
      'Search',
      `Search ${company.name} articles and solutions in Chinese or English.`,
      [['URL', absoluteUrl(origin, paths.search)]],
      [
        `The search page asks the search API as you type; \`${paths.search}?q=<text>\` opens it with a query.`,
        `Agents search the same index directly: \`GET ${absoluteUrl(origin, paths.apiSearch)}?q=<text>\` returns JSON results, best first (see the [API reference](${twinUrl(origin, paths.apiDocs)})), or the MCP tool \`search_articles\` at ${absoluteUrl(origin, paths.mcp)}.`,
        `To read everything: [llms-full.txt](${absoluteUrl(origin, paths.llmsFull)}); to list it: [llms.txt](${absoluteUrl(origin, paths.llms)}).`,
        searchTopics(catalog, 'en'),
      ].join('\n\n'),
    ),
  });

  pages.push({
    path: paths.langSearch('zh'),
    kind: 'static',
    title: '搜索',
    description: siteCopy(company, 'zh').searchDescription,
    lang: 'zh',
    lastmod: today,
    markdown: markdownDocument(
      origin,
      '搜索',
      `搜索${company.name_zh}的文章与解决方案，中英文均可。`,
      [
        ['URL', absoluteUrl(origin, paths.langSearch('zh'))],
        ['English', absoluteUrl(origin, paths.search)],
      ],
      [
        `搜索页在输入时调用搜索 API；\`${paths.langSearch('zh')}?q=<关键词>\` 打开时即带上查询。`,
        `智能体可直接查询同一索引：\`GET ${absoluteUrl(origin, paths.apiSearch)}?q=<关键词>\` 返回按相关度排序的 JSON 结果（见 [API 参考](${twinUrl(origin, paths.apiDocs)})），或使用 ${absoluteUrl(origin, paths.mcp)} 上的 MCP 工具 \`search_articles\`。`,
        `全文阅读：[llms-full.txt](${absoluteUrl(origin, paths.llmsFull)})；目录：[llms.txt](${absoluteUrl(origin, paths.llms)})。`,
        searchTopics(catalog, 'zh'),
      ].join('\n\n'),
    ),
  });

  for (const lang of ['en', 'zh'] as const) pages.push(contactPage(catalog, lang, today));

  const openApi = apiDocumentOf(catalog);
  // The overview's twin says what the overview shows; the whole reference in one request is the one-page reference's twin.
  pages.push({
    path: paths.apiDocs,
    kind: 'static',
    title: 'API reference',
    description: `The ${company.name} HTTP API: search, feed, contact, health, the MCP server and OAuth; OpenAPI 3.1 at /openapi.json.`,
    lang: 'en',
    lastmod: today,
    markdown: apiOverviewTwin(origin, openApi),
  });
  const reference = apiReference(openApi);
  for (const group of reference.groups) {
    for (const op of group.operations) {
      const path = paths.apiOperation(op.slug);
      pages.push({
        path,
        kind: 'static',
        title: `${op.summary} · API reference`,
        description: `${op.method} ${op.path}: ${plainSentence(op.description, DESCRIPTION_MIN_CHARS)}`,
        lang: 'en',
        lastmod: today,
        markdown: markdownDocument(
          origin,
          op.summary,
          `${op.method} ${op.path}`,
          [
            ['URL', absoluteUrl(origin, path)],
            ['Group', group.name],
            ['OpenAPI', `${absoluteUrl(origin, paths.openApi)} (operationId \`${op.id}\`)`],
            ['Whole reference', twinUrl(origin, paths.apiAll)],
          ],
          operationDetailsMarkdown(op, '##', { tryIt: true }).join('\n'),
        ),
      });
    }
  }
  pages.push({
    path: paths.apiAll,
    kind: 'static',
    title: 'API reference on one page',
    description: `Every operation of the ${company.name} HTTP API on one page, for reading end to end and finding in the page.`,
    lang: 'en',
    lastmod: today,
    markdown: apiDocsMarkdown(origin, openApi, paths.apiAll),
  });

  const hub = developersHub(origin, company.name, siteCopy(company, 'en').feedName);
  pages.push({
    path: paths.developers,
    kind: 'static',
    title: hub.title,
    description: hub.summary,
    lang: 'en',
    lastmod: today,
    markdown: developersMarkdown(origin, hub),
    searchText: hubSearchText(hub),
  });

  const hubZh = developersHubZh(hub, company.name_zh, siteCopy(company, 'zh').feedName);
  pages.push({
    path: paths.langDevelopers('zh'),
    kind: 'static',
    title: hubZh.title,
    description: hubZh.summary,
    lang: 'zh',
    lastmod: today,
    markdown: developersMarkdown(origin, hubZh, paths.langDevelopers('zh'), zh.developersInEnglish),
    searchText: hubSearchText(hubZh),
  });

  // The thank-you page after an enquiry, in each language: its lead and its two links (ThanksPage.astro).
  for (const lang of ['en', 'zh'] as const) {
    const t = messages(lang);
    const path = paths.langContactThanks(lang);
    const lead = t.thanksLead(lang === 'zh' ? company.name_zh : company.name);
    pages.push({
      path,
      kind: 'static',
      title: t.thanksTitle,
      description: lang === 'zh' ? lead : `Your enquiry reached ${company.name}.`,
      lang,
      lastmod: today,
      listed: false,
      markdown: markdownDocument(
        origin,
        t.thanksTitle,
        lead,
        [['URL', absoluteUrl(origin, path)]],
        [
          `- [${t.readBlog}](${twinUrl(origin, lang === 'zh' ? paths.langBlog('zh') : paths.blog)})`,
          `- [${t.home}](${twinUrl(origin, paths.langHome(lang))})`,
        ].join('\n'),
      ),
    });
  }

  return pages;
}

/** The page description of the glossary in one language (at least 50 characters: the a14y meta-description check). */
export function glossaryDescription(lang: Lang, company: Catalog['company']): string {
  return siteCopy(company, lang).glossaryDescription;
}

/** The glossary, in each language (content/glossary.yaml); none when the site has no glossary. */
function glossaryPages(catalog: Catalog, today: string): SitePage[] {
  const { origin, company, glossary } = catalog;
  if (!glossary || !hasGlossary(glossary)) return [];
  return (['en', 'zh'] as const).map((lang) => {
    const path = paths.langGlossary(lang);
    const title = messages(lang).glossaryTitle;
    const description = glossaryDescription(lang, company);
    const other = paths.langGlossary(otherLang(lang));
    return {
      path,
      kind: 'static' as const,
      title,
      description,
      lang,
      lastmod: today,
      markdown: markdownDocument(
        origin,
        title,
        description,
        [
          ['URL', absoluteUrl(origin, path)],
          [lang === 'zh' ? 'English' : '中文', absoluteUrl(origin, other)],
        ],
        glossaryMarkdown(glossary, lang),
      ),
    };
  });
}
