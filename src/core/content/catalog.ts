/**
 * The content catalogue: the one data shape built from content/ at build time and read by pages,
 * twins, feeds, the search index, the MCP tools and the discovery documents.
 * @module
 */

export type Lang = 'zh' | 'en';

/** A category of articles and solutions. */
export interface Category {
  slug: string;
  name: string;
  name_zh: string;
  description: string;
  description_zh?: string | undefined;
}

/** Fields shared by blog articles and solutions (both are searchable documents). */
export interface Document {
  type: 'article' | 'solution';
  slug: string;
  title: string;
  category: string;
  date: string;
  updated?: string | undefined;
  excerpt: string;
  lang: Lang;
  tags: string[];
  /** Site-relative path of the HTML page, e.g. `/blog/some-slug`. */
  path: string;
  /** Clean GFM body (no MDX, absolute links). */
  markdown: string;
  readingMinutes: number;
  /** Slug of the same text in the other language, when there is one (front matter `translation`). */
  translation?: string | undefined;
  /** Only `npm run dev` (SHOW_DRAFTS=1) builds drafts; production never has this set. */
  draft?: boolean | undefined;
  /** Optional cover image: the built asset's site path and its text alternative. */
  cover?: { src: string; alt: string; width: number; height: number } | undefined;
}

export interface Article extends Document {
  type: 'article';
  author?: string | undefined;
}

export interface Solution extends Document {
  type: 'solution';
  industry: string;
  products: string[];
}

export interface Product {
  slug: string;
  name: string;
  summary: string;
  summary_zh?: string | undefined;
  /** Absolute URL of the product's canonical link. */
  url: string;
  features: string[];
  /** The features in Chinese, in the same order. */
  features_zh?: string[] | undefined;
  /**
   * A picture or diagram of the product: the built asset's site path, its size and text alternatives; `zh`, the
   * same picture with Chinese labels. Pages read it through {@link productImageIn}.
   */
  image?: ProductImage | undefined;
  order: number;
  path: string;
  markdown: string;
}

export interface ContactChannel {
  kind: 'email' | 'phone' | 'address' | 'web' | 'wechat' | 'social';
  label: string;
  /** The label on Chinese pages. */
  label_zh?: string | undefined;
  value: string;
  /** The value on Chinese pages, where it differs (an address written the Chinese way). */
  value_zh?: string | undefined;
  /** Absolute (a link on this site is made absolute by the catalogue). */
  url?: string | undefined;
}

export interface Company {
  name: string;
  name_zh: string;
  legal_name: string;
  tagline: string;
  tagline_zh?: string | undefined;
  /** What the company does, in a sentence or two (the home page's lead). */
  pitch?: string | undefined;
  pitch_zh?: string | undefined;
  /** A short notice under the home page's hero (a placeholder brand says so). */
  disclaimer?: string | undefined;
  disclaimer_zh?: string | undefined;
  description: string;
  description_zh: string;
  founded: number;
  headquarters: string;
  headquarters_zh?: string | undefined;
  operator_attribution: string;
  operator_attribution_zh?: string | undefined;
  contact: ContactChannel[];
  key_resources: { title: string; url: string; description: string }[];
  /** What the site writes about, in the words of its pages (company.yaml `copy`); site-copy.ts has the defaults. */
  copy?: CompanyCopy | undefined;
}

/**
 * The sentences that name the site's subject matter (its field, its topics, its feed), each optional: one left out
 * gets a neutral sentence (site-copy.ts), so a fork says nothing about topics it never wrote about.
 */
export interface CompanyCopy {
  /** The lead of the listing of both languages (`/blog`, `/zh/blog/all`). */
  blog_lead?: string | undefined;
  blog_lead_zh?: string | undefined;
  /** The lead of the listing of one language (`/en/blog`, `/zh/blog`). */
  blog_lang_lead?: string | undefined;
  blog_lang_lead_zh?: string | undefined;
  /** The description of a page of `/blog` (the page number is added). */
  blog_all_description?: string | undefined;
  /** The description of the search page. */
  search_description?: string | undefined;
  search_description_zh?: string | undefined;
  /** Queries shown in every search box ("e.g. …" is added). */
  search_example?: string | undefined;
  search_example_zh?: string | undefined;
  /** The contact page's lead and description. */
  contact_lead?: string | undefined;
  contact_lead_zh?: string | undefined;
  contact_description?: string | undefined;
  /** The products listing's description, before the product names. */
  products_description?: string | undefined;
  products_description_zh?: string | undefined;
  /** The solutions listing's lead. */
  solutions_lead?: string | undefined;
  solutions_lead_zh?: string | undefined;
  /** The solutions listing's description (the Chinese listing's is its lead). */
  solutions_description?: string | undefined;
  /** The glossary page's description. */
  glossary_description?: string | undefined;
  glossary_description_zh?: string | undefined;
  /** The name of the feed at `/api/tweets` (content/tweets.json), as a sentence may use it: "read the …". */
  feed_name?: string | undefined;
  feed_name_zh?: string | undefined;
}

/** One glossary term (content/glossary.yaml): its name in each language (the anchor is `id`) and its definition. */
export interface GlossaryTerm {
  /** The fragment of the term on the page (`/glossary#rag`), the same in both languages. */
  id: string;
  term: Record<Lang, string>;
  definition: Record<Lang, string>;
}

/** Everything published, newest first within each list. */
export interface Catalog {
  origin: string;
  company: Company;
  categories: Category[];
  articles: Article[];
  solutions: Solution[];
  products: Product[];
  /** The glossary's terms in order (content/glossary.yaml); none or empty: the site has no glossary page. */
  glossary?: GlossaryTerm[] | undefined;
}

/** A document type without its body: what listings, the MCP index and search results carry. */
export type WithoutBody<D> = D extends unknown ? Omit<D, 'markdown'> : never;
export type DocumentMeta = WithoutBody<Document>;
export type ArticleMeta = WithoutBody<Article>;
export type SolutionMeta = WithoutBody<Solution>;

/**
 * The catalogue without article and solution bodies: what the MCP server and the A2A agent read
 * (their listings, resources and tool metadata), through a CatalogReader (catalog-reader.ts), from
 * the build's sharded files (catalog-shards.ts). The bodies are read one at a time through a {@link BodySource}:
 * a function that carried them grew, and started slower, with the corpus (BENCHMARKS.md, "Cold start and bundle
 * sizes").
 */
export interface CatalogIndex extends Omit<Catalog, 'articles' | 'solutions' | 'glossary'> {
  articles: ArticleMeta[];
  solutions: SolutionMeta[];
}

/** Reads the markdown body of an article or solution by slug; undefined when no body is stored under it. */
export type BodySource = (slug: string) => Promise<string | undefined>;

/** A built picture: its site path and size in pixels. */
export interface BuiltPicture {
  src: string;
  width: number;
  height: number;
}

/** A product's picture or diagram, with a variant whose labels are in Chinese. */
export interface ProductImage extends BuiltPicture {
  alt: string;
  alt_zh?: string | undefined;
  zh?: BuiltPicture | undefined;
}

/**
 * The picture a page in `lang` shows and its text alternative: on a Chinese page the Chinese-labelled variant and
 * alternative where the product has them, else the English ones (a diagram's words are part of what it says).
 */
export function productImageIn(image: ProductImage, lang: Lang): BuiltPicture & { alt: string } {
  if (lang !== 'zh') return { src: image.src, width: image.width, height: image.height, alt: image.alt };
  const picture = image.zh ?? image;
  return { src: picture.src, width: picture.width, height: picture.height, alt: image.alt_zh ?? image.alt };
}

/** The deploy-store key of a document's body: written by the build, read by the MCP function. */
export const bodyKey = (slug: string): string => `bodies/${slug}`;

/** The body of a document the catalogue lists; a missing one is a broken deploy, not a client error. */
export async function requiredBody(bodies: BodySource, slug: string): Promise<string> {
  const body = await bodies(slug);
  if (body === undefined)
    throw new Error(`The body of "${slug}" is missing from the deploy's body store (was the build's .netlify/v1/blobs/deploy uploaded?)`);
  return body;
}

/** The catalogue minus the bodies. */
export function catalogIndex(catalog: Catalog): CatalogIndex {
  const strip = <D extends Document>({ markdown: _body, ...rest }: D): WithoutBody<D> => rest as WithoutBody<D>;
  // The glossary is the glossary page's alone: the functions never read it.
  const { glossary: _glossary, ...rest } = catalog;
  return { ...rest, articles: catalog.articles.map(strip), solutions: catalog.solutions.map(strip) };
}

/** A body source over an in-memory catalogue (unit tests; the build writes the same bodies to the deploy store). */
export function bodiesOf(catalog: Pick<Catalog, 'articles' | 'solutions'>): BodySource {
  const bodies = new Map<string, string>([...catalog.articles, ...catalog.solutions].map((d) => [d.slug, d.markdown]));
  return async (slug) => bodies.get(slug);
}

/**
 * The part of the catalogue every function but the MCP server needs: who the company is, the
 * categories and products, and one article slug for examples. No documents: the full catalogue
 * inlines every article body, and each function that imported it only for the company name carried
 * it (BENCHMARKS.md, "Cold start and bundle sizes").
 */
export interface SiteProfile extends Pick<Catalog, 'origin' | 'company' | 'categories' | 'products'> {
  /** An English article when there is one (examples in agent skills), else any; `example` for an empty site. */
  exampleArticleSlug: string;
}

export function siteProfile(catalog: Catalog): SiteProfile {
  const { origin, company, categories, products, articles } = catalog;
  const exampleArticleSlug = articles.find((a) => a.lang === 'en')?.slug ?? articles[0]?.slug ?? 'example';
  return { origin, company, categories, products, exampleArticleSlug };
}

/** Articles and solutions together: the searchable documents, newest first. */
export function documentsOf<A extends ArticleMeta, S extends SolutionMeta>(catalog: {
  articles: readonly A[];
  solutions: readonly S[];
}): (A | S)[] {
  return [...catalog.articles, ...catalog.solutions].sort(byNewest);
}

/** The UTC calendar day (YYYY-MM-DD) of `now`: the day a build publishes for. */
export function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/**
 * Whether an article or solution dated `date` (YYYY-MM-DD) waits for a later build: a build publishes what is dated
 * on or before its UTC day, so a future date schedules the entry (Hugo's default) instead of showing it at once as the
 * newest article, with a date to come in its listings, feeds and sitemap.
 */
export function isScheduled(date: string, today: string): boolean {
  return date > today;
}

/** Sort comparator: newest date first, then slug for a stable order. */
export function byNewest(a: { date: string; slug: string }, b: { date: string; slug: string }): number {
  return a.date < b.date ? 1 : a.date > b.date ? -1 : a.slug.localeCompare(b.slug);
}

/** Slugs used by more than one article or solution; the build refuses a catalogue with any. */
export function duplicateSlugs(docs: readonly { slug: string }[]): string[] {
  const seen = new Set<string>();
  const dupes = new Set<string>();
  for (const { slug } of docs) (seen.has(slug) ? dupes : seen).add(slug);
  return [...dupes];
}
