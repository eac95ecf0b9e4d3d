/**
 * Builds the content catalogue from Astro's collections. The only module that turns
 * `astro:content` entries into the runtime-neutral {@link Catalog} every other part consumes.
 */
import { getCollection, getEntry, type CollectionEntry } from 'astro:content';
import { type Article, type Catalog, byNewest, duplicateSlugs, type Product, type Solution } from '../core/content/catalog.ts';
import { readingMinutes, twinBody } from '../core/content/markdown.ts';
import { absoluteUrl, paths } from '../core/kernel/paths.ts';
import { sharedBuildData } from '../integrations/build-data.ts';
import { parseBuildConfig } from '../core/config.ts';

const origin = import.meta.env.SITE.replace(/\/$/, '');

/** Drafts are built only when SHOW_DRAFTS=1 (`npm run dev` sets it); production never publishes them. */
const SHOW_DRAFTS = parseBuildConfig(process.env).showDrafts;
const isPublished = ({ data }: { data: { draft: boolean } }): boolean => SHOW_DRAFTS || !data.draft;
const isMdx = (entry: { filePath?: string | undefined }): boolean => Boolean(entry.filePath?.endsWith('.mdx'));

function bodyOf(entry: { body?: string | undefined; filePath?: string | undefined }): string {
  return twinBody(entry.body ?? '', origin, isMdx(entry));
}

let cached: Promise<Catalog> | undefined;

/** The catalogue of everything published, built once per build (and handed to the build hook, src/integrations/site-data.ts). */
export function getCatalog(): Promise<Catalog> {
  if (!cached) {
    cached = loadCatalog();
    sharedBuildData().catalog = cached;
  }
  return cached;
}

async function loadCatalog(): Promise<Catalog> {
  const [articleEntries, solutionEntries, productEntries, categoryEntries, profile] = await Promise.all([
    getCollection('articles', isPublished),
    getCollection('solutions', isPublished),
    getCollection('products'),
    getCollection('categories'),
    getEntry('company', 'profile'),
  ]);
  if (!profile) throw new Error('content/company.yaml must define the key "profile" (the company profile)');

  const articles: Article[] = articleEntries.map((entry: CollectionEntry<'articles'>) => {
    const markdown = bodyOf(entry);
    return {
      type: 'article' as const,
      slug: entry.data.slug,
      title: entry.data.title,
      category: entry.data.category.id,
      date: entry.data.date,
      updated: entry.data.updated,
      excerpt: entry.data.excerpt,
      lang: entry.data.lang,
      tags: entry.data.tags,
      author: entry.data.author,
      path: paths.article(entry.data.slug),
      markdown,
      readingMinutes: readingMinutes(markdown),
    };
  }).sort(byNewest);

  const solutions: Solution[] = solutionEntries.map((entry: CollectionEntry<'solutions'>) => {
    const markdown = bodyOf(entry);
    return {
      type: 'solution' as const,
      slug: entry.data.slug,
      title: entry.data.title,
      category: entry.data.category.id,
      industry: entry.data.industry,
      date: entry.data.date,
      updated: entry.data.updated,
      excerpt: entry.data.excerpt,
      lang: entry.data.lang,
      tags: entry.data.tags,
      products: entry.data.products.map((p) => p.id),
      path: paths.solution(entry.data.slug),
      markdown,
      readingMinutes: readingMinutes(markdown),
    };
  }).sort(byNewest);

  // reference() fields are not resolved at load time; check them here so a typo fails the build.
  const categoryIds = new Set(categoryEntries.map((c) => c.id));
  const productIds = new Set(productEntries.map((p) => p.id));
  const problems: string[] = [];
  for (const entry of [...articleEntries, ...solutionEntries]) {
    if (!categoryIds.has(entry.data.category.id)) {
      problems.push(`${entry.filePath}: category "${entry.data.category.id}" is not defined in content/categories.yaml (expected one of ${[...categoryIds].join(', ')})`);
    }
  }
  for (const entry of solutionEntries) {
    for (const product of entry.data.products) {
      if (!productIds.has(product.id)) problems.push(`${entry.filePath}: products lists "${product.id}", which is not a product slug (expected one of ${[...productIds].join(', ')})`);
    }
  }
  if (problems.length) throw new Error(`Content references are broken:\n${problems.join('\n')}`);

  const clashes = duplicateSlugs([...articles, ...solutions]);
  if (clashes.length) {
    throw new Error(`Slugs must be unique across articles and solutions; used more than once: ${clashes.join(', ')}`);
  }

  const products: Product[] = productEntries.map((entry: CollectionEntry<'products'>) => ({
    slug: entry.data.slug,
    name: entry.data.name,
    summary: entry.data.summary,
    url: absoluteUrl(origin, entry.data.url),
    features: entry.data.features,
    order: entry.data.order,
    path: paths.product(entry.data.slug),
    markdown: bodyOf(entry),
  })).sort((a, b) => a.order - b.order || a.slug.localeCompare(b.slug));

  const categories = categoryEntries.map((entry) => ({ slug: entry.id, ...entry.data })).sort((a, b) => a.slug.localeCompare(b.slug));

  return { origin, company: profile.data, categories, articles, solutions, products };
}
