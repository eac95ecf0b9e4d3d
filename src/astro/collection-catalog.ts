/**
 * Builds the content catalogue from Astro's collections. The only module that turns
 * `astro:content` entries into the runtime-neutral {@link Catalog} every other part consumes.
 */
import { getImage } from 'astro:assets';
import { getCollection, getEntry, type CollectionEntry } from 'astro:content';
import path from 'node:path';
import {
  type Article,
  type Catalog,
  type Company,
  byNewest,
  duplicateSlugs,
  isScheduled,
  type Product,
  type Solution,
  utcDay,
} from '../core/content/catalog.ts';
import { readingMinutes, relativeImages, twinBody } from '../core/content/markdown.ts';
import { optionalProseText, proseText } from '../core/content/prose-text.ts';
import { absoluteUrl, paths } from '../core/kernel/paths.ts';
import {
  type ContentError,
  contentErrorsFailure,
  IN_DEV_SERVER,
  duplicateSlugErrors,
  entryErrors,
  holdsUnreadableFile,
  isInvalid,
  storedEntryErrors,
  lineOf,
  readTweetSnapshotFile,
} from './content-errors.ts';
import { CACHE_DIR, CATALOG_BODIES_FILE, type LoadedEntry, slimBody, sourceKey, storedSlim } from './content-bodies.ts';
import { type LineCache, openLineCache } from './line-cache.ts';
import { RASTER_IMAGES, SVG_IMAGES } from './content-images.ts';
import { sharedBuildData } from './integrations/build-data.ts';
import { type SitePage, sitePages } from '../core/publish/pages.ts';
import { parseBuildConfig } from '../core/config.ts';

const origin = import.meta.env.SITE.replace(/\/$/, '');

/**
 * Drafts and entries dated after this build's UTC day ({@link isScheduled}) are built only when SHOW_DRAFTS=1 (`npm
 * run dev` sets it, and marks them as drafts); production publishes a scheduled entry with the first build on or
 * after its day.
 */
const SHOW_DRAFTS = parseBuildConfig(process.env).showDrafts;
const TODAY = utcDay(new Date());
const unpublishedYet = (data: { draft: boolean; date: string }): boolean => data.draft || isScheduled(data.date, TODAY);
const isPublished = ({ data }: { data: { draft: boolean; date: string } }): boolean =>
  !isInvalid(data) && (SHOW_DRAFTS || !unpublishedYet(data));
/** An entry held back for a later day only (not a draft): the daily publish-scheduled function asks for a build on that day. */
const waitsForItsDay = ({ data }: { data: { draft: boolean; date: string } }): boolean =>
  !SHOW_DRAFTS && !isInvalid(data) && !data.draft && isScheduled(data.date, TODAY);
const isMdx = (entry: { filePath?: string | undefined }): boolean => Boolean(entry.filePath?.endsWith('.mdx'));

/** Absolute URLs of the built assets for the relative images a document uses. */
async function imageUrls(entry: { body?: string | undefined; filePath?: string | undefined }): Promise<Map<string, string>> {
  const urls = new Map<string, string>();
  if (!entry.filePath) return urls;
  for (const target of relativeImages(entry.body ?? '')) {
    const key = path.posix.normalize(path.posix.join('/', path.posix.dirname(entry.filePath), target.split(/[?#]/)[0]!));
    const raster = RASTER_IMAGES[key];
    const src = raster ? (await getImage({ src: raster.default })).src : SVG_IMAGES[key];
    if (src) urls.set(target, absoluteUrl(origin, src));
  }
  return urls;
}

/** What the catalogue derives from an entry's body: the markdown its twin and agents read, and the minutes to read it. */
interface CatalogBody {
  markdown: string;
  readingMinutes: number;
}

const isCatalogBody = (value: unknown): value is CatalogBody =>
  typeof (value as CatalogBody)?.markdown === 'string' && Number.isInteger((value as CatalogBody).readingMinutes);

/**
 * The catalogue's body of an entry, from its source: the store, or its body file when the store keeps it slim
 * (src/astro/content-bodies.ts). A slim entry's is kept in `bodies` between builds, by its digest and the origin (the
 * only inputs a body without images has): an edit reads one body file, not 10,000 (BENCHMARKS.md, "Build").
 */
async function bodyOf(entry: LoadedEntry & { filePath?: string | undefined }, bodies?: LineCache<CatalogBody>): Promise<CatalogBody> {
  const key = bodies && storedSlim(entry) ? sourceKey(entry.collection, entry.id, entry.digest, origin) : undefined;
  const known = key === undefined ? undefined : bodies?.get(key);
  if (known) return known;
  const source = { body: slimBody(entry, CACHE_DIR)?.body ?? entry.body, filePath: entry.filePath };
  const markdown = twinBody(source.body ?? '', origin, isMdx(entry), await imageUrls(source));
  const derived = { markdown, readingMinutes: readingMinutes(markdown) };
  if (key !== undefined) bodies?.set(key, derived);
  return derived;
}

let cached: Promise<Catalog> | undefined;

/** The catalogue of everything published, built once per build (and handed to the build hook, src/astro/integrations/site-data.ts). */
export function getCatalog(): Promise<Catalog> {
  if (!cached) {
    const loading = loadCatalog();
    cached = loading;
    // `npm run dev`: a content error is not kept; the next page after the fix builds the catalogue again.
    if (IN_DEV_SERVER)
      loading.catch(() => {
        if (cached === loading) cached = undefined;
      });
    sharedBuildData().catalog = cached;
    if (import.meta.env.DEV) sharedBuildData().onCatalog?.(cached);
  }
  return cached;
}

const siteLists = new WeakMap<Catalog, SitePage[]>();
const registries = new WeakMap<Catalog, Map<string, SitePage>>();

/**
 * Every page of the site with its twin (src/core/publish/pages.ts sitePages), computed once per
 * build: the registry, the sitemap, llms-full.txt, the OG images and the twins all read it (one
 * computation is a measurable part of a large build: BENCHMARKS.md, "Build"). Shared with the build hook like the catalogue.
 */
export async function getSitePages(): Promise<SitePage[]> {
  const catalog = await getCatalog();
  let pages = siteLists.get(catalog);
  if (!pages) {
    pages = sitePages(catalog);
    siteLists.set(catalog, pages);
    sharedBuildData().sitePages = pages;
  }
  return pages;
}

/**
 * The page registry's entry for `pagePath` (src/core/publish/pages.ts): where every page's title,
 * description and language are written, once, for the HTML page, its twin, the sitemap and llms.txt.
 */
export async function registeredPage(pagePath: string): Promise<SitePage | undefined> {
  const catalog = await getCatalog();
  let byPath = registries.get(catalog);
  if (!byPath) {
    byPath = new Map((await getSitePages()).map((page) => [page.path, page]));
    registries.set(catalog, byPath);
  }
  return byPath.get(pagePath);
}

const COLLECTIONS = ['articles', 'solutions', 'products', 'categories', 'company', 'glossary'] as const;

/**
 * The errors of every entry that failed to parse or fit its schema, and the slugs two files claim
 * (src/astro/content-errors.ts). `npm run dev` lists them on every page (src/layouts/Base.astro).
 */
export async function contentErrors(): Promise<ContentError[]> {
  const entries = await Promise.all(COLLECTIONS.map((collection) => getCollection(collection, ({ data }) => isInvalid(data))));
  return [
    ...entries.flat().flatMap((entry) => entryErrors(entry.data)),
    // An entry another file's entry replaced in the store (a shared slug): its own errors too (sortedErrors drops repeats).
    ...storedEntryErrors(),
    ...duplicateSlugErrors(process.cwd()),
    // The one data file the build reads outside the collections (src/astro/integrations/site-data.ts).
    ...readTweetSnapshotFile(parseBuildConfig(process.env).contentDir).errors,
  ];
}

/**
 * `npm run dev`: the broken references the last catalogue found. Their articles and solutions are left out of it, and
 * every page lists them with the other content errors ({@link pageContentErrors}); one unknown category made every
 * page a bare 500 before (stranger s10b, 4).
 */
let devReferenceProblems: ContentError[] = [];

/**
 * What `npm run dev` lists on every page (src/layouts/Base.astro): {@link contentErrors}, and the broken references
 * of the catalogue the page is built from.
 */
export async function pageContentErrors(): Promise<ContentError[]> {
  await getCatalog();
  return [...(await contentErrors()), ...devReferenceProblems];
}

async function loadCatalog(): Promise<Catalog> {
  const [articleEntries, solutionEntries, productEntries, categoryEntries, profile, glossaryEntries] = await Promise.all([
    getCollection('articles', isPublished),
    getCollection('solutions', isPublished),
    getCollection('products', ({ data }) => !isInvalid(data)),
    getCollection('categories', ({ data }) => !isInvalid(data)),
    getEntry('company', 'profile'),
    getCollection('glossary', ({ data }) => !isInvalid(data)),
  ]);
  const waiting = await Promise.all([getCollection('articles', waitsForItsDay), getCollection('solutions', waitsForItsDay)]);
  sharedBuildData().scheduledDays = [...new Set(waiting.flat().map((entry) => entry.data.date))].sort();
  // Every error at once, with its file and line: an author fixes them in one round instead of one build per problem.
  const entryProblems = await contentErrors();
  // Every page needs the company profile: without a valid one no page can be built, so stop here with what is known
  // (a company.yaml that does not parse has no profile and says why among the errors).
  if (!profile && entryProblems.length) throw contentErrorsFailure(entryProblems);
  if (!profile) throw new Error('content/company.yaml must define the key "profile" (the company profile)');
  if (isInvalid(profile.data)) throw contentErrorsFailure(entryProblems);
  /** Broken references between entries: found here, as the loader does not resolve reference() fields. */
  const problems: ContentError[] = [];

  const bodies = await openLineCache(CACHE_DIR, CATALOG_BODIES_FILE, isCatalogBody);
  // A translation link counts only when its target is published too (a draft's link is dropped;
  // both articles link each other, which the checks below enforce). Entry ids are the slugs.
  const publishedArticleIds = new Set(articleEntries.map((e) => e.id));
  const articles: Article[] = (
    await Promise.all(
      articleEntries.map(async (entry: CollectionEntry<'articles'>) => {
        const { markdown, readingMinutes } = await bodyOf(entry, bodies);
        return {
          type: 'article' as const,
          slug: entry.data.slug,
          title: proseText(entry.data.title),
          category: entry.data.category.id,
          date: entry.data.date,
          updated: entry.data.updated,
          excerpt: proseText(entry.data.excerpt),
          lang: entry.data.lang,
          tags: entry.data.tags,
          author: entry.data.author,
          path: paths.article(entry.data.slug),
          markdown,
          readingMinutes,
          ...(entry.data.translation && publishedArticleIds.has(entry.data.translation.id)
            ? { translation: entry.data.translation.id }
            : {}),
          ...(unpublishedYet(entry.data) ? { draft: true } : {}),
          ...(entry.data.cover
            ? {
                cover: {
                  src: entry.data.cover.src.src,
                  alt: entry.data.cover.alt,
                  width: entry.data.cover.src.width,
                  height: entry.data.cover.src.height,
                },
              }
            : {}),
        };
      }),
    )
  ).sort(byNewest);

  const solutions: Solution[] = (
    await Promise.all(
      solutionEntries.map(async (entry: CollectionEntry<'solutions'>) => {
        const { markdown, readingMinutes } = await bodyOf(entry, bodies);
        return {
          type: 'solution' as const,
          slug: entry.data.slug,
          title: proseText(entry.data.title),
          category: entry.data.category.id,
          industry: entry.data.industry,
          date: entry.data.date,
          updated: entry.data.updated,
          excerpt: proseText(entry.data.excerpt),
          lang: entry.data.lang,
          tags: entry.data.tags,
          products: entry.data.products.map((p) => p.id),
          path: paths.solution(entry.data.slug),
          markdown,
          readingMinutes,
          ...(unpublishedYet(entry.data) ? { draft: true } : {}),
        };
      }),
    )
  ).sort(byNewest);

  await bodies.save();
  // Every article and solution counts: those the cache does not keep (MDX, images beside them) are derived each build.
  const documents = articles.length + solutions.length;
  sharedBuildData().reuse = {
    ...sharedBuildData().reuse,
    'catalogue bodies': { reused: bodies.reused, counted: documents - bodies.reused },
  };

  // reference() fields are not resolved at load time; check them here so a typo fails the build.
  const categoryIds = new Set(categoryEntries.map((c) => c.id));
  const productIds = new Set(productEntries.map((p) => p.id));
  // A categories.yaml that does not parse defines none: its one error says so, not one per article.
  const categoriesKnown = !holdsUnreadableFile(await getCollection('categories'));
  /** An error at the line of `key` in an entry's file. */
  const at = (entry: { filePath?: string | undefined }, key: string, message: string): ContentError => ({
    file: entry.filePath ?? '',
    line: entry.filePath ? lineOf(path.resolve(entry.filePath), key) : 1,
    message,
  });
  /** `npm run dev`: the articles and solutions whose pages would fail on a reference, by path (left out there). */
  const unrenderable = new Set<string>();
  for (const entry of [...articleEntries, ...solutionEntries]) {
    if (categoriesKnown && !categoryIds.has(entry.data.category.id)) {
      unrenderable.add(entry.collection === 'articles' ? paths.article(entry.data.slug) : paths.solution(entry.data.slug));
      problems.push(
        at(
          entry,
          'category',
          `category "${entry.data.category.id}" is not defined in content/categories.yaml (expected one of ${[...categoryIds].join(', ')})`,
        ),
      );
    }
  }
  for (const entry of solutionEntries) {
    for (const product of entry.data.products) {
      if (!productIds.has(product.id)) {
        unrenderable.add(paths.solution(entry.data.slug));
        problems.push(
          at(
            entry,
            'products',
            `products lists "${product.id}", which is not a product slug (expected one of ${[...productIds].join(', ')})`,
          ),
        );
      }
    }
  }
  // A translation names a published article in the other language that names this one back.
  const byId = new Map(articleEntries.map((entry) => [entry.id, entry]));
  const unpublished = new Set((await getCollection('articles', (entry) => !isPublished(entry))).map((entry) => entry.id));
  for (const entry of articleEntries) {
    const target = entry.data.translation?.id;
    if (!target || unpublished.has(target)) continue; // a translation still in draft is linked once it is published
    const other = byId.get(target);
    if (!other)
      problems.push(
        at(entry, 'translation', `translation "${target}" is not an article slug (expected the slug of the article in the other language)`),
      );
    else if (other.data.lang === entry.data.lang)
      problems.push(
        at(entry, 'translation', `translation "${target}" is in the same language (${entry.data.lang}); it must be the other one`),
      );
    else if (other.data.translation?.id !== entry.id)
      problems.push(at(other, 'translation', `add "translation: ${entry.id}" so the two articles link each other`));
  }
  // An article and a solution with one slug: both were loaded, but they would share one deploy blob and one MCP answer.
  const clashes = duplicateSlugs([...articles, ...solutions]);
  if (clashes.length) {
    const filesOf = (slug: string): string =>
      [...articleEntries, ...solutionEntries]
        .filter((entry) => entry.data.slug === slug)
        .map((entry) => entry.filePath)
        .join(', ');
    for (const slug of clashes)
      for (const entry of [...articleEntries, ...solutionEntries].filter((e) => e.data.slug === slug))
        problems.push(
          at(entry, 'slug', `the slug "${slug}" is used by an article and a solution (${filesOf(slug)}); slugs must be unique across both`),
        );
  }
  // `npm run dev` leaves the broken entries out and lists their errors on every page (src/layouts/Base.astro): those whose
  // front matter failed, and the articles and solutions whose category or products do not exist (their pages would fail).
  if (!IN_DEV_SERVER && (problems.length || entryProblems.length)) throw contentErrorsFailure([...entryProblems, ...problems]);
  devReferenceProblems = problems;
  const renderable = <T extends { path: string }>(documents: T[]): T[] => documents.filter((d) => !unrenderable.has(d.path));

  const products: Product[] = (
    await Promise.all(
      productEntries.map(async (entry: CollectionEntry<'products'>) => ({
        slug: entry.data.slug,
        name: entry.data.name,
        summary: proseText(entry.data.summary),
        ...(entry.data.summary_zh ? { summary_zh: proseText(entry.data.summary_zh) } : {}),
        url: absoluteUrl(origin, entry.data.url),
        features: entry.data.features.map(proseText),
        ...(entry.data.features_zh ? { features_zh: entry.data.features_zh.map(proseText) } : {}),
        ...(entry.data.image
          ? {
              image: {
                src: entry.data.image.src.src,
                alt: proseText(entry.data.image.alt),
                ...(entry.data.image.alt_zh ? { alt_zh: proseText(entry.data.image.alt_zh) } : {}),
                width: entry.data.image.src.width,
                height: entry.data.image.src.height,
                ...(entry.data.image.src_zh
                  ? {
                      zh: {
                        src: entry.data.image.src_zh.src,
                        width: entry.data.image.src_zh.width,
                        height: entry.data.image.src_zh.height,
                      },
                    }
                  : {}),
              },
            }
          : {}),
        order: entry.data.order,
        path: paths.product(entry.data.slug),
        markdown: (await bodyOf(entry)).markdown,
      })),
    )
  ).sort((a, b) => a.order - b.order || a.slug.localeCompare(b.slug));

  const categories = categoryEntries
    .map(({ id, data }) => ({
      slug: id,
      ...data,
      description: proseText(data.description),
      ...(data.description_zh ? { description_zh: proseText(data.description_zh) } : {}),
    }))
    .sort((a, b) => a.slug.localeCompare(b.slug));

  // The glossary's terms in the order of their ids (its anchors), the order the file keeps them in.
  const glossary = glossaryEntries
    .map(({ id, data }) => ({
      id,
      term: { en: proseText(data.term), zh: proseText(data.term_zh) },
      definition: { en: proseText(data.definition), zh: proseText(data.definition_zh) },
    }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

  return {
    origin,
    company: companyOf(profile.data),
    categories,
    articles: renderable(articles),
    solutions: renderable(solutions),
    products,
    glossary,
  };
}

/** The company profile with its prose fields as readers see them (folded Chinese lines joined, typographic quotes). */
function companyOf(data: CollectionEntry<'company'>['data']): Company {
  return {
    ...data,
    tagline: proseText(data.tagline),
    tagline_zh: optionalProseText(data.tagline_zh),
    pitch: optionalProseText(data.pitch),
    pitch_zh: optionalProseText(data.pitch_zh),
    disclaimer: optionalProseText(data.disclaimer),
    disclaimer_zh: optionalProseText(data.disclaimer_zh),
    description: proseText(data.description),
    description_zh: proseText(data.description_zh),
    operator_attribution: proseText(data.operator_attribution),
    operator_attribution_zh: optionalProseText(data.operator_attribution_zh),
    // A channel on this site (the contact form, `/contact`) gets the site's absolute URL, as agents read it.
    contact: data.contact.map((c) => (c.url?.startsWith('/') ? { ...c, url: absoluteUrl(origin, c.url) } : c)),
    key_resources: data.key_resources.map((r) => ({ ...r, description: proseText(r.description) })),
    copy:
      data.copy && Object.fromEntries(Object.entries(data.copy).map(([key, text]) => [key, optionalProseText(text as string | undefined)])),
  };
}
