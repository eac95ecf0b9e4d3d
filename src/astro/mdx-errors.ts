/**
 * What stops an MDX body from building, as content errors at their lines, found as its entry is stored. An MDX body is
 * compiled only while Vite bundles the pages (@astrojs/mdx's transform), after the content sync: a syntax error
 * stopped the build there with a stack into node_modules and hid every other content error, an import of a file that
 * is not there stopped it in Vite's resolver, and a component used but not defined (`<Nope />` without its import)
 * failed only while rendering its page, naming the route and not the file. This module compiles the body with the
 * compiler @astrojs/mdx uses here (satteri's mdxToJs, through @astrojs/markdown-satteri; ≈ 1 ms for an 8 KB article
 * on one core, and only for .mdx files), so src/astro/content-errors.ts can store such an entry invalid, without its
 * module import, and the build lists it with every other error.
 * @module
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import { mdxToJs } from 'satteri';
import type { ContentError } from './content-errors.ts';
import type { StoredEntryLike } from './missing-images.ts';

/** An import alias: a specifier prefix (`@components/`) and the folder it stands for. */
export interface ImportAlias {
  prefix: string;
  dir: string;
}

/**
 * The aliases tsconfig.json's `compilerOptions.paths` defines in the `"@x/*": ["./dir/*"]` form, which Astro's Vite
 * resolves too (an exact `"@x": ["./file"]` as well); other forms are not checked.
 */
export function tsconfigAliases(root: string): ImportAlias[] {
  let config: { compilerOptions?: { baseUrl?: string; paths?: Record<string, string[]> } } | undefined;
  try {
    config = parseJsonc(readFileSync(path.join(root, 'tsconfig.json'), 'utf8'));
  } catch {
    return [];
  }
  const base = path.resolve(root, config?.compilerOptions?.baseUrl ?? '.');
  return Object.entries(config?.compilerOptions?.paths ?? {}).flatMap(([key, targets]) => {
    const target = targets[0];
    if (target === undefined) return [];
    if (key.endsWith('/*') && target.endsWith('/*')) return [{ prefix: key.slice(0, -1), dir: path.resolve(base, target.slice(0, -1)) }];
    return key.includes('*') || target.includes('*') ? [] : [{ prefix: key, dir: path.resolve(base, target) }];
  });
}

/** The extensions Vite tries for a specifier written without one (its defaults, and Astro's components). */
const EXTENSIONS = ['.astro', '.mjs', '.js', '.mts', '.ts', '.jsx', '.tsx', '.json', '.md', '.mdx'];

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** Whether `target` names a file as Vite resolves it: as written, with an extension, or a folder's index. */
function resolvable(target: string): boolean {
  return (
    isFile(target) || EXTENSIONS.some((extension) => isFile(`${target}${extension}`) || isFile(path.join(target, `index${extension}`)))
  );
}

/** The file an import specifier stands for when it is a path (relative or through an alias), else undefined (a package). */
function importTarget(specifier: string, fromFile: string, aliases: readonly ImportAlias[]): string | undefined {
  const bare = specifier.split(/[?#]/)[0]!;
  if (bare.startsWith('./') || bare.startsWith('../')) return path.resolve(path.dirname(fromFile), bare);
  const alias = aliases.find(({ prefix }) => (prefix.endsWith('/') ? bare.startsWith(prefix) : bare === prefix));
  return alias ? path.join(alias.dir, bare.slice(alias.prefix.length)) : undefined;
}

/** The specifiers of a compiled module's static imports (the compiler writes them one to a line, double-quoted). */
function importSpecifiers(code: string): string[] {
  return [...code.matchAll(/^import\s(?:[^;"']*?\sfrom\s)?"([^"]+)";?$/gm)].map((match) => match[1]!);
}

/** Each static import of a compiled module that names bindings (`import A, { B as C } from "x"`): the names it takes and from where. */
function namedImports(code: string): { names: string[]; specifier: string }[] {
  return [...code.matchAll(/^import\s+(?:[\w$]+\s*,\s*)?\{([^}]*)\}\s*from\s*"([^"]+)";?$/gm)].map((match) => ({
    names: match[1]!
      .split(',')
      .map((part) => part.trim().split(/\s+as\s+/)[0]!)
      .filter((name) => name && name !== 'default'),
    specifier: match[2]!,
  }));
}

/** The 1-based line of the first body line (from `bodyStart`) that `test` accepts, else 0. */
function bodyLineWhere(lines: readonly string[], bodyStart: number, test: (line: string) => boolean): number {
  for (let i = bodyStart - 1; i < lines.length; i++) if (test(lines[i]!)) return i + 1;
  return 0;
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The 1-based line of the file where `body` starts. The store's body is the file's text after the front matter, trimmed
 * (@astrojs/mdx's getEntryInfo): its last occurrence in the file, as it runs to the end but for white space.
 */
export function bodyStartLine(source: string, body: string): number {
  const at = body ? source.lastIndexOf(body) : -1;
  if (at !== -1) return source.slice(0, at).split('\n').length;
  const lines = source.split(/\r?\n/);
  const end = lines[0]?.replace(/^\uFEFF/, '') === '---' ? lines.indexOf('---', 1) : -1;
  return end + 2;
}

/**
 * A compiler error in an author's terms: its position (`3:1:` at the start, `(3:1)` inside, counted in the body) moved
 * to the file's lines, markdown code marks as quotes, and the rule id (`(mdx-jsx:unexpected-character)`) dropped.
 */
function syntaxError(error: unknown, relative: string, bodyStart: number): ContentError {
  const text = error instanceof Error ? error.message : String(error);
  const shift = (line: string): number => Number(line) + bodyStart - 1;
  const at = /^(\d+):(\d+)(?:-\d+:\d+)?:\s*/.exec(text);
  const reason = text
    .slice(at ? at[0].length : 0)
    .split('\n')[0]!
    .replace(/\s*\([\w-]+:[\w-]+\)\s*$/, '')
    .replace(/\((\d+):(\d+)\)/g, (_, line: string, column: string) => `(${shift(line)}:${column})`)
    .replace(/`/g, '"');
  return { file: relative, line: at ? shift(at[1]!) : bodyStart, message: `not valid MDX: ${reason}` };
}

/**
 * The errors of an MDX entry's body: a syntax error, an import of a file that is not there, and a component used but
 * not defined by an import or export of the body (the page would fail as it renders). `root` is the project root (the
 * entry's `filePath` is relative to it); `aliases` are tsconfig.json's ({@link tsconfigAliases}). Anything else than an
 * .mdx entry with a body has none.
 */
export function mdxErrors(entry: StoredEntryLike, root: string, aliases: readonly ImportAlias[] = tsconfigAliases(root)): ContentError[] {
  if (!entry.filePath?.endsWith('.mdx') || entry.body === undefined) return [];
  const relative = entry.filePath;
  const file = path.resolve(root, relative);
  const source = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const bodyStart = bodyStartLine(source, entry.body);
  let code: string;
  try {
    code = mdxToJs(entry.body, { jsxImportSource: 'astro' }).code;
  } catch (error) {
    return [syntaxError(error, relative, bodyStart)];
  }
  const lines = source.split(/\r?\n/);
  const errors: ContentError[] = [];
  for (const specifier of new Set(importSpecifiers(code))) {
    const target = importTarget(specifier, file, aliases);
    if (target === undefined || resolvable(target)) continue;
    errors.push({
      file: relative,
      line: bodyLineWhere(lines, bodyStart, (line) => /^\s*import\b/.test(line) && line.includes(specifier)) || bodyStart,
      message: `import "${specifier}": there is no such file (${path.relative(root, target)})`,
    });
  }
  // An .astro component exports only its default: `import { Foo } from '…/Callout.astro'` stopped the build in Vite,
  // naming no entry and hiding every other error (recheck N6).
  for (const { names, specifier } of namedImports(code)) {
    const target = importTarget(specifier, file, aliases);
    if (target === undefined || !target.endsWith('.astro') || !resolvable(target) || names.length === 0) continue;
    errors.push({
      file: relative,
      line: bodyLineWhere(lines, bodyStart, (line) => /^\s*import\b/.test(line) && line.includes(specifier)) || bodyStart,
      message: `import { ${names.join(', ')} } from "${specifier}": an .astro component has only a default export (import ${names[0]} from "${specifier}";)`,
    });
  }
  // The compiler checks, as the page renders, each component (or object, `<Name.Part />`) the body does not define.
  for (const [, name, isComponent] of code.matchAll(/_missingMdxReference\("([^"]+)", (true|false)\)/g)) {
    const used = new RegExp(`<${escapeRegExp(name!)}${isComponent === 'true' ? '[\\s/>]' : '\\.'}`);
    const usedAt = bodyLineWhere(lines, bodyStart, (line) => used.test(line)) || bodyStart;
    // `Text.\nimport Nope from '…'` continues the paragraph: the import is text, and Nope is not defined.
    const importAsText = bodyLineWhere(lines, bodyStart, (line) => new RegExp(`^import\\s.*\\b${escapeRegExp(name!)}\\b`).test(line));
    errors.push({
      file: relative,
      line: usedAt,
      message: importAsText
        ? `<${name}> is not defined: the import on line ${importAsText} is read as text; an import needs a blank line before and after it`
        : `<${name}> is not defined: import it in the body (import ${name} from '…';), with a blank line before and after the import`,
    });
  }
  return errors;
}
