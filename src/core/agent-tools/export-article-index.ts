/**
 * `export_article_index` (scope `content:export`): the whole article and solution index,
 * metadata and URLs, in pages behind an opaque cursor. The call is gated by the server's
 * authorization check (../auth.ts); the paging here is the tool itself.
 * @module
 */
import * as v from 'valibot';
import { LANGS } from '../content/i18n.ts';
import { decodeCursor, encodeCursor } from '../kernel/cursor.ts';
import { DocumentEntrySchema, documentEntry } from './document-entry.ts';
import { defineTool } from './tool.ts';

/** The OAuth scope this tool needs. */
export const EXPORT_SCOPE = 'content:export';
/** Export calls per client and hour (state in Blobs, enforced by mcp/auth.ts); documented in auth.md and the tool description. */
export const EXPORT_RATE_LIMIT = { limit: 60, windowSeconds: 3600 } as const;
/** Index entries per page when `limit` is not given. */
export const DEFAULT_EXPORT_PAGE_SIZE = 100;
/** Upper bound on `limit`. */
export const MAX_EXPORT_PAGE_SIZE = 500;
/**
 * Documents one language-filtered page reads at most: a language with few documents among many
 * cannot make one call read the whole catalogue; the page comes back shorter (possibly empty) with a
 * next_cursor, as MCP pagination allows.
 */
export const MAX_EXPORT_SCAN_DOCUMENTS = 2 * MAX_EXPORT_PAGE_SIZE;

const LIMIT_MESSAGE = `limit must be a whole number from 1 to ${MAX_EXPORT_PAGE_SIZE}`;

export const ExportArticleIndexInput = v.strictObject({
  limit: v.optional(
    v.pipe(
      v.number(LIMIT_MESSAGE),
      v.integer(LIMIT_MESSAGE),
      v.minValue(1, LIMIT_MESSAGE),
      v.maxValue(MAX_EXPORT_PAGE_SIZE, LIMIT_MESSAGE),
      v.description('Entries per page.'),
    ),
    DEFAULT_EXPORT_PAGE_SIZE,
  ),
  cursor: v.optional(
    v.pipe(v.string('cursor must be a string'), v.description('next_cursor from the previous page; omit for the first page.')),
  ),
  lang: v.optional(
    v.pipe(
      v.picklist(LANGS, `lang must be one of ${LANGS.join(', ')}`),
      v.description('Only documents in this language (zh or en); omit for both. Pass the same lang with each cursor.'),
    ),
  ),
});

export const ExportArticleIndexOutput = v.object({
  items: v.array(DocumentEntrySchema),
  total: v.number(),
  next_cursor: v.optional(v.string()),
});

export const exportArticleIndex = defineTool({
  name: 'export_article_index',
  title: 'Export the article index',
  description:
    `Requires an OAuth access token with scope ${EXPORT_SCOPE} (discover the authorization server via /.well-known/oauth-protected-resource/mcp). ` +
    'Exports the metadata and URLs of every published article and solution, newest first, ' +
    `${DEFAULT_EXPORT_PAGE_SIZE} per page by default (at most ${MAX_EXPORT_PAGE_SIZE}); pass next_cursor back as cursor for the next page. ` +
    'With lang (zh or en) only that language: a page may then hold fewer entries than limit; continue while next_cursor is present.',
  input: ExportArticleIndexInput,
  output: ExportArticleIndexOutput,
  requiredScope: EXPORT_SCOPE,
  run({ limit, cursor, lang }, { catalog, origin }) {
    const listed = catalog.documentCount;
    const start = cursor === undefined ? 0 : decodeCursor(cursor);
    if (start === null || start >= listed) {
      return {
        ok: false,
        message: 'Invalid cursor: pass the next_cursor of the previous page unchanged, or omit cursor to start from the first page.',
      };
    }
    // Newest first, as documentsOf orders them: only this page's documents are read.
    if (lang === undefined) {
      const end = Math.min(start + limit, listed);
      const items = catalog.documents(start, end).map((doc) => documentEntry(doc, origin));
      return { ok: true, data: { items, total: listed, ...(end < listed ? { next_cursor: encodeCursor(end) } : {}) } };
    }
    // Filtered: read forward in steps of `limit` until the page is full or the scan bound is reached.
    const items: ReturnType<typeof documentEntry>[] = [];
    const scanEnd = Math.min(start + Math.max(limit, MAX_EXPORT_SCAN_DOCUMENTS), listed);
    let position = start;
    while (items.length < limit && position < scanEnd) {
      const chunk = catalog.documents(position, Math.min(position + limit, scanEnd));
      for (const doc of chunk) {
        position++;
        if (doc.lang !== lang) continue;
        items.push(documentEntry(doc, origin));
        if (items.length === limit) break;
      }
    }
    const total = catalog.documentCountByLang[lang];
    return { ok: true, data: { items, total, ...(position < listed ? { next_cursor: encodeCursor(position) } : {}) } };
  },
});
