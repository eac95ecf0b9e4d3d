/**
 * The metadata of an article or solution as the MCP tools return it, with its schema: one shape
 * shared by `get_article` and `export_article_index`.
 * @module
 */
import * as v from 'valibot';
import type { DocumentMeta } from '../content/catalog.ts';
import { absoluteUrl, twinPathOf } from '../kernel/paths.ts';

export const DocumentEntrySchema = v.object({
  type: v.picklist(['article', 'solution']),
  slug: v.string(),
  title: v.string(),
  category: v.string(),
  date: v.string(),
  updated: v.optional(v.string()),
  lang: v.picklist(['zh', 'en']),
  tags: v.array(v.string()),
  excerpt: v.string(),
  url: v.string(),
  markdown_url: v.optional(v.string()),
});
export type DocumentEntry = v.InferOutput<typeof DocumentEntrySchema>;

/** A document's entry with absolute page and markdown-twin URLs. */
export function documentEntry(doc: DocumentMeta, origin: string): DocumentEntry {
  const twin = twinPathOf(doc.path);
  return {
    type: doc.type,
    slug: doc.slug,
    title: doc.title,
    category: doc.category,
    date: doc.date,
    ...(doc.updated ? { updated: doc.updated } : {}),
    lang: doc.lang,
    tags: doc.tags,
    excerpt: doc.excerpt,
    url: absoluteUrl(origin, doc.path),
    ...(twin ? { markdown_url: absoluteUrl(origin, twin) } : {}),
  };
}
