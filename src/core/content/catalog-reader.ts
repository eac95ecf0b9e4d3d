/**
 * The catalogue without bodies as the MCP server, the agent tools and the A2A agent read it: by
 * slug, by range in newest-first order, or whole. Two implementations: {@link inMemoryCatalog} over
 * a {@link CatalogIndex} (tests, in-process callers), and {@link loadShardedCatalog} over the
 * build's files (catalog-shards.ts), which reads only the files an answer needs: a cold
 * `resources/list` page reads the head and one documents file, a cold `get_article` the head, one
 * slug file and one documents file, where reading, parsing and indexing the whole catalogue cost a
 * cold instance several times an `initialize` (BENCHMARKS.md, "Cold start and bundle sizes").
 * @module
 */
import { documentsOf, type CatalogIndex, type Lang } from './catalog.ts';
import {
  CATALOG_HEAD_FILE,
  CATALOG_SHARDS_VERSION,
  catalogDocumentsFile,
  catalogSlugsFile,
  countByLang,
  slugFileOf,
  type CatalogDocument,
  type CatalogDocumentsFile,
  type CatalogFileStamp,
  type CatalogHead,
  type CatalogSlugsFile,
} from './catalog-shards.ts';

/**
 * A catalogue without bodies. Its lists are fixed for a deploy. Every document's page is its
 * kind's page path (`paths.article(slug)`, `paths.solution(slug)`): the build checks it, so a
 * document can be found from its URL's last segment.
 */
export interface CatalogReader extends Readonly<Omit<CatalogIndex, 'articles' | 'solutions'>> {
  /** Number of articles and solutions. */
  readonly documentCount: number;
  /** Of those, how many are in each language. */
  readonly documentCountByLang: Readonly<Record<Lang, number>>;
  /** The article or solution with this slug (slugs are unique across both). */
  document(slug: string): CatalogDocument | undefined;
  /** Documents `[start, end)` in {@link documentsOf} order (newest first), the range clamped to `[0, documentCount]`. */
  documents(start: number, end: number): CatalogDocument[];
  /**
   * The whole catalogue index, each list newest first. Reads every documents file: for the few
   * answers that need all documents (a category's listing), never on a cold list or read.
   */
  all(): CatalogIndex;
}

/** A reader over a catalogue index in memory. */
export function inMemoryCatalog(index: CatalogIndex): CatalogReader {
  let ordered: CatalogDocument[] | undefined;
  let bySlug: Map<string, CatalogDocument> | undefined;
  const inOrder = (): CatalogDocument[] => (ordered ??= documentsOf(index));
  return {
    origin: index.origin,
    company: index.company,
    categories: index.categories,
    products: index.products,
    get documentCount() {
      return inOrder().length;
    },
    get documentCountByLang() {
      return countByLang(inOrder());
    },
    document(slug) {
      if (!bySlug) {
        bySlug = new Map();
        // Articles first, as a scan of articles then solutions would find them.
        for (const doc of [...index.articles, ...index.solutions]) if (!bySlug.has(doc.slug)) bySlug.set(doc.slug, doc);
      }
      return bySlug.get(slug);
    },
    documents: (start, end) => inOrder().slice(Math.max(0, start), Math.max(0, end)),
    all: () => index,
  };
}

/**
 * Reads one file of the sharded catalogue by name (`head.json`, `docs-3.json`) and returns its
 * bytes; throws if it cannot. Synchronous, as the search index's loader: the Netlify adapter reads
 * files shipped beside the function, where a read takes microseconds.
 */
export type CatalogFileLoader = (file: string) => Uint8Array;

const UTF8 = new TextDecoder();

/**
 * A reader over the sharded catalogue: reads the head now, every other file on first need, and
 * keeps what it read for its life. Throws if the head is not this version's; a read throws if a
 * file is missing or from another build.
 *
 * @example
 * const catalog = loadShardedCatalog((file) => readFileSync(new URL(file, catalogDir)));
 * catalog.document('vllm-on-kubernetes');
 */
export function loadShardedCatalog(load: CatalogFileLoader): CatalogReader {
  return new ShardedCatalog(load);
}

class ShardedCatalog implements CatalogReader {
  readonly origin: string;
  readonly company: CatalogHead['company'];
  readonly categories: CatalogHead['categories'];
  readonly products: CatalogHead['products'];
  readonly documentCount: number;
  readonly documentCountByLang: Readonly<Record<Lang, number>>;
  private readonly load: CatalogFileLoader;
  private readonly hash: string;
  private readonly documentsPerFile: number;
  private readonly slugFiles: number;
  private readonly documentFiles = new Map<number, CatalogDocument[]>();
  private readonly slugMaps = new Map<number, Map<string, number>>();
  private whole: CatalogIndex | undefined;

  constructor(load: CatalogFileLoader) {
    this.load = load;
    const head = this.readJson<CatalogHead>(CATALOG_HEAD_FILE);
    if (head.v !== CATALOG_SHARDS_VERSION) throw new Error(`catalogue: version ${String(head.v)}, expected ${CATALOG_SHARDS_VERSION}`);
    for (const key of ['documents', 'documentsPerFile', 'slugFiles'] as const) {
      if (!Number.isInteger(head[key]) || head[key] < (key === 'documents' ? 0 : 1)) throw new Error(`catalogue: bad ${key} in the head`);
    }
    this.hash = head.hash;
    this.origin = head.origin;
    this.company = head.company;
    this.categories = head.categories;
    this.products = head.products;
    this.documentCount = head.documents;
    this.documentCountByLang = head.documentsByLang;
    this.documentsPerFile = head.documentsPerFile;
    this.slugFiles = head.slugFiles;
  }

  document(slug: string): CatalogDocument | undefined {
    const k = slugFileOf(slug, this.slugFiles);
    let positions = this.slugMaps.get(k);
    if (!positions) {
      const file = this.readStamped<CatalogSlugsFile>(catalogSlugsFile(k));
      if (!Array.isArray(file.slugs) || !Array.isArray(file.at) || file.slugs.length !== file.at.length)
        throw new Error(`catalogue: ${catalogSlugsFile(k)}: slugs and positions differ in length`);
      positions = new Map(file.slugs.map((s, i) => [s, file.at[i]!]));
      this.slugMaps.set(k, positions);
    }
    const at = positions.get(slug);
    return at === undefined ? undefined : this.documentAt(at);
  }

  documents(start: number, end: number): CatalogDocument[] {
    const clamp = (i: number): number => Math.max(0, Math.min(i, this.documentCount));
    const from = clamp(start);
    return Array.from({ length: Math.max(0, clamp(end) - from) }, (_, i) => this.documentAt(from + i));
  }

  all(): CatalogIndex {
    if (!this.whole) {
      const docs = this.documents(0, this.documentCount);
      this.whole = {
        origin: this.origin,
        company: this.company,
        categories: this.categories,
        products: this.products,
        articles: docs.filter((d) => d.type === 'article'),
        solutions: docs.filter((d) => d.type === 'solution'),
      };
    }
    return this.whole;
  }

  /** The document at a position in newest-first order, its documents file read on first need. */
  private documentAt(at: number): CatalogDocument {
    const k = Math.floor(at / this.documentsPerFile);
    let docs = this.documentFiles.get(k);
    if (!docs) {
      const name = catalogDocumentsFile(k);
      const file = this.readStamped<CatalogDocumentsFile>(name);
      const count = Math.min(this.documentsPerFile, this.documentCount - k * this.documentsPerFile);
      if (file.first !== k * this.documentsPerFile) throw new Error(`catalogue: ${name} starts at the wrong document`);
      const columns = Object.entries(file.columns ?? {});
      if (columns.some(([, values]) => !Array.isArray(values) || values.length !== count))
        throw new Error(`catalogue: ${name}: a column does not have ${count} entries`);
      docs = Array.from({ length: count }, (_, i) => {
        const doc: Record<string, unknown> = {};
        for (const [field, values] of columns) if (values[i] !== null) doc[field] = values[i];
        return doc as unknown as CatalogDocument;
      });
      this.documentFiles.set(k, docs);
    }
    const doc = docs[at - k * this.documentsPerFile];
    if (!doc) throw new Error(`catalogue: no document at ${at}`);
    return doc;
  }

  private readJson<T>(file: string): T {
    const data = JSON.parse(UTF8.decode(this.load(file))) as T;
    if (typeof data !== 'object' || data === null) throw new Error(`catalogue: ${file} is not an object`);
    return data;
  }

  /** Reads a JSON file, refusing one of another build than the head's. */
  private readStamped<T extends CatalogFileStamp>(file: string): T {
    const data = this.readJson<T>(file);
    if (data.v !== CATALOG_SHARDS_VERSION || data.hash !== this.hash)
      throw new Error(
        `catalogue: ${file} is not from the same build as ${CATALOG_HEAD_FILE} (hash ${String(data.hash)}, expected ${this.hash})`,
      );
    return data;
  }
}
