/**
 * Images an entry names that are not there, as content errors at their lines, found before Astro looks for them.
 * Astro's image() schema helper (content layer) only marks the path (`__ASTRO_IMAGE_./cover.png`), and the markdown pass
 * only lists a body's image paths (`rendered.metadata.imagePaths`); both become the entry's asset imports, and Vite
 * resolves those while it bundles the pages: a missing file stopped the build there with `[ImageNotFound]`, a path into
 * node_modules and a stack, no article named and every other content error unreported. Catching that error would come
 * too late (after the content sync, in Vite's bundling, which stops at its first error) and it names no entry, so the
 * store the loader writes to checks each entry's image files as it is stored: an entry with a missing image is stored
 * as invalid (src/astro/content-errors.ts INVALID_ENTRY, marked INVALID_WHEN_STORED), without its asset imports, so
 * the build goes on to list it with every other content error. An MDX body is not rendered in the content layer (MDX
 * compiles while Vite bundles the pages, importing each relative image as a module), so its images are read from its
 * text ({@link relativeImages}).
 * @module
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { relativeImages } from '../core/content/markdown.ts';
import type { ContentError } from './content-errors.ts';

/** The mark Astro's image() helper puts before a path in the content layer (astro/dist/content/consts.js IMAGE_IMPORT_PREFIX). */
export const IMAGE_IMPORT_PREFIX = '__ASTRO_IMAGE_';

/** An entry as the loader hands it to the store, as far as this module looks at it. */
export interface StoredEntryLike {
  id: string;
  data: Record<string, unknown>;
  filePath?: string;
  body?: string;
  assetImports?: string[];
  rendered?: { metadata?: { imagePaths?: string[] } };
}

/** Whether Astro imports `src` as a file beside the entry: not a URL, not a path from the site root, not inline data. */
function isLocalFile(src: string): boolean {
  return src !== '' && !/^[a-z][a-z\d+.-]*:/i.test(src) && !src.startsWith('/') && !src.startsWith('//');
}

function decoded(text: string): string {
  try {
    return decodeURI(text);
  } catch {
    return text;
  }
}

/** Whether `src`, relative to the entry's folder, names an existing file (as written, or percent-decoded as markdown links may be). */
function existsBeside(src: string, entryFile: string): boolean {
  const file = src.split(/[?#]/)[0]!;
  const dir = path.dirname(entryFile);
  return existsSync(path.resolve(dir, file)) || existsSync(path.resolve(dir, decoded(file)));
}

/** The values of `data` Astro's image() marked, with their field paths (`cover.src`). */
function markedImages(data: unknown, at: string[] = []): { field: string[]; src: string }[] {
  if (typeof data === 'string')
    return data.startsWith(IMAGE_IMPORT_PREFIX) ? [{ field: at, src: data.slice(IMAGE_IMPORT_PREFIX.length) }] : [];
  if (Array.isArray(data)) return data.flatMap((value, i) => markedImages(value, [...at, String(i)]));
  if (typeof data === 'object' && data !== null) return Object.entries(data).flatMap(([key, value]) => markedImages(value, [...at, key]));
  return [];
}

/** `data` with image() marks taken off (the paths as written): stored so, nothing is imported for it. */
export function unmarked(data: unknown): unknown {
  if (typeof data === 'string') return data.startsWith(IMAGE_IMPORT_PREFIX) ? data.slice(IMAGE_IMPORT_PREFIX.length) : data;
  if (Array.isArray(data)) return data.map(unmarked);
  if (typeof data === 'object' && data !== null && !(data instanceof Date))
    return Object.fromEntries(Object.entries(data).map(([key, value]) => [key, unmarked(value)]));
  return data;
}

/** The 1-based line of the first line that holds `text` in the front matter (or, with `inBody`, after it); 0 when none does. */
export function lineHolding(source: string, text: string, inBody: boolean): number {
  const lines = source.split(/\r?\n/);
  const end = lines[0] === '---' ? lines.indexOf('---', 1) : -1;
  const [from, to] = inBody ? [end + 1, lines.length] : [0, end === -1 ? lines.length : end];
  for (let i = from; i < to; i++) if (lines[i]!.includes(text)) return i + 1;
  return 0;
}

/** The images a body shows: a markdown body's as Astro's markdown pass listed them, an MDX body's from its text. */
function bodyImages(entry: StoredEntryLike): string[] {
  if (entry.filePath?.endsWith('.mdx')) return entry.body === undefined ? [] : relativeImages(entry.body);
  return entry.assetImports ?? entry.rendered?.metadata?.imagePaths ?? [];
}

/** A field as the author wrote it: `cover` for `cover.src`, `image.src_zh` as it is. */
const fieldName = (field: readonly string[]): string => (field.at(-1) === 'src' ? field.slice(0, -1) : field).join('.');

/**
 * The images `entry` names that are not there: its data's image() fields (at the line that names the file, in the
 * front matter) and its body's images (at the line of the body that shows it). `root` is the project root (the
 * entry's `filePath` is relative to it).
 */
export function missingImageErrors(entry: StoredEntryLike, root: string): ContentError[] {
  if (!entry.filePath) return [];
  const file = path.resolve(root, entry.filePath);
  const fromData = markedImages(entry.data).filter(({ src }) => isLocalFile(src) && !existsBeside(src, file));
  const fromBody = [...new Set(bodyImages(entry))].filter((src) => isLocalFile(src) && !existsBeside(src, file));
  if (!fromData.length && !fromBody.length) return [];
  let source = '';
  try {
    source = readFileSync(file, 'utf8');
  } catch {
    // Deleted meanwhile: the errors say line 1.
  }
  return [
    ...fromData.map(({ field, src }) => ({
      file: entry.filePath!,
      line: lineHolding(source, src, false) || lineHolding(source, `${field[0]}:`, false) || 1,
      message: `${fieldName(field)}: ${src} not found`,
    })),
    ...fromBody.map((src) => ({
      file: entry.filePath!,
      line: lineHolding(source, `(${src}`, true) || lineHolding(source, src, true) || 1,
      message: `image ${src} not found`,
    })),
  ];
}
