/**
 * MCP resources: every article, solution, product and category listing as its markdown twin, and
 * the completion of the resource templates' variables (`completion/complete`).
 *
 * URIs are the twins' own URLs (`<origin>/blog/<slug>.md` and so on), not a custom scheme: the spec
 * allows `https://` when the client can fetch the resource from the web itself, and here it can —
 * the URL serves the same bytes `resources/read` returns, so an agent can cite or re-fetch it.
 * @module
 */
import { byNewest, requiredBody, type BodySource, type CatalogIndex } from '../content/catalog.ts';
import { categoryTwin, documentTwin, productTwin } from '../content/twins.ts';
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

interface ResourceIndex {
  ordered: SiteResource[];
  byUri: Map<string, SiteResource>;
  templates: (JsonObject & { uriTemplate: string })[];
  /** Completion candidates per template URI. */
  candidates: Map<string, { variable: string; values: Candidate[] }>;
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

const indexes = new WeakMap<CatalogIndex, ResourceIndex>();

/** The resources of a catalogue, built once per catalogue (it is fixed for a deploy). */
export function resourceIndex(catalog: CatalogIndex): ResourceIndex {
  const known = indexes.get(catalog);
  if (known) return known;
  const { origin } = catalog;
  const ordered: SiteResource[] = [];
  const add = (kind: KindName, value: string, pagePath: string, listing: Omit<JsonObject, 'uri'>, render: SiteResource['render']): void => {
    ordered.push({ kind, value, listing: { uri: twinUri(origin, pagePath), ...listing, mimeType: RESOURCE_MIME_TYPE }, render });
  };
  // Articles and solutions newest first, as documentsOf orders them (kept as the union documentTwin takes).
  for (const doc of [...catalog.articles, ...catalog.solutions].sort(byNewest)) {
    const annotations = { audience: ['user', 'assistant'], lastModified: dayStart(doc.updated ?? doc.date) };
    add(
      doc.type,
      doc.slug,
      doc.path,
      { name: `${doc.type}/${doc.slug}`, title: doc.title, description: doc.excerpt, annotations },
      async (bodies) => documentTwin(catalog, { ...doc, markdown: await requiredBody(bodies, doc.slug) }),
    );
  }
  const products = [...catalog.products].sort((a, b) => a.order - b.order || a.slug.localeCompare(b.slug));
  for (const product of products) {
    add('product', product.slug, product.path, { name: `product/${product.slug}`, title: product.name, description: product.summary }, () =>
      productTwin(origin, product),
    );
  }
  for (const category of catalog.categories) {
    add(
      'category',
      category.slug,
      paths.category(category.slug),
      { name: `category/${category.slug}`, title: `${category.name} (${category.name_zh})`, description: category.description },
      () => categoryTwin(catalog, category),
    );
  }
  const byUri = new Map(ordered.map((r) => [r.listing.uri, r]));

  const templates: ResourceIndex['templates'] = [];
  const candidates: ResourceIndex['candidates'] = new Map();
  for (const [kindName, kind] of Object.entries(RESOURCE_KINDS) as [KindName, ResourceKind][]) {
    const uriTemplate = uriTemplateOf(origin, kind);
    templates.push({ uriTemplate, name: kind.name, title: kind.title, description: kind.description, mimeType: RESOURCE_MIME_TYPE });
    const values = ordered.filter((r) => r.kind === kindName).map((r) => ({ value: r.value, label: String(r.listing.title ?? '') }));
    candidates.set(uriTemplate, { variable: kind.variable, values });
  }
  const index = { ordered, byUri, templates, candidates };
  indexes.set(catalog, index);
  return index;
}

/** A page of `resources/list`, or null for a cursor we did not issue. */
export function listResources(catalog: CatalogIndex, cursor: unknown): { resources: JsonObject[]; nextCursor?: string } | null {
  const { ordered } = resourceIndex(catalog);
  const start = cursor === undefined ? 0 : typeof cursor === 'string' ? decodeCursor(cursor) : null;
  if (start === null || (start > 0 && start >= ordered.length)) return null;
  const end = Math.min(start + RESOURCES_PER_PAGE, ordered.length);
  return { resources: ordered.slice(start, end).map((r) => r.listing), ...(end < ordered.length ? { nextCursor: encodeCursor(end) } : {}) };
}

/** `resources/templates/list`: one template per kind. */
export function resourceTemplates(catalog: CatalogIndex): JsonObject[] {
  return resourceIndex(catalog).templates;
}

/** `resources/read` contents for a URI, or null when no resource has it. */
export async function readResource(
  catalog: CatalogIndex,
  bodies: BodySource,
  uri: string,
): Promise<{ uri: string; mimeType: string; text: string }[] | null> {
  let normalized: string;
  try {
    normalized = new URL(uri).href; // raw Unicode and percent-encoded forms of one URL match
  } catch {
    return null;
  }
  const resource = resourceIndex(catalog).byUri.get(normalized);
  return resource ? [{ uri: resource.listing.uri, mimeType: RESOURCE_MIME_TYPE, text: await resource.render(bodies) }] : null;
}

/** Why a completion request cannot be answered (a -32602 message), or the completion. */
export type CompletionOutcome =
  | { ok: true; completion: { values: string[]; total: number; hasMore: boolean } }
  | { ok: false; message: string };

/**
 * `completion/complete` for a resource template's variable: values whose slug starts with the
 * typed text first, then those whose slug or title contains it (case-insensitive), in listing order.
 */
export function completeTemplateArgument(catalog: CatalogIndex, templateUri: string, argument: string, typed: string): CompletionOutcome {
  const entry = resourceIndex(catalog).candidates.get(templateUri);
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
