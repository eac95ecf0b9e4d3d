/**
 * Every content error in one round, each as `file:line: message` in plain text. A file whose front
 * matter is not YAML, or fails its schema, is kept in the store, marked {@link INVALID_ENTRY} with
 * its errors, instead of stopping the content sync at the first one: src/astro/collection-catalog.ts leaves it
 * out and fails the build with every error at once (with the duplicate slugs and the broken
 * references it finds itself); in `npm run dev` src/layouts/Base.astro lists them on every page
 * until the file is fixed. The errors live in the entry, so a build that reuses the stored entry
 * of an unchanged broken file reports it again.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Loader, LoaderContext } from 'astro/loaders';
import { duplicateSlugClaims, recordingSlugClaims } from './astro-glob-duplicate-slugs.ts';
import { reloadingDroppedChanges } from './chokidar-dropped-changes.ts';

/** One thing an author must fix: where (relative to the project root, 1-based line) and what. */
export interface ContentError {
  file: string;
  line: number;
  message: string;
}

/**
 * Whether this is `npm run dev` (Astro sets NODE_ENV there): it lists content errors on its pages
 * instead of stopping. Not import.meta.env.DEV, which a build started with NODE_ENV=test also sets.
 */
export const IN_DEV_SERVER = process.env.NODE_ENV === 'development';

/** The data key of an entry that failed: its {@link ContentError}s. */
export const INVALID_ENTRY = '__invalidEntry';

/** Whether an entry's data failed (unparsable front matter, or its schema). */
export function isInvalid(data: object): boolean {
  return INVALID_ENTRY in data;
}

/** The errors an invalid entry carries (none for a valid one). */
export function entryErrors(data: object): ContentError[] {
  return ((data as Record<string, unknown>)[INVALID_ENTRY] as ContentError[] | undefined) ?? [];
}

/** `file:line: message`, as editors and terminals link it. */
export function formatContentError({ file, line, message }: ContentError): string {
  return `${file}:${line}: ${message}`;
}

/** The whole report: a count, then one error per line, by file and line. */
export function contentErrorReport(errors: readonly ContentError[]): string {
  const sorted = sortedErrors(errors);
  return `${sorted.length} content ${sorted.length === 1 ? 'error' : 'errors'}; fix ${sorted.length === 1 ? 'it' : 'them'} and build again:\n${sorted
    .map(formatContentError)
    .join('\n')}`;
}

/**
 * The error that stops a build on content errors: the report alone. It carries no stack, so
 * Astro prints the list and not a trace through its own modules (an author has nothing to do there).
 */
export function contentErrorsFailure(errors: readonly ContentError[]): Error {
  const failure = new Error(contentErrorReport(errors));
  failure.name = 'ContentError';
  failure.stack = '';
  return failure;
}

/** By file, then line; one error once. */
export function sortedErrors(errors: readonly ContentError[]): ContentError[] {
  const seen = new Set<string>();
  return [...errors]
    .sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.message.localeCompare(b.message))
    .filter((error) => {
      const key = formatContentError(error);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

/** The 1-based line of top-level `key:` in a file's front matter (or YAML file), else of its first line. */
export function keyLine(source: string, key: string, within?: string): number {
  const lines = source.split(/\r?\n/);
  let from = 0;
  let indent = '';
  // A data file (categories.yaml) keys entries at the top level: look for the field inside that entry's block.
  if (within !== undefined) {
    const at = lines.findIndex(
      (line) => line.startsWith(`${within}:`) || line.startsWith(`'${within}':`) || line.startsWith(`"${within}":`),
    );
    if (at === -1) return 1;
    from = at + 1;
    indent = lines[from]?.match(/^\s+/)?.[0] ?? '  ';
    const end = lines.findIndex((line, i) => i >= from && line.trim() !== '' && !line.startsWith(' ') && !line.startsWith('#'));
    const block = lines.slice(from, end === -1 ? undefined : end);
    const found = block.findIndex((line) => line.startsWith(`${indent}${key}:`));
    return found === -1 ? at + 1 : from + found + 1;
  }
  // Only inside the front matter when the file has one: the body may hold `key:` too.
  const end = lines[0] === '---' ? lines.indexOf('---', 1) : -1;
  const frontMatter = end === -1 ? lines : lines.slice(0, end);
  const found = frontMatter.findIndex((line, i) => i >= from && (line.startsWith(`${key}:`) || line === key));
  return found === -1 ? 1 : found + 1;
}

/** A file's text, or '' when it cannot be read (it was deleted meanwhile). */
function readSource(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** The line of `key` in `file` (absolute), 1 when it is not there. */
export function lineOf(file: string, key: string, within?: string): number {
  return keyLine(readSource(file), key, within);
}

/**
 * The issues of Astro's schema error (InvalidContentEntryDataError, whose message is markdown:
 * a `**collection → id**` title, then `  **field**: message` per issue, continued on `>` lines).
 */
export function schemaIssues(message: string): { field: string; message: string }[] {
  const issues: { field: string; message: string }[] = [];
  for (const line of message.split('\n').slice(1)) {
    const issue = /^\s*\*\*(.*?)\*\*: ?(.*)$/.exec(line);
    if (issue) issues.push({ field: issue[1]!, message: plain(issue[2]!) });
    else if (line.trim() && issues.length) issues.at(-1)!.message += `; ${plain(line.trim().replace(/^>\s*/, ''))}`;
  }
  return issues;
}

/** Markdown emphasis and code marks out, so the message reads the same in a terminal and on a page. */
function plain(text: string): string {
  return text.replace(/\*\*/g, '').replace(/`/g, '"');
}

/** What an author reads about a field that failed: `title: Required` becomes a sentence. */
function issueMessage(field: string, issue: string): string {
  // Astro's error map may already start the message with the field's name.
  const message = issue.startsWith(`${field}: `) ? issue.slice(field.length + 2) : issue;
  if (/^(Required|Invalid input: expected \w+, received undefined)$/.test(message)) return `${field}: the field is required`;
  return field ? `${field}: ${message}` : message;
}

/** The errors of one entry that failed its schema, each at the line of its field. */
export function schemaErrors(error: unknown, file: string, relative: string, dataEntryId?: string): ContentError[] {
  const message = error instanceof Error ? error.message : String(error);
  const issues = schemaIssues(message);
  const source = readSource(file);
  if (!issues.length) return [{ file: relative, line: 1, message: plain(message.split('\n')[0] ?? message) }];
  return issues.map(({ field, message: text }) => ({
    file: relative,
    line: keyLine(source, field.split('.')[0]!, dataEntryId),
    message: issueMessage(field, text),
  }));
}

/** Front matter that is not YAML: Astro's MarkdownError carries the YAML line, counted from the line after `---`. */
function frontMatterError(error: unknown, relative: string): ContentError {
  const { message, loc } = error as { message?: string; loc?: { line?: number } };
  const yamlLine = typeof loc?.line === 'number' ? loc.line : undefined;
  return {
    file: relative,
    line: yamlLine === undefined ? 1 : yamlLine + 2,
    message: `the front matter is not valid YAML: ${plain(message ?? String(error)).split('\n')[0]}`,
  };
}

/** What the loader passes besides the typed context: the entry types by extension. */
interface EntryTypeLike {
  getEntryInfo(params: { fileUrl: URL; contents: string }): unknown;
}

/** Entry types that turn a file whose front matter does not parse into an invalid entry instead of a thrown error. */
function keepingUnparsableFiles(context: LoaderContext): LoaderContext {
  const entryTypes = (context as LoaderContext & { entryTypes?: Map<string, EntryTypeLike> }).entryTypes;
  if (!entryTypes) return context;
  const root = fileURLToPath(context.config.root);
  const keeping = new Map(
    [...entryTypes].map(([extension, type]) => [
      extension,
      {
        ...type,
        getEntryInfo: async (params: { fileUrl: URL; contents: string }) => {
          try {
            return await type.getEntryInfo(params);
          } catch (error) {
            const relative = path.relative(root, fileURLToPath(params.fileUrl));
            return { data: { [INVALID_ENTRY]: [frontMatterError(error, relative)] }, body: '', rawData: '' };
          }
        },
      },
    ]),
  );
  return { ...context, entryTypes: keeping } as LoaderContext;
}

/**
 * `loader`, with every failure kept as an invalid entry carrying its errors ({@link INVALID_ENTRY}),
 * so one sync finds them all; its file reloads run one at a time per file, again when a change
 * event was dropped (src/astro/chokidar-dropped-changes.ts), and record the slug each file claims
 * (src/astro/astro-glob-duplicate-slugs.ts: the loader keys entries by slug, so without that a second
 * file with one slug silently replaces the first). src/astro/collection-catalog.ts fails the build on them.
 */
export function reporting(loader: Loader): Loader {
  return {
    ...loader,
    load: (context: LoaderContext) => {
      const root = fileURLToPath(context.config.root);
      const recording = keepingUnparsableFiles(recordingSlugClaims(reloadingDroppedChanges(context)));
      return loader.load({
        ...recording,
        parseData: async (props) => {
          if (isInvalid(props.data)) return props.data; // its front matter did not parse: nothing to validate
          try {
            return await context.parseData(props);
          } catch (error) {
            const file = props.filePath ?? '';
            const relative = file ? path.relative(root, file) : `${context.collection}/${props.id}`;
            // A data file (categories.yaml) holds many entries: each error is looked for inside its entry.
            const dataEntry = /\.(ya?ml|json)$/.test(file) ? props.id : undefined;
            return { ...props.data, [INVALID_ENTRY]: schemaErrors(error, file, relative, dataEntry) } as typeof props.data;
          }
        },
      });
    },
  };
}

/** Slugs two files of one collection claim, as errors at each file's `slug:` line. */
export function duplicateSlugErrors(root: string): ContentError[] {
  return duplicateSlugClaims().flatMap(({ collection, slug, files }) =>
    files.map((file) => ({
      file,
      line: lineOf(path.resolve(root, file), 'slug'),
      message: `${collection}: the slug "${slug}" is also used by ${files.filter((other) => other !== file).join(', ')}; each page needs its own slug`,
    })),
  );
}
