/**
 * MCP resources: every article, solution, product and category listing as its markdown twin, and
 * the completion of the resource templates' variables (`completion/complete`).
 *
 * URIs are the twins' own URLs (`<origin>/blog/<slug>.md` and so on), not a custom scheme: the spec
 * allows `https://` when the client can fetch the resource from the web itself, and here it can —
 * the URL serves the same bytes `resources/read` returns, so an agent can cite or re-fetch it.
 *
 * Nothing here holds the whole catalogue: a `resources/list` page builds its entries from the
 * documents in its range, `resources/read` finds its resource from the URI, so over the sharded
 * catalogue (content/catalog-reader.ts) a cold answer reads one or two small files. Completion and a
 * category's listing read every document.
 * @module
 */
import { requiredBody, type BodySource, type Category, type Product } from '../content/catalog.ts';
import type { CatalogReader } from '../content/catalog-reader.ts';
import type { CatalogDocument } from '../content/catalog-shards.ts';
import { categoryTwin, documentTwin, productTwin } from '../content/twins.ts';
import { agentInstructionsSection, withTwinClosing } from '../agent-tools/instructions.ts';
import { absoluteUrl, paths, twinPathOf } from '../kernel/paths.ts';
import { decodeCursor, encodeCursor } from '../kernel/cursor.ts';
import type { JsonObject } from '../kernel/jsonrpc.ts';

/** Media type of every resource: the twin. */
export const RESOURCE_MIME_TYPE = 'text/markdown';
/** Resources per `resources/list` page. */
export const RESOURCES_PER_PAGE = 100;
/** Values per completion answer (the spec's maximum). */
export const MAX_COMPLETION_VALUES = 100;

/** One family of resources: a page path with one variable, and the template naming it. */
interface ResourceKind {
  /** Template name, e.g. `article`. */
  name: string;
  title: string;
  description: string;
  /** The template's one variable. */
  variable: 'slug' | 'category';
  /** The HTML page path for a value (its twin is the resource). */
  pagePath: (value: string) => string;
}

export const RESOURCE_KINDS = {
  article: {
    name: 'article',
    title: 'Article (markdown)',
    description: 'A blog article as markdown, by slug: the slugs search_articles returns and get_article takes.',
    variable: 'slug',
    pagePath: paths.article,
  },
  solution: {
    name: 'solution',
    title: 'Industry solution (markdown)',
    description: 'An industry solution as markdown, by slug: the slugs search_articles returns and get_article takes.',
    variable: 'slug',
    pagePath: paths.solution,
  },
  product: {
    name: 'product',
    title: 'Product (markdown)',
    description: 'A product page as markdown, by slug (list_products gives the slugs).',
    variable: 'slug',
    pagePath: paths.product,
  },
  category: {
    name: 'category',
    title: 'Category listing (markdown)',
    description: 'The articles of one category, newest first, by category slug: the category search_articles filters on.',
    variable: 'category',
    pagePath: paths.category,
  },
} as const satisfies Record<string, ResourceKind>;

type KindName = keyof typeof RESOURCE_KINDS;

/** One readable resource. */
interface SiteResource {
  kind: KindName;
  /** The variable's value (slug or category slug). */
  value: string;
  /** The MCP `Resource` object. */
  listing: JsonObject & { uri: string };
  /** The twin text (a document's body is read from the body source). */
  render: (bodies: BodySource) => Promise<string> | string;
}

/** A candidate value for completion: the value and the text it is also matched against. */
interface Candidate {
  value: string;
  label: string;
}

/** `<origin>/blog/{slug}.md`: built by hand because URL parsing would percent-encode the braces. */
function uriTemplateOf(origin: string, kind: ResourceKind): string {
  return `${origin.replace(/\/+$/, '')}${twinPathOf(kind.pagePath(`{${kind.variable}}`))}`;
}

/** The resource URI of a page path: its twin's absolute URL. */
function twinUri(origin: string, pagePath: string): string {
  return absoluteUrl(origin, twinPathOf(pagePath) ?? pagePath);
}

/** ISO 8601 instant of a `YYYY-MM-DD` date (the annotation asks for a timestamp). */
const dayStart = (date: string): string => `${date}T00:00:00Z`;

function resource(
  catalog: CatalogReader,
  kind: KindName,
  value: string,
  pagePath: string,
  listing: Omit<JsonObject, 'uri'>,
  render: SiteResource['render'],
): SiteResource {
  // The same twin as the page's .md, closed by the site map section and the instructions for agents, without
  // its YAML front matter: a resource carries its title, description and date in its own fields (`listing`).
  const instructions = agentInstructionsSection(catalog);
  return {
    kind,
    value,
    listing: { uri: twinUri(catalog.origin, pagePath), ...listing, mimeType: RESOURCE_MIME_TYPE },
    render: async (bodies) => withTwinClosing(await render(bodies), catalog.origin, instructions),
  };
}

function documentResource(catalog: CatalogReader, doc: CatalogDocument): SiteResource {
  const annotations = { audience: ['user', 'assistant'], lastModified: dayStart(doc.updated ?? doc.date) };
  return resource(
    catalog,
    doc.type,
    doc.slug,
    doc.path,
    { name: `${doc.type}/${doc.slug}`, title: doc.title, description: doc.excerpt, annotations },
    async (bodies) =>
      documentTwin(
        catalog,
        { ...doc, markdown: await requiredBody(bodies, doc.slug) },
        doc.translation ? catalog.document(doc.translation) : undefined,
      ),
  );
}

function productResource(catalog: CatalogReader, product: Product): SiteResource {
  return resource(
    catalog,
    'product',
    product.slug,
    product.path,
    { name: `product/${product.slug}`, title: product.name, description: product.summary },
    () => productTwin(catalog.origin, product),
  );
}

function categoryResource(catalog: CatalogReader, category: Category): SiteResource {
  return resource(
    catalog,
    'category',
    category.slug,
    paths.category(category.slug),
    { name: `category/${category.slug}`, title: `${category.name} (${category.name_zh})`, description: category.description },
    // A category's listing names its articles: the one resource that reads the whole catalogue.
    () => categoryTwin(catalog.all(), category),
  );
}

/** Products in listing order. */
const productsInOrder = (products: readonly Product[]): Product[] =>
  [...products].sort((a, b) => a.order - b.order || a.slug.localeCompare(b.slug));

/** Length of the listing: articles and solutions, products, categories. */
const resourceCount = (catalog: CatalogReader): number => catalog.documentCount + catalog.products.length + catalog.categories.length;

/**
 * The resources `[start, end)` of the listing: articles and solutions newest first (as
 * documentsOf orders them), then products by order, then categories. Reads only the documents in
 * the range (one or two documents files of the sharded catalogue).
 */
function resourcesBetween(catalog: CatalogReader, start: number, end: number): SiteResource[] {
  const documents = catalog.documentCount;
  const rest = [
    ...productsInOrder(catalog.products).map((p) => productResource(catalog, p)),
    ...catalog.categories.map((c) => categoryResource(catalog, c)),
  ];
  return [
    ...catalog.documents(start, Math.min(end, documents)).map((doc) => documentResource(catalog, doc)),
    ...rest.slice(Math.max(0, start - documents), Math.max(0, end - documents)),
  ];
}

/** A page of `resources/list`, or null for a cursor we did not issue. */
export function listResources(catalog: CatalogReader, cursor: unknown): { resources: JsonObject[]; nextCursor?: string } | null {
  const count = resourceCount(catalog);
  const start = cursor === undefined ? 0 : typeof cursor === 'string' ? decodeCursor(cursor) : null;
  if (start === null || (start > 0 && start >= count)) return null;
  const end = Math.min(start + RESOURCES_PER_PAGE, count);
  return {
    resources: resourcesBetween(catalog, start, end).map((r) => r.listing),
    ...(end < count ? { nextCursor: encodeCursor(end) } : {}),
  };
}

/** `resources/templates/list`: one template per kind. */
export function resourceTemplates(catalog: Pick<CatalogReader, 'origin'>): JsonObject[] {
  return Object.values(RESOURCE_KINDS).map((kind) => ({
    uriTemplate: uriTemplateOf(catalog.origin, kind),
    name: kind.name,
    title: kind.title,
    description: kind.description,
    mimeType: RESOURCE_MIME_TYPE,
  }));
}

/** Stands for a template's variable when its URIs are cut into the parts before and after it (no character of it is escaped). */
const VALUE_MARKER = 'x-resource-value-x';
/**
 * The order kinds are tried in for a URI. URIs are unique, so it only saves reads: products and
 * categories are in the head, and a category's URI also fits the article template (`/blog/{slug}.md`
 * with the slug `category/rag`), whose lookup would read a slug file.
 */
const RESOURCE_LOOKUP_ORDER: readonly KindName[] = ['product', 'category', 'article', 'solution'];

/** The one resource of `kind` whose variable is `value`, if any. */
function resourceNamed(catalog: CatalogReader, kind: KindName, value: string): SiteResource | undefined {
  switch (kind) {
    case 'article':
    case 'solution': {
      const doc = catalog.document(value);
      return doc?.type === kind ? documentResource(catalog, doc) : undefined;
    }
    case 'product': {
      const product = catalog.products.find((p) => p.slug === value);
      return product && productResource(catalog, product);
    }
    case 'category': {
      const category = catalog.categories.find((c) => c.slug === value);
      return category && categoryResource(catalog, category);
    }
  }
}

/**
 * The resource whose URI is `uri` (normalised): the value is read from the URI where its kind's
 * template puts it, the resource looked up by it, and kept only when its own URI is `uri`. Reads
 * one slug file and one documents file for a document, nothing for a product or category.
 */
function resourceAt(catalog: CatalogReader, uri: string): SiteResource | undefined {
  for (const kindName of RESOURCE_LOOKUP_ORDER) {
    const kind: ResourceKind = RESOURCE_KINDS[kindName];
    const [before, after] = twinUri(catalog.origin, kind.pagePath(VALUE_MARKER)).split(VALUE_MARKER) as [string, string];
    if (uri.length <= before.length + after.length || !uri.startsWith(before) || !uri.endsWith(after)) continue;
    const raw = uri.slice(before.length, uri.length - after.length);
    for (const value of new Set([raw, decodedOrRaw(raw)])) {
      const found = resourceNamed(catalog, kindName, value);
      if (found?.listing.uri === uri) return found;
    }
  }
  return undefined;
}

/** A percent-encoded URI part decoded (a value outside ASCII is encoded in its URI), or as it is when it does not decode. */
function decodedOrRaw(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text; // a stray `%`: no resource's URI has one, the lookup just fails
  }
}

/** `resources/read` contents for a URI, or null when no resource has it. */
export async function readResource(
  catalog: CatalogReader,
  bodies: BodySource,
  uri: string,
): Promise<{ uri: string; mimeType: string; text: string }[] | null> {
  let normalized: string;
  try {
    normalized = new URL(uri).href; // raw Unicode and percent-encoded forms of one URL match
  } catch {
    return null;
  }
  const found = resourceAt(catalog, normalized);
  return found ? [{ uri: found.listing.uri, mimeType: RESOURCE_MIME_TYPE, text: await found.render(bodies) }] : null;
}

const completionIndexes = new WeakMap<CatalogReader, Map<string, { variable: string; values: Candidate[] }>>();

/** Completion candidates per template URI, in listing order: built once per catalogue, over every resource. */
function completionCandidates(catalog: CatalogReader): Map<string, { variable: string; values: Candidate[] }> {
  const known = completionIndexes.get(catalog);
  if (known) return known;
  const all = resourcesBetween(catalog, 0, resourceCount(catalog));
  const candidates = new Map<string, { variable: string; values: Candidate[] }>();
  for (const [kindName, kind] of Object.entries(RESOURCE_KINDS) as [KindName, ResourceKind][]) {
    const values = all.filter((r) => r.kind === kindName).map((r) => ({ value: r.value, label: String(r.listing.title ?? '') }));
    candidates.set(uriTemplateOf(catalog.origin, kind), { variable: kind.variable, values });
  }
  completionIndexes.set(catalog, candidates);
  return candidates;
}

/** Why a completion request cannot be answered (a -32602 message), or the completion. */
export type CompletionOutcome =
  | { ok: true; completion: { values: string[]; total: number; hasMore: boolean } }
  | { ok: false; message: string };

/**
 * `completion/complete` for a resource template's variable: values whose slug starts with the
 * typed text first, then those whose slug or title contains it (case-insensitive), in listing order.
 */
export function completeTemplateArgument(catalog: CatalogReader, templateUri: string, argument: string, typed: string): CompletionOutcome {
  const entry = completionCandidates(catalog).get(templateUri);
  if (!entry) return { ok: false, message: `Unknown resource template ${templateUri}. Call resources/templates/list for the templates.` };
  if (argument !== entry.variable)
    return {
      ok: false,
      message: `The template ${templateUri} has one variable, ${entry.variable}; "${argument}" is not one of its arguments.`,
    };
  const needle = typed.trim().toLowerCase();
  const prefixed: string[] = [];
  const containing: string[] = [];
  for (const { value, label } of entry.values) {
    const slug = value.toLowerCase();
    if (slug.startsWith(needle)) prefixed.push(value);
    else if (slug.includes(needle) || label.toLowerCase().includes(needle)) containing.push(value);
  }
  const matches = [...prefixed, ...containing];
  return {
    ok: true,
    completion: { values: matches.slice(0, MAX_COMPLETION_VALUES), total: matches.length, hasMore: matches.length > MAX_COMPLETION_VALUES },
  };
}
