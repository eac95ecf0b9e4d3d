/**
 * Every content error in one round, each as `file:line: message` in plain text. A file whose front
 * matter is not YAML, or fails its schema, is kept in the store, marked {@link INVALID_ENTRY} with
 * its errors, instead of stopping the content sync at the first one: src/astro/collection-catalog.ts leaves it
 * out and fails the build with every error at once (with the duplicate slugs and the broken
 * references it finds itself); in `npm run dev` src/layouts/Base.astro lists them on every page
 * until the file is fixed. The errors live in the entry, so a build that reuses the stored entry
 * of an unchanged broken file reports it again. A data file (content/*.yaml) that does not parse
 * is kept the same way, as one invalid entry ({@link dataFile}).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { load as loadYaml, YAMLException } from 'js-yaml';
import { type ParseError, parse as parseJsonc } from 'jsonc-parser';
import { file, type Loader, type LoaderContext } from 'astro/loaders';
import { parseTweetFeed, type TweetFeed } from '../core/tweets/tweets.ts';
import { duplicateSlugClaims, recordingSlugClaims } from './astro-glob-duplicate-slugs.ts';
import { reloadingDroppedChanges } from './chokidar-dropped-changes.ts';
import { mdxErrors, tsconfigAliases } from './mdx-errors.ts';
import { missingImageErrors, type StoredEntryLike, unmarked } from './missing-images.ts';

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

/**
 * The data key that marks an entry the store found invalid as it was stored (a missing image, an MDX body that does not
 * compile or imports a file that is not there): it is read again on the next sync, in case the file it needs came.
 */
export const INVALID_WHEN_STORED = '__invalidWhenStored';

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

/**
 * What an author reads about a field that failed: `title: Required` becomes a sentence, and so does any issue of a
 * top-level field the entry's `data` does not have (`category: Did not match union.; Required` for a reference,
 * `lang: Invalid option: …` for an enum: one cause, one wording).
 */
function issueMessage(field: string, issue: string, data?: object): string {
  // Astro's error map may already start the message with the field's name.
  const message = issue.startsWith(`${field}: `) ? issue.slice(field.length + 2) : issue;
  const absent = data !== undefined && field !== '' && !field.includes('.') && !(field in data);
  if (absent || /^(Required|Invalid input: expected \w+, received undefined)$/.test(message)) return `${field}: the field is required`;
  return field ? `${field}: ${message}` : message;
}

/** The errors of one entry that failed its schema, each at the line of its field; `data` is what the entry holds. */
export function schemaErrors(error: unknown, file: string, relative: string, dataEntryId?: string, data?: object): ContentError[] {
  const message = error instanceof Error ? error.message : String(error);
  const issues = schemaIssues(message);
  const source = readSource(file);
  if (!issues.length) return [{ file: relative, line: 1, message: plain(message.split('\n')[0] ?? message) }];
  return issues.map(({ field, message: text }) => ({
    file: relative,
    line: keyLine(source, field.split('.')[0]!, dataEntryId),
    message: issueMessage(field, text, data),
  }));
}

/** Front matter as Astro finds it (@astrojs/internal-helpers extractFrontmatter): `---` (or TOML's `+++`) first, closed. */
const FRONT_MATTER = /(?:^\uFEFF?|^\s*\n)(?:---|\+\+\+)[\s\S]*?\n(?:---|\+\+\+)/;

/**
 * The one error of a markdown file without front matter (or empty), instead of one per field the schema requires:
 * what a file starts with, naming the fields it lacks (`required`, the fields whose issues say so), or undefined when
 * `source` has front matter.
 */
export function noFrontMatterError(source: string, relative: string, required: readonly string[]): ContentError | undefined {
  if (FRONT_MATTER.test(source)) return undefined;
  const fields = required.length ? ` (${required.join(', ')})` : '';
  return {
    file: relative,
    line: 1,
    message: `${source.trim() === '' ? 'the file is empty' : 'no front matter'}: a content file starts with a "---" line, its fields${fields}, then a "---" line`,
  };
}

/**
 * The 1-based line (within `yaml`, up to `before` when given) of the first value that opens a quote and does not close
 * it on its line (`title: "Broken`, `- 'It's`), or 0. YAML reads such a value on over the following lines and reports
 * the error where the text stops making sense, often several lines further on; a quoted value that really goes on over
 * lines is rare in front matter, and this is looked for only once the YAML failed.
 */
export function unclosedQuoteLine(yaml: string, before = Number.POSITIVE_INFINITY): number {
  const lines = yaml.split(/\r?\n/);
  for (let i = 0; i < lines.length && i < before; i++) {
    const value = /^\s*(?:-\s+)?(?:[^\s#"'][^:#]*:\s+|-\s*)?(["'])(.*)$/.exec(lines[i]!);
    if (!value || /^\s*#/.test(lines[i]!)) continue;
    const [, quote, rest] = value as unknown as [string, string, string];
    // In a double-quoted value `\"` is escaped; in a single-quoted one `''` is.
    const closes = quote === '"' ? rest.replace(/\\./g, '').includes('"') : rest.replace(/''/g, '').includes("'");
    if (!closes) return i + 1;
  }
  return 0;
}

/**
 * Front matter that is not YAML: Astro's MarkdownError carries the YAML line, counted from the line after `---`. A
 * value whose quote is never closed is reported at the line that opens it, with where YAML gave up.
 */
function frontMatterError(error: unknown, relative: string, contents = ''): ContentError {
  const { message, loc } = error as { message?: string; loc?: { line?: number } };
  const yamlLine = typeof loc?.line === 'number' ? loc.line : undefined;
  const line = yamlLine === undefined ? 1 : yamlLine + 2;
  const reason = plain(message ?? String(error)).split('\n')[0];
  const lines = contents.split(/\r?\n/);
  const end = lines[0] === '---' ? lines.indexOf('---', 1) : -1;
  const opens = end === -1 ? 0 : unclosedQuoteLine(lines.slice(1, end).join('\n'), line - 1);
  if (opens && opens + 1 < line)
    return {
      file: relative,
      line: opens + 1,
      message: `the front matter is not valid YAML: a quoted value starts here and is not closed on its line (YAML read on to line ${line}: ${reason})`,
    };
  return { file: relative, line, message: `the front matter is not valid YAML: ${reason}` };
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
            return { data: { [INVALID_ENTRY]: [frontMatterError(error, relative, params.contents)] }, body: '', rawData: '' };
          }
        },
      },
    ]),
  );
  return { ...context, entryTypes: keeping } as LoaderContext;
}

/**
 * The errors of the entries each collection stored in this sync, by file (and id, for a data file's entries): shared
 * through globalThis, as the content layer and page rendering may load this module separately. The glob loader keys
 * entries by slug, so a file whose slug another file claims may be replaced in the store by that file's entry, and its
 * own errors (a `lang: fr` beside the duplicate slug) with it; kept here, they are reported in the same round.
 */
const sharedErrors = globalThis as { __siteStoredEntryErrors?: Map<string, { root: string; errors: Map<string, ContentError[]> }> };
sharedErrors.__siteStoredEntryErrors ??= new Map();
const storedErrorsByCollection = sharedErrors.__siteStoredEntryErrors;

/** The errors of every entry stored with errors in this sync whose file still exists (a file deleted in `npm run dev` no longer counts). */
export function storedEntryErrors(): ContentError[] {
  return [...storedErrorsByCollection.values()].flatMap(({ root, errors }) =>
    [...errors.values()].flat().filter((error) => existsSync(path.resolve(root, error.file))),
  );
}

/** Where an entry's errors are kept: a markdown entry by its file (its slug may be another file's), a data entry by id too. */
function errorKey(entry: { id: string; filePath?: string | undefined }): string {
  return entry.filePath && /\.mdx?$/.test(entry.filePath) ? entry.filePath : `${entry.filePath ?? ''}\0${entry.id}`;
}

/**
 * The store `context` writes to, checking each entry's images as it is stored ({@link missingImageErrors}: one
 * missing is an error of the entry, which is then stored invalid and imports nothing) and an MDX entry's body
 * ({@link mdxErrors}: an entry whose body would stop Vite's bundling or its page's rendering is stored the same way,
 * without its module import), and recording the errors of each entry stored ({@link storedEntryErrors}). A stored
 * entry so marked ({@link INVALID_WHEN_STORED}) is read again on each sync.
 */
function checkingStore(context: LoaderContext): LoaderContext {
  const { store } = context;
  const root = fileURLToPath(context.config.root);
  const errors = new Map<string, ContentError[]>();
  storedErrorsByCollection.set(context.collection, { root, errors });
  let aliases: ReturnType<typeof tsconfigAliases> | undefined;
  const checked: LoaderContext['store'] = {
    ...store,
    get: <TData extends Record<string, unknown>>(id: string) => {
      const entry = store.get<TData>(id);
      return entry && INVALID_WHEN_STORED in entry.data ? undefined : entry;
    },
    set: <TData extends Record<string, unknown>>(entry: Parameters<LoaderContext['store']['set']>[0] & { data: TData }) => {
      const isMdxEntry = Boolean(entry.filePath?.endsWith('.mdx'));
      if (isMdxEntry) aliases ??= tsconfigAliases(root);
      const missing = [
        ...missingImageErrors(entry as StoredEntryLike, root),
        ...(isMdxEntry ? mdxErrors(entry as StoredEntryLike, root, aliases) : []),
      ];
      const stored = missing.length
        ? {
            id: entry.id,
            data: {
              ...(unmarked(entry.data) as Record<string, unknown>),
              [INVALID_ENTRY]: [...entryErrors(entry.data), ...missing],
              [INVALID_WHEN_STORED]: true,
            },
            ...(entry.body === undefined ? {} : { body: entry.body }),
            ...(entry.filePath === undefined ? {} : { filePath: entry.filePath }),
            ...(entry.digest === undefined ? {} : { digest: entry.digest }),
          }
        : entry;
      // Stored invalid, its data is not TData: every reader checks isInvalid first, as for a schema failure.
      const typed = stored as typeof entry;
      const key = errorKey(entry);
      const found = entryErrors(typed.data);
      if (found.length) errors.set(key, found);
      else errors.delete(key);
      return store.set(typed);
    },
    // A data file is loaded again whole (Astro's file loader clears the store first): a fixed file's old errors go.
    clear: () => {
      errors.clear();
      store.clear();
    },
    delete: (id: string) => {
      const entry = store.get(id);
      if (entry) errors.delete(errorKey(entry));
      store.delete(id);
    },
  };
  return { ...context, store: checked };
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
      const recording = keepingUnparsableFiles(recordingSlugClaims(reloadingDroppedChanges(checkingStore(context))));
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
            const errors = schemaErrors(error, file, relative, dataEntry, props.data);
            const required = errors.filter((e) => e.message.endsWith(': the field is required')).map((e) => e.message.split(':')[0]!);
            const noFrontMatter = /\.mdx?$/.test(file) ? noFrontMatterError(readSource(file), relative, required) : undefined;
            return { ...props.data, [INVALID_ENTRY]: noFrontMatter ? [noFrontMatter] : errors } as typeof props.data;
          }
        },
      });
    },
  };
}

/** The id of the one entry a data file that does not parse leaves in its collection, carrying the error. */
export const UNREADABLE_FILE_ENTRY = '(file not readable)';

/** What a data file's text holds: its data, or the one error that stopped it (at its line). */
export type DataFileResult = { ok: true; data: unknown } | { ok: false; error: ContentError };

/**
 * A data file's text parsed as its extension says: YAML with js-yaml (the parser of Astro's own
 * file() loader, so the data is what Astro would read) or JSON, a syntax error as a content error at
 * its line. `relative` is the file's path as the error names it.
 */
export function parseDataFile(text: string, relative: string): DataFileResult {
  const at = (line: number, message: string): DataFileResult => ({ ok: false, error: { file: relative, line, message } });
  if (/\.json$/i.test(relative)) {
    try {
      return { ok: true, data: JSON.parse(text) };
    } catch (error) {
      // V8 says what it met ("Unexpected token ']', …" or "… in JSON at position 9 (line 3 column 1)"),
      // but not always where: jsonc-parser (strict: no comments, no trailing commas) finds the offset.
      const reason = (error as Error).message.replace(/, ".*" is not valid JSON$|, \.\.\.[\s\S]*$| in JSON at position [\s\S]*$/, '');
      const found: ParseError[] = [];
      parseJsonc(text, found, { disallowComments: true, allowTrailingComma: false });
      const offset = found[0]?.offset ?? text.length;
      const before = text.slice(0, offset).split('\n');
      return at(before.length, `not valid JSON: ${reason} (column ${before.at(-1)!.length + 1})`);
    }
  }
  try {
    return { ok: true, data: loadYaml(text, { filename: relative }) };
  } catch (error) {
    if (!(error instanceof YAMLException)) throw error;
    return at(...yamlProblem(text, error));
  }
}

/**
 * Where a YAML syntax error is and what it says, in an author's terms: js-yaml's reason and column,
 * a hint for the usual cause of its vaguest reason, and an unclosed double quote at the line that
 * opens it (js-yaml reports it at the end of the file).
 */
function yamlProblem(text: string, error: YAMLException): [line: number, message: string] {
  const lines = text.split(/\r?\n/);
  const line = error.mark ? error.mark.line + 1 : 1;
  const column = error.mark ? ` (column ${error.mark.column + 1})` : '';
  if (/within a double quoted scalar/.test(error.reason)) {
    const opens = lines.findIndex((l) => !/^\s*#/.test(l) && (l.replace(/\\./g, '').match(/"/g)?.length ?? 0) % 2 === 1);
    if (opens !== -1) return [opens + 1, 'not valid YAML: a double-quoted value starts here and is never closed'];
  }
  // `tagline: Private: LLM platforms`: js-yaml reads a second key on the line and calls it bad indentation.
  if (error.reason === 'bad indentation of a mapping entry' && /^\s*[^\s:#][^:]*:\s+[^"'\s][^#]*:\s/.test(lines[line - 1] ?? ''))
    return [line, `not valid YAML: ${error.reason}${column}; a value that holds ": " must be in quotes`];
  return [line, `not valid YAML: ${error.reason}${column}`];
}

/**
 * A data file's entries with each id that `ids.pattern` refuses made an invalid entry whose error is at the id's line:
 * the ids of categories.yaml and glossary.yaml are addresses and anchors (/blog/category/<id>, /glossary#<id>), and
 * `Bad Id:` built `<section id="Bad Id">` (recheck N4).
 */
export function withInvalidIds(
  entries: Record<string, Record<string, unknown>>,
  text: string,
  relative: string,
  ids: { pattern: RegExp; says: string },
): Record<string, Record<string, unknown>> {
  const lines = text.split(/\r?\n/);
  return Object.fromEntries(
    Object.entries(entries).map(([id, entry]) => {
      if (ids.pattern.test(id)) return [id, entry];
      const line = lines.findIndex((l) => [`${id}:`, `"${id}":`, `'${id}':`].some((start) => l.startsWith(start))) + 1;
      const error: ContentError = { file: relative, line: line || 1, message: `"${id}" is not a valid id: ${ids.says}` };
      return [id, { [INVALID_ENTRY]: [error] }];
    }),
  );
}

/**
 * Astro's file() loader over a YAML (or JSON) data file of entries keyed by id, with a file that
 * does not parse, or holds no entries, kept as one invalid entry ({@link UNREADABLE_FILE_ENTRY})
 * carrying its error at its line. Astro's loader would log "Error reading data" and load nothing,
 * and the build then failed on what was missing, away from the cause. Wrap it in {@link reporting}.
 */
export function dataFile(fileName: string, options: { ids?: { pattern: RegExp; says: string } } = {}): Loader {
  const relative = path.relative(process.cwd(), path.resolve(fileName));
  return file(fileName, {
    parser: (text) => {
      const parsed = parseDataFile(text, relative);
      if (parsed.ok && typeof parsed.data === 'object' && parsed.data !== null) {
        const entries = parsed.data as Record<string, Record<string, unknown>>;
        return options.ids ? withInvalidIds(entries, text, relative, options.ids) : entries;
      }
      const error: ContentError = parsed.ok
        ? { file: relative, line: 1, message: 'expected entries, each as "id:" with its fields indented below it' }
        : parsed.error;
      // The ids the file's top-level lines name stay as empty invalid entries: references to them resolve, so
      // Astro does not log "Invalid content reference" for every article of a category the file still defines.
      const named = [...text.matchAll(/^([\w.-]+):(?:\s|$)/gm)].map((match) => [match[1]!, { [INVALID_ENTRY]: [] }]);
      return { ...Object.fromEntries(named), [UNREADABLE_FILE_ENTRY]: { [INVALID_ENTRY]: [error] } };
    },
  });
}

/** Whether a collection's entries include a data file that did not parse (its other entries are then unknown). */
export function holdsUnreadableFile(entries: readonly { id: string }[]): boolean {
  return entries.some((entry) => entry.id === UNREADABLE_FILE_ENTRY);
}

/**
 * The build-time tweet snapshot (`<content>/tweets.json`, served by /api/tweets until a live feed is
 * stored) read and validated, or its errors: a syntax error at its line, a field that fails the
 * feed's schema at line 1 with its path (the file is one JSON document; its lines are not entries).
 */
export function readTweetSnapshotFile(contentDir: string): { feed: TweetFeed; errors: [] } | { feed?: undefined; errors: ContentError[] } {
  const file = path.join(contentDir, 'tweets.json');
  const relative = path.relative(process.cwd(), path.resolve(file));
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return { errors: [{ file: relative, line: 1, message: 'the file is missing: a JSON tweet feed ({"updated_at", "tweets": [...]})' }] };
  }
  const parsed = parseDataFile(text, relative);
  if (!parsed.ok) return { errors: [parsed.error] };
  try {
    return { feed: parseTweetFeed(parsed.data), errors: [] };
  } catch (error) {
    return { errors: [{ file: relative, line: 1, message: (error as Error).message }] };
  }
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
