/**
 * `GET /api/search?q=`: the build-time BM25 index over articles and solutions (zh, en, mixed).
 * @module
 */
import * as v from 'valibot';
import { LANGS } from '../content/i18n.ts';
import { absoluteUrl } from '../kernel/paths.ts';
import { PUBLIC_API_CORS } from '../kernel/cors.ts';
import type { EdgeOptions } from '../kernel/handler.ts';
import { badRequest, PROBLEM_ERRORS } from '../kernel/problem.ts';
import { isWellPercentEncoded, json, requireMethod } from '../kernel/respond.ts';
import { DEFAULT_RESULT_LIMIT, MAX_QUERY_CHARS, MAX_RESULT_LIMIT, type SearchEngine, type SearchOptions } from './search-index.ts';
import type { Usage } from '../kernel/metrics.ts';

/** Results are fixed for a deploy, so the CDN may keep them; browsers revalidate after a minute. */
export const SEARCH_CACHE_CONTROL = 'public, max-age=60, s-maxage=86400, stale-while-revalidate=604800';

const LIMIT_MESSAGE = `limit must be a whole number from 1 to ${MAX_RESULT_LIMIT}`;

/** The query of `/api/search`; an absent `limit` means {@link DEFAULT_RESULT_LIMIT} (the engine's default). */
export const SearchQuerySchema = v.object({
  q: v.pipe(
    v.string('q is required: the search text'),
    v.trim(),
    v.minLength(1, 'q must not be blank'),
    v.maxLength(MAX_QUERY_CHARS, `q must be at most ${MAX_QUERY_CHARS} characters`),
  ),
  // Digits first (a query string is text), then the number: the OpenAPI document describes the
  // parsed value, so `limit` is an integer there and generated clients may send `limit: 2`.
  limit: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,3}$/, LIMIT_MESSAGE),
      v.toNumber(),
      v.number(),
      v.integer(),
      v.minValue(1, LIMIT_MESSAGE),
      v.maxValue(MAX_RESULT_LIMIT, LIMIT_MESSAGE),
      v.metadata({ default: DEFAULT_RESULT_LIMIT }),
    ),
  ),
  lang: v.optional(v.picklist(LANGS, `lang must be one of ${LANGS.join(', ')}`)),
});

export const SearchResultSchema = v.object({
  slug: v.pipe(v.string(), v.description('Identifier of the document: `/blog/{slug}` or `/solutions/{slug}`, and the `get_article` tool.')),
  title: v.string(),
  category: v.pipe(v.string(), v.description('Category slug (see `/blog/category/{slug}`).')),
  date: v.pipe(v.string(), v.isoDate(), v.description('Publication date.')),
  excerpt: v.pipe(v.string(), v.description('The summary of the document.')),
  type: v.pipe(v.picklist(['article', 'solution']), v.description('Blog article or customer solution.')),
  url: v.pipe(v.string(), v.url(), v.description('The page; append `.md` (or send `Accept: text/markdown`) for its markdown twin.')),
  lang: v.pipe(v.picklist(['zh', 'en']), v.description('Language of the document.')),
});
export type SearchResult = v.InferOutput<typeof SearchResultSchema>;

/** Runs a query and shapes the hits as API results (absolute URLs). */
export function searchResults(engine: SearchEngine, origin: string, q: string, options: SearchOptions = {}): SearchResult[] {
  return engine.search(q, options).map((hit) => ({
    slug: hit.slug,
    title: hit.title,
    category: hit.category,
    date: hit.date,
    excerpt: hit.excerpt,
    type: hit.type,
    url: absoluteUrl(origin, hit.path),
    lang: hit.lang,
  }));
}

/** The edge of `GET /api/search`: problem JSON, open to every origin. */
export const SEARCH_EDGE: EdgeOptions = { errors: PROBLEM_ERRORS, cors: PUBLIC_API_CORS };

export async function handleSearch(req: Request, deps: { engine: SearchEngine; origin: string; usage?: Usage }): Promise<Response> {
  requireMethod(req, ['GET']);
  const url = new URL(req.url);
  // URLSearchParams turns a broken %-sequence into U+FFFD silently; a client that sent one should hear so.
  if (!isWellPercentEncoded(url.search.slice(1)))
    throw badRequest('The query string is not valid percent-encoded UTF-8 (encode q with encodeURIComponent).', [
      { name: 'q', reason: 'q is not valid percent-encoded UTF-8' },
    ]);
  const params = url.searchParams;
  const input: Record<string, string> = {};
  for (const name of ['q', 'limit', 'lang'] as const) {
    const values = params.getAll(name);
    if (values.length > 1) throw badRequest(`Give ${name} once.`, [{ name, reason: `${name} appears ${values.length} times` }]);
    if (values.length === 1) input[name] = values[0]!;
  }
  if (input.q === undefined)
    throw badRequest('The query parameter q is required: /api/search?q=<text>.', [{ name: 'q', reason: 'q is required' }]);
  const parsed = v.safeParse(SearchQuerySchema, input, { abortEarly: false });
  if (!parsed.success) {
    const invalid = parsed.issues.map((issue) => ({ name: v.getDotPath(issue) ?? 'q', reason: issue.message }));
    throw badRequest(invalid.map((i) => i.reason).join('; '), invalid);
  }
  const { q, limit, lang } = parsed.output;
  const results = searchResults(deps.engine, deps.origin, q, { limit, ...(lang ? { lang } : {}) });
  deps.usage?.query(q, results.length);
  return json(results, { headers: { 'cache-control': SEARCH_CACHE_CONTROL } });
}
