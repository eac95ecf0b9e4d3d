/**
 * `get_article`: the full markdown and metadata of one article or solution.
 * @module
 */
import * as v from 'valibot';
import { requiredBody } from '../content/catalog.ts';
import { DocumentEntrySchema, documentEntry } from './document-entry.ts';
import type { ToolLink } from './reading.ts';
import { defineTool } from './tool.ts';

export const GetArticleInput = v.strictObject({
  slug: v.pipe(
    v.string('slug must be a string'),
    v.trim(),
    v.minLength(1, 'slug must not be blank'),
    v.maxLength(200, 'slug must be at most 200 characters'),
    v.description('The slug of an article or solution, as returned by search_articles.'),
  ),
});

export const GetArticleOutput = v.object({
  ...DocumentEntrySchema.entries,
  author: v.optional(v.string()),
  industry: v.optional(v.string()),
  products: v.optional(v.array(v.string())),
  reading_minutes: v.number(),
  markdown: v.string(),
});

export const getArticle = defineTool({
  name: 'get_article',
  title: 'Get an article or solution',
  description:
    'The full markdown body and metadata (title, category, dates, language, tags, page URL) of one blog article or industry solution, by slug. ' +
    'Find slugs with search_articles.',
  input: GetArticleInput,
  output: GetArticleOutput,
  async run({ slug }, { catalog, bodies, origin }) {
    const doc = catalog.document(slug);
    if (!doc) {
      return {
        ok: false,
        message: `No article or solution has the slug "${slug}". Use search_articles to find the right slug (e.g. search for words from its title).`,
      };
    }
    const markdown = await requiredBody(bodies, slug);
    return {
      ok: true,
      data: {
        ...documentEntry(doc, origin),
        ...(doc.type === 'article' && doc.author ? { author: doc.author } : {}),
        ...(doc.type === 'solution' ? { industry: doc.industry, products: doc.products } : {}),
        reading_minutes: doc.readingMinutes,
        markdown,
      },
    };
  },
  read({ markdown, ...meta }) {
    // The body is the text; the data part carries the metadata without repeating it.
    const link: ToolLink = { title: meta.title, url: meta.url, ...(meta.markdown_url ? { markdown_url: meta.markdown_url } : {}) };
    const header = [
      `# ${meta.title}`,
      '',
      `- Page: ${meta.url}`,
      ...(meta.markdown_url ? [`- Markdown: ${meta.markdown_url}`] : []),
      `- ${meta.type}, ${meta.date}, ${meta.lang}, ${meta.reading_minutes} min read`,
    ];
    return { text: `${header.join('\n')}\n\n${markdown}`, links: [link], result: meta };
  },
});
