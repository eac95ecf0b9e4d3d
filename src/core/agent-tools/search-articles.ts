/**
 * `search_articles`: the site search (same index and ranking as `GET /api/search`).
 * @module
 */
import * as v from 'valibot';
import { SearchResultSchema, searchResults } from '../search/api.ts';
import { DEFAULT_RESULT_LIMIT, MAX_QUERY_CHARS, MAX_RESULT_LIMIT } from '../search/search-index.ts';
import { LANGS } from '../content/i18n.ts';
import { absoluteUrl, paths } from '../kernel/paths.ts';
import { linkTo, markdownLink } from './reading.ts';
import { defineTool } from './tool.ts';

const LIMIT_MESSAGE = `limit must be a whole number from 1 to ${MAX_RESULT_LIMIT}`;

export const SearchArticlesInput = v.strictObject({
  query: v.pipe(
    v.string('query must be a string'),
    v.trim(),
    v.minLength(1, 'query must not be blank'),
    v.maxLength(MAX_QUERY_CHARS, `query must be at most ${MAX_QUERY_CHARS} characters`),
    // JSON can spell an unpaired surrogate ("\ud800"), UTF-8 cannot: /api/search refuses it as bad encoding, and so does the tool.
    v.check((query) => query.isWellFormed(), 'query must be valid Unicode text (it holds an unpaired surrogate, U+D800 to U+DFFF)'),
    v.description('Search text in Chinese, English or both: words of a title, a topic or a tag.'),
  ),
  limit: v.optional(
    v.pipe(
      v.number(LIMIT_MESSAGE),
      v.integer(LIMIT_MESSAGE),
      v.minValue(1, LIMIT_MESSAGE),
      v.maxValue(MAX_RESULT_LIMIT, LIMIT_MESSAGE),
      v.description('Maximum results, best first.'),
    ),
    DEFAULT_RESULT_LIMIT,
  ),
  category: v.optional(
    v.pipe(
      v.string('category must be a string'),
      v.description('Only return documents of this category slug (see get_company_info or the blog for the list).'),
    ),
  ),
  lang: v.optional(
    v.pipe(
      v.picklist(LANGS, `lang must be one of ${LANGS.join(', ')}`),
      v.description('Only return documents in this language (zh: Chinese, en: English); omit for both.'),
    ),
  ),
});

export const SearchArticlesOutput = v.object({
  query: v.string(),
  results: v.array(SearchResultSchema),
});

export const searchArticles = defineTool({
  name: 'search_articles',
  title: 'Search articles and solutions',
  description:
    'Full-text search over the blog articles and industry solutions of this site (Chinese and English, BM25 ranking with typo tolerance). ' +
    'Returns up to `limit` hits, best first, each with slug, title, category, date, excerpt, type, language and page URL. ' +
    'Pass a slug to get_article for the full text.',
  input: SearchArticlesInput,
  output: SearchArticlesOutput,
  run({ query, limit, category, lang }, { site, engine, origin, usage }) {
    if (category !== undefined && !site.categories.some((c) => c.slug === category)) {
      return {
        ok: false,
        message: `Unknown category "${category}". Use one of: ${site.categories.map((c) => c.slug).join(', ')}; or omit category.`,
      };
    }
    const results = searchResults(engine, origin, query, { limit, ...(category ? { category } : {}), ...(lang ? { lang } : {}) });
    usage?.query(query, results.length);
    return { ok: true, data: { query, results } };
  },
  read({ query, results }, { origin }) {
    const links = results.map((r) => linkTo(r.title, r.url, origin));
    const text = results.length
      ? [
          `${results.length} result${results.length === 1 ? '' : 's'} for "${query}", best first:`,
          '',
          ...results.map((r, i) => `${i + 1}. ${markdownLink(links[i]!)}: ${r.type}, ${r.date}, ${r.lang}. ${r.excerpt}`),
        ].join('\n')
      : `No article or solution matches "${query}". Try other words (Chinese or English), or browse the index at ${absoluteUrl(origin, paths.llms)}.`;
    return { text: `${text}\n\nSend a result's URL to read the article.`, links };
  },
});
