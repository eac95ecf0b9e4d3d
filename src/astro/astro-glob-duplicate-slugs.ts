/**
 * Workaround for Astro's `glob()` loader keying entries by their `slug` and letting a later file
 * overwrite an earlier one with the same slug (https://github.com/withastro/astro/issues/14846).
 * Astro 7.3 only warns (unless `prerenderConflictBehavior: 'error'`), and its check reads the store
 * before an awaited schema parse, so two new files parsed side by side never see each other: the
 * build exits 0 and one article silently replaces the other. Here every file the loader reads is
 * recorded with the slug it claims (through the entry type's `getEntryInfo`, which the loader calls
 * for every file, changed or not), so a slug claimed by two files is known whatever the order.
 * src/astro/collection-catalog.ts fails the build on {@link duplicateSlugClaims}, naming both files at their `slug:` lines.
 * @module
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LoaderContext } from 'astro/loaders';

/** A slug that more than one file of a collection claims. */
export interface DuplicateSlug {
  collection: string;
  slug: string;
  /** Every file that claims it, relative to the project root, sorted. */
  files: string[];
}

/** What the loader passes besides the typed context: the entry types by extension (glob.js destructures it). */
interface EntryTypeLike {
  getEntryInfo(params: { fileUrl: URL; contents: string }): unknown;
}

/** Shared through globalThis: the content layer and page rendering may load this module separately. */
const shared = globalThis as { __siteSlugClaims?: Map<string, { root: string; claims: Map<string, string> }> };
/** Per collection: the project root, and each file (absolute path) with the slug it claims. */
shared.__siteSlugClaims ??= new Map();
const claimsByCollection = shared.__siteSlugClaims;

/**
 * The loader context with entry types that record, for `context.collection`, which slug each file
 * claims. Call once per `load()`: the collection's earlier claims are dropped (a full load reads
 * every file again); in `npm run dev` the watcher's later reads update them file by file.
 */
export function recordingSlugClaims(context: LoaderContext): LoaderContext {
  const entryTypes = (context as LoaderContext & { entryTypes?: Map<string, EntryTypeLike> }).entryTypes;
  if (!entryTypes) return context; // a loader that reads no files (file(), inline data)
  const claims = new Map<string, string>();
  claimsByCollection.set(context.collection, { root: fileURLToPath(context.config.root), claims });
  const recording = new Map(
    [...entryTypes].map(([extension, type]) => [
      extension,
      {
        ...type,
        getEntryInfo: async (params: { fileUrl: URL; contents: string }) => {
          const info = (await type.getEntryInfo(params)) as { data?: Record<string, unknown> };
          const slug = info.data?.slug;
          const file = fileURLToPath(params.fileUrl);
          // Without a slug the glob loader keys the entry by its path, which cannot clash; the schema reports the missing field.
          if (typeof slug === 'string' && slug) claims.set(file, slug);
          else claims.delete(file);
          return info;
        },
      },
    ]),
  );
  return { ...context, entryTypes: recording, logger: withoutDuplicateSlugWarnings(context.logger) } as LoaderContext;
}

/**
 * The loader's logger without its duplicate-slug warning (markdown in a terminal, paths from the
 * project root, and only some clashes): src/astro/collection-catalog.ts reports every clash, at each file's line.
 */
function withoutDuplicateSlugWarnings(logger: LoaderContext['logger']): LoaderContext['logger'] {
  return new Proxy(logger, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (property !== 'warn' || typeof value !== 'function') return typeof value === 'function' ? value.bind(target) : value;
      return (message: string) => {
        if (!message.includes('contains multiple entries with the same slug')) value.call(target, message);
      };
    },
  });
}

/** Slugs claimed by more than one existing file, per collection (a file deleted in `npm run dev` no longer counts). */
export function duplicateSlugClaims(): DuplicateSlug[] {
  const duplicates: DuplicateSlug[] = [];
  for (const [collection, { root, claims }] of claimsByCollection) {
    const filesBySlug = new Map<string, string[]>();
    for (const [file, slug] of claims) filesBySlug.set(slug, [...(filesBySlug.get(slug) ?? []), file]);
    for (const [slug, files] of filesBySlug) {
      const existing = files.filter((file) => existsSync(file)).map((file) => path.relative(root, file));
      if (existing.length > 1) duplicates.push({ collection, slug, files: existing.sort() });
    }
  }
  return duplicates.sort((a, b) => a.collection.localeCompare(b.collection) || a.slug.localeCompare(b.slug));
}
