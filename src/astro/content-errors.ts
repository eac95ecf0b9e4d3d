/**
 * Authoring feedback in `npm run dev`: a content file whose front matter fails its schema is
 * reported on every page (src/layouts/Base.astro shows the list) as well as in the terminal, until
 * the file is fixed. Astro's loaders log such errors and keep the last good entry, so without this
 * an author sees nothing in the browser.
 */
import type { Loader, LoaderContext } from 'astro/loaders';
import { duplicateSlugClaims, recordingSlugClaims } from './astro-glob-duplicate-slugs.ts';

export interface ContentError {
  file: string;
  message: string;
}

/** Shared through globalThis: the content layer and page rendering load this module separately in dev. */
const shared = globalThis as { __siteContentErrors?: Map<string, string> };
shared.__siteContentErrors ??= new Map<string, string>();
const registry = shared.__siteContentErrors;

/** Whether an entry's data failed its schema (dev only). */
export function isInvalid(data: object): boolean {
  return INVALID_ENTRY in data;
}

/** Front-matter errors not fixed yet, by file, and slugs that two files claim (the later would replace the earlier). */
export function contentErrors(): ContentError[] {
  return [
    ...[...registry].map(([file, message]) => ({ file, message })),
    ...duplicateSlugClaims().map(({ collection, slug, files }) => ({
      file: files.at(-1)!,
      message: duplicateSlugMessage(collection, slug, files),
    })),
  ];
}

/** What an author reads about a slug two files of one collection claim. */
export function duplicateSlugMessage(collection: string, slug: string, files: readonly string[]): string {
  return `${collection}: the slug "${slug}" is used by ${files.length} files (${files.join(', ')}); each page needs its own slug`;
}

/** Marks an entry whose front matter failed its schema; only `npm run dev` lets such entries through. */
export const INVALID_ENTRY = '__invalidEntry';

/**
 * `loader`, with every schema failure recorded (and cleared when the file parses again). In dev
 * (`keepGoing`), a failing entry is kept, unvalidated and marked {@link INVALID_ENTRY}, instead of
 * stopping the server at start: src/astro/collection-catalog.ts leaves it out and the page banner names the error.
 * The build still fails on it. Every file's slug is recorded too (src/astro/astro-glob-duplicate-slugs.ts): the
 * loader keys entries by slug, so without that a second file with one slug silently replaces the first.
 */
// NODE_ENV, not import.meta.env.DEV: `astro build` syncs content through a dev-mode Vite server too.
export function reporting(loader: Loader, keepGoing = process.env.NODE_ENV === 'development'): Loader {
  return {
    ...loader,
    load: (context: LoaderContext) =>
      loader.load({
        ...recordingSlugClaims(context),
        parseData: async (props) => {
          const key = props.filePath ?? `${context.collection}/${props.id}`;
          try {
            const data = await context.parseData(props);
            registry.delete(key);
            return data;
          } catch (error) {
            registry.set(key, error instanceof Error ? error.message : String(error));
            if (!keepGoing) throw error;
            return { ...props.data, [INVALID_ENTRY]: true } as typeof props.data;
          }
        },
      }),
  };
}
