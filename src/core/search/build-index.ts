/**
 * Build side of site search: turns the searchable documents into a {@link SearchIndexData} object
 * (docs/reference/search.md §4). Runs during the site build; the output is plain JSON.
 * @module
 */
import { byNewest, duplicateSlugs, type Document } from '../content/catalog.ts';
import { ContentHash } from '../kernel/content-hash.ts';
import { ByteWriter, encodeBase64, encodeUint32Base64 } from './codec.ts';
import {
  MAX_INLINE_BODY_TF,
  POSTING_GAP_MULTIPLIER,
  SEARCH_INDEX_MODE,
  SEARCH_INDEX_VERSION,
  type DocumentType,
  type SearchIndexData,
} from './index-data.ts';
import { markdownToSearchText } from './markdown-text.ts';
import { forEachToken, type TokenKind } from './tokenize.ts';

export type { SearchIndexData } from './index-data.ts';

/** Per-term postings while building: flat (docId, tfBody, tfTitle) triples in ascending doc order. */
type PostingsBuilder = number[];

/**
 * Builds the search index over `docs` (articles and solutions).
 *
 * Indexed fields: the title, and a body made of the excerpt, the tags and the markdown text (code
 * included, URLs and markup dropped). Stored fields: slug, title, category, date, excerpt, type,
 * path, lang. Documents are ordered newest first (then by slug), which is also the tie-break order
 * of equal scores at query time. Throws if two documents share a slug.
 *
 * @example
 * const data = buildSearchIndex(documentsOf(catalog));
 * await writeFile('generated/search-index.json', serializeSearchIndex(data));
 */
export function buildSearchIndex(docs: readonly Document[]): SearchIndexData {
  const dupes = duplicateSlugs(docs);
  if (dupes.length > 0) throw new Error(`search index: duplicate slugs: ${dupes.join(', ')}`);
  const sorted = [...docs].sort(byNewest);
  const count = sorted.length;

  const termIds = new Map<string, number>();
  const postings: PostingsBuilder[] = [];
  const lexicon = new Set<string>();
  const lenB = new Uint32Array(count);
  const lenT = new Uint32Array(count);
  const tfBody = new Map<number, number>();
  const tfTitle = new Map<number, number>();

  const termId = (term: string): number => {
    let id = termIds.get(term);
    if (id === undefined) {
      id = postings.length;
      termIds.set(term, id);
      postings.push([]);
    }
    return id;
  };
  const counter =
    (tf: Map<number, number>) =>
    (term: string, _kind: TokenKind, word: string | null): void => {
      const id = termId(term);
      tf.set(id, (tf.get(id) ?? 0) + 1);
      if (word !== null) lexicon.add(word);
    };
  const countTitle = counter(tfTitle);
  const countBody = counter(tfBody);

  for (let doc = 0; doc < count; doc++) {
    const d = sorted[doc]!;
    tfBody.clear();
    tfTitle.clear();
    forEachToken(d.title, countTitle);
    forEachToken(searchableBody(d), countBody);
    for (const n of tfTitle.values()) lenT[doc]! += n;
    for (const n of tfBody.values()) lenB[doc]! += n;
    for (const [id, tb] of tfBody) postings[id]!.push(doc, tb, tfTitle.get(id) ?? 0);
    for (const [id, tt] of tfTitle) if (!tfBody.has(id)) postings[id]!.push(doc, 0, tt);
  }

  const terms = [...termIds.keys()].sort(compareCodeUnits);
  const offsets = new Uint32Array(terms.length + 1);
  const writer = new ByteWriter();
  terms.forEach((term, i) => {
    offsets[i] = writer.length;
    const list = postings[termIds.get(term)!]!;
    writer.writeVarint(list.length / 3);
    let previous = 0;
    for (let p = 0; p < list.length; p += 3) {
      const gap = list[p]! - previous;
      const tfBody = list[p + 1]!;
      const tfTitle = list[p + 2]!;
      if (tfTitle === 0 && tfBody >= 1 && tfBody <= MAX_INLINE_BODY_TF) {
        writer.writeVarint(gap * POSTING_GAP_MULTIPLIER + tfBody);
      } else {
        writer.writeVarint(gap * POSTING_GAP_MULTIPLIER);
        writer.writeVarint(tfBody);
        writer.writeVarint(tfTitle);
      }
      previous = list[p]!;
    }
  });
  offsets[terms.length] = writer.length;

  const tables = {
    category: [...new Set(sorted.map((d) => d.category))].sort(compareCodeUnits),
    type: ['article', 'solution'] as DocumentType[],
    lang: ['zh', 'en'] as SearchIndexData['tables']['lang'],
  };
  const sum = (values: Uint32Array): number => values.reduce((a, b) => a + b, 0);

  return {
    v: SEARCH_INDEX_VERSION,
    mode: SEARCH_INDEX_MODE,
    hash: contentHash(sorted),
    N: count,
    avgB: count === 0 ? 0 : sum(lenB) / count,
    avgT: count === 0 ? 0 : sum(lenT) / count,
    docs: {
      slug: sorted.map((d) => d.slug),
      title: sorted.map((d) => d.title),
      date: sorted.map((d) => d.date),
      excerpt: sorted.map((d) => d.excerpt),
      path: sorted.map((d) => d.path),
      category: sorted.map((d) => tables.category.indexOf(d.category)),
      type: sorted.map((d) => tables.type.indexOf(d.type)),
      lang: sorted.map((d) => tables.lang.indexOf(d.lang)),
    },
    tables,
    lenB: encodeUint32Base64(lenB),
    lenT: encodeUint32Base64(lenT),
    terms,
    off: encodeUint32Base64(offsets),
    post: encodeBase64(writer.toBytes()),
    lex: [...lexicon].sort(compareCodeUnits),
  };
}

/** Any UTF-16 code unit outside ASCII. */
const NON_ASCII = /[\u0080-\uffff]/g;

/**
 * Serialises an index as JSON text made only of ASCII characters (non-ASCII characters become
 * `\uXXXX` escapes). `JSON.parse` returns the same object as for `JSON.stringify(data)`, but
 * reading the file is faster: UTF-8 decoding of pure ASCII and `JSON.parse` of a one-byte string
 * take V8's fast paths (about half the load time at 10,000 documents). Costs ≈1% more gzip bytes.
 *
 * @example
 * await writeFile('generated/search-index.json', serializeSearchIndex(buildSearchIndex(docs)));
 */
export function serializeSearchIndex(data: SearchIndexData): string {
  return toAsciiJson(data);
}

/** JSON text of `value` with every non-ASCII character escaped (see {@link serializeSearchIndex}): also the sharded index's files. */
export function toAsciiJson(value: unknown): string {
  return JSON.stringify(value).replace(NON_ASCII, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The indexed body text: excerpt, tags and the markdown with markup stripped. */
function searchableBody(doc: Document): string {
  return `${doc.excerpt}\n${doc.tags.join('\n')}\n${markdownToSearchText(doc.markdown)}`;
}

/** Plain UTF-16 code-unit order: the order binary search at query time relies on (not locale order). */
function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The content hash ({@link ContentHash}) of the index version and every indexed or stored field, as 16 hex digits. */
function contentHash(docs: readonly Document[]): string {
  const hash = new ContentHash().field(`v${SEARCH_INDEX_VERSION}:${SEARCH_INDEX_MODE}`);
  for (const d of docs) {
    for (const field of [d.type, d.slug, d.title, d.category, d.date, d.excerpt, d.lang, d.path, d.tags.join('\n'), d.markdown])
      hash.field(field);
  }
  return hash.hex();
}
