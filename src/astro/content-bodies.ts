/**
 * Keeps markdown bodies and their rendered HTML out of Astro's content store. The store is one
 * devalue string, written to disk after every content change, bundled into the build as one module
 * and compiled by Node when pages import it: with bodies and HTML in it, its size and the CPU to
 * serialise and compile it grew with the corpus until it no longer fit in a JavaScript string
 * ("Invalid string length"; figures in BENCHMARKS.md, "Build", and docs/build-scale.md). So a plain `.md` entry is
 * stored with its data, file path and digest only; its body and rendered HTML go to one file per
 * entry and digest in the cache folder ({@link BODY_DIR}), written when the glob loader renders the
 * entry (which it does only when the file's digest changed) and read by the catalogue and the page.
 * MDX entries and markdown with relative images keep Astro's own path: their rendering involves
 * Vite modules and image processing that only `render()` does. docs/build-scale.md has the figures.
 * @module
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Loader, LoaderContext } from 'astro/loaders';
import { parseBuildConfig } from '../core/config.ts';
import { relativeImages } from '../core/content/markdown.ts';

/** Astro's cacheDir (ASTRO_CACHE_DIR), where the body files live: the content config and the pages resolve it alike. */
export const CACHE_DIR = path.resolve(parseBuildConfig(process.env).cacheDir);

/** Folder of the body files, inside Astro's cacheDir: emptied with the store when the code changes (integrations/build-cache.ts). */
export const BODY_DIR = 'content-bodies';

/** A markdown heading, as Astro's renderer reports it. */
export interface Heading {
  depth: number;
  slug: string;
  text: string;
}

/** What an entry's body file holds: the source after its front matter, and the HTML Astro's markdown renderer made of it. */
export interface EntryBody {
  body: string;
  html: string;
  headings: Heading[];
}

/** What the loader hands the store, as far as this module looks at it. */
interface StoredEntry {
  id: string;
  data: Record<string, unknown>;
  body?: string;
  filePath?: string;
  digest?: string | number;
  rendered?: { html: string; metadata?: { headings?: Heading[]; imagePaths?: string[] } };
  deferredRender?: boolean;
}

const safe = (part: string): string => part.replace(/[^A-Za-z0-9._-]/g, (c) => `%${c.charCodeAt(0).toString(16)}`);

/** The body file of one entry of `collection` at one digest. */
export function bodyFile(dir: string, collection: string, id: string, digest: string | number): string {
  return path.join(dir, BODY_DIR, safe(collection), `${safe(id)}.${safe(String(digest))}.json`);
}

/**
 * Whether the store keeps this entry whole: MDX (rendered through Vite modules) and markdown with
 * relative images (`render()` resolves them).
 */
function keepsItsBody(entry: StoredEntry): boolean {
  return (
    !entry.filePath?.endsWith('.md') ||
    entry.deferredRender === true ||
    entry.rendered === undefined ||
    (entry.rendered.metadata?.imagePaths?.length ?? 0) > 0 ||
    relativeImages(entry.body ?? '').length > 0
  );
}

/**
 * `loader` (a glob loader over markdown) with plain `.md` entries stored without body and HTML,
 * which are written to their body file under `cacheDir` instead.
 */
export function bodiesBesideTheStore(loader: Loader, cacheDir: string): Loader {
  return {
    ...loader,
    load: async (context: LoaderContext) => {
      const { store, collection } = context;
      // An entry stored slim whose body file is gone (a cache folder restored in part) must be read and rendered again:
      // the loader skips entries whose digest it already has.
      for (const entry of store.values() as StoredEntry[]) {
        if (entry.body === undefined && entry.rendered === undefined && !entry.deferredRender && entry.digest !== undefined) {
          if (!existsSync(bodyFile(cacheDir, collection, entry.id, entry.digest))) store.delete(entry.id);
        }
      }
      const made = new Set<string>();
      const slim: LoaderContext['store'] = {
        ...store,
        set: (entry) => {
          const full = entry as unknown as StoredEntry;
          if (keepsItsBody(full) || full.digest === undefined) return store.set(entry);
          const file = bodyFile(cacheDir, collection, full.id, full.digest);
          if (!made.has(path.dirname(file))) {
            mkdirSync(path.dirname(file), { recursive: true });
            made.add(path.dirname(file));
          }
          const stored: EntryBody = { body: full.body ?? '', html: full.rendered!.html, headings: full.rendered!.metadata?.headings ?? [] };
          writeFileSync(file, JSON.stringify(stored));
          const { body: _body, rendered: _rendered, ...rest } = entry;
          return store.set(rest);
        },
      };
      await loader.load({ ...context, store: slim });
      pruneBodies(cacheDir, collection, store.values() as StoredEntry[]);
    },
  };
}

/** An entry as `getCollection` and `getEntry` return it, as far as this module reads it. */
export interface LoadedEntry {
  id: string;
  collection: string;
  body?: string | undefined;
  digest?: string | number | undefined;
  rendered?: unknown;
  deferredRender?: boolean | undefined;
}

/** Whether the store keeps `entry` without its body, which is in its body file (plain markdown without images). */
export function storedSlim(entry: LoadedEntry): entry is LoadedEntry & { digest: string | number } {
  return entry.body === undefined && entry.rendered === undefined && !entry.deferredRender && entry.digest !== undefined;
}

/**
 * The key of what is derived from a slim entry's source alone (its body, its search terms): its collection, id and
 * digest, and the origin its links are written with.
 */
export function sourceKey(collection: string, id: string, digest: string | number, origin: string): string {
  return `${collection}/${id} ${digest} ${origin}`;
}

/**
 * The catalogue's bodies between builds (src/astro/collection-catalog.ts): each slim entry's twin markdown and reading
 * minutes, by its digest and the origin, in a line cache (src/astro/line-cache.ts) in the build cache.
 */
export const CATALOG_BODIES_FILE = 'catalog-bodies.ndjson';

/**
 * The body file of `entry`, or undefined when the store holds the entry whole (MDX, images):
 * then `entry.body` and `render(entry)` serve as usual.
 */
export function slimBody(entry: LoadedEntry, cacheDir: string): EntryBody | undefined {
  if (!storedSlim(entry)) return undefined;
  const file = bodyFile(cacheDir, entry.collection, entry.id, entry.digest);
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as EntryBody;
  } catch (error) {
    throw new Error(
      `${entry.collection} "${entry.id}": its body file ${file} is missing or unreadable (the cache folder was changed during the build?); build again`,
      { cause: error },
    );
  }
}

/** Deletes the body files of `collection` that no entry of `current` names (old digests, removed entries). */
function pruneBodies(cacheDir: string, collection: string, current: readonly StoredEntry[]): void {
  const folder = path.dirname(bodyFile(cacheDir, collection, 'x', 'x'));
  if (!existsSync(folder)) return;
  const keep = new Set(
    current.filter((e) => e.digest !== undefined).map((e) => path.basename(bodyFile(cacheDir, collection, e.id, e.digest!))),
  );
  for (const name of readdirSync(folder)) if (!keep.has(name)) rmSync(path.join(folder, name), { force: true });
}
