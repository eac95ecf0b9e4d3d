/** An MDX body that would stop the build (or its page) found as a content error at its line, when its entry is stored. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Loader, LoaderContext } from 'astro/loaders';
import { afterAll, describe, expect, it } from 'vitest';
import { entryErrors, isInvalid, reporting } from './content-errors.ts';
import { bodyStartLine, mdxErrors, tsconfigAliases } from './mdx-errors.ts';

const ROOT = mkdtempSync(path.join(tmpdir(), 'mdx-errors-'));
afterAll(() => rmSync(ROOT, { recursive: true, force: true }));
mkdirSync(path.join(ROOT, 'content', 'articles'), { recursive: true });
mkdirSync(path.join(ROOT, 'src', 'components'), { recursive: true });
writeFileSync(path.join(ROOT, 'src', 'components', 'Callout.astro'), '<aside><slot /></aside>\n');
writeFileSync(path.join(ROOT, 'content', 'articles', 'figure.svg'), '<svg/>');
// tsconfig.json is JSON with comments, as Astro's own.
writeFileSync(
  path.join(ROOT, 'tsconfig.json'),
  '{\n  // aliases\n  "compilerOptions": { "paths": { "@components/*": ["./src/components/*"] } }\n}\n',
);

const FRONT_MATTER = ['---', 'title: Notes', 'slug: notes', 'lang: en', '---', '', ''];

/** Writes an .mdx article with `body` after its front matter; returns the entry as the glob loader stores it. */
function article(name: string, body: string[]): { id: string; filePath: string; data: Record<string, unknown>; body: string } {
  const filePath = `content/articles/${name}.mdx`;
  const text = `${[...FRONT_MATTER, ...body].join('\n')}\n`;
  writeFileSync(path.join(ROOT, filePath), text);
  // @astrojs/mdx stores the text after the front matter, trimmed.
  return { id: name, filePath, data: { title: 'Notes' }, body: text.slice(text.indexOf('\n---\n') + 5).trim() };
}

/** The 1-based line of the file that holds `text`. */
const lineOf = (filePath: string, text: string): number =>
  readFileSync(path.join(ROOT, filePath), 'utf8')
    .split('\n')
    .findIndex((line) => line.includes(text)) + 1;

describe('mdxErrors', () => {
  it('passes a body that compiles, whose imports (through a tsconfig alias, relative) and components are all there', () => {
    const entry = article('fine', [
      "import Callout from '@components/Callout.astro';",
      "import Figure from './figure.svg';",
      'export const Local = () => null;',
      '',
      '# Title',
      '',
      '<Callout type="tip">Text and <b>bold</b>.</Callout>',
      '',
      '<Local />',
    ]);
    expect(mdxErrors(entry, ROOT)).toEqual([]);
  });

  it('names a syntax error at its line in the file (the compiler counts from the body), in plain text', () => {
    const entry = article('unclosed', ['Body.', '<Callout type="tip">unclosed']);
    const line = lineOf(entry.filePath, '<Callout type="tip">unclosed');
    expect(mdxErrors(entry, ROOT)).toEqual([
      {
        file: entry.filePath,
        line,
        message: `not valid MDX: Expected a closing tag for "<Callout>" (${line}:1) before the end of "paragraph"`,
      },
    ]);
  });

  it('names an import of a file that is not there, through an alias or relative, at the line of the import', () => {
    const entry = article('imports', [
      "import Nope from '@components/Nope.astro';",
      "import Gone from '../gone/Gone';",
      "import { z } from 'astro/zod';",
      '',
      '<Nope />',
      '<Gone />',
    ]);
    expect(mdxErrors(entry, ROOT)).toEqual([
      {
        file: entry.filePath,
        line: lineOf(entry.filePath, '@components/Nope.astro'),
        message: 'import "@components/Nope.astro": there is no such file (src/components/Nope.astro)',
      },
      {
        file: entry.filePath,
        line: lineOf(entry.filePath, '../gone/Gone'),
        message: 'import "../gone/Gone": there is no such file (content/gone/Gone)',
      },
    ]);
  });

  it('names a component used but not defined at the line that uses it, and an import read as text (no blank line) at its line', () => {
    const notImported = article('not-imported', ['Text.', '', '<Missing />', '', 'Inline <Box.Part /> here.']);
    expect(mdxErrors(notImported, ROOT).map(({ line, message }) => [line, message])).toEqual([
      [lineOf(notImported.filePath, '<Missing />'), expect.stringMatching(/^<Missing> is not defined: import it in the body/)],
      [lineOf(notImported.filePath, '<Box.Part />'), expect.stringMatching(/^<Box> is not defined: /)],
    ]);
    // stranger s10b: the import continued the paragraph above it, and the page failed as it rendered, naming its route.
    const asText = article('import-as-text', ['Body.', "import Nope from '@components/Nope.astro';", '', '<Nope />']);
    expect(mdxErrors(asText, ROOT)).toEqual([
      {
        file: asText.filePath,
        line: lineOf(asText.filePath, '<Nope />'),
        message: `<Nope> is not defined: the import on line ${lineOf(asText.filePath, 'import Nope')} is read as text; an import needs a blank line before and after it`,
      },
    ]);
  });

  it('names a named import from an .astro component (it has only a default export) at the line of the import (recheck N6)', () => {
    const entry = article('named', ["import { Foo } from '@components/Callout.astro';", '', '<Foo>Tip.</Foo>']);
    expect(mdxErrors(entry, ROOT)).toEqual([
      {
        file: entry.filePath,
        line: lineOf(entry.filePath, 'import { Foo }'),
        message:
          'import { Foo } from "@components/Callout.astro": an .astro component has only a default export (import Foo from "@components/Callout.astro";)',
      },
    ]);
    const both = article('default-and-named', [
      "import Callout, { default as Again } from '@components/Callout.astro';",
      '',
      '<Callout>Tip.</Callout>',
    ]);
    expect(mdxErrors(both, ROOT)).toEqual([]);
  });

  it('checks only .mdx entries with a body', () => {
    expect(mdxErrors({ id: 'a', filePath: 'content/articles/a.md', data: {}, body: '<Unclosed' }, ROOT)).toEqual([]);
    expect(mdxErrors({ id: 'a', filePath: 'content/articles/a.mdx', data: {} }, ROOT)).toEqual([]);
  });
});

describe('bodyStartLine and tsconfigAliases', () => {
  it('finds where the body starts, from the text after the front matter or from the closing ---', () => {
    expect(bodyStartLine('---\na: 1\n---\n\n\nBody\nmore\n\n', 'Body\nmore')).toBe(6);
    expect(bodyStartLine('---\na: 1\n---\n\nBody\n', 'other')).toBe(4);
  });

  it('reads the "@x/*" paths of tsconfig.json as folders, and none without a tsconfig.json', () => {
    expect(tsconfigAliases(ROOT)).toEqual([{ prefix: '@components/', dir: path.join(ROOT, 'src', 'components') }]);
    expect(tsconfigAliases(path.join(ROOT, 'content'))).toEqual([]);
  });
});

describe('reporting(loader) with an MDX body that does not compile', () => {
  it('stores the entry invalid with the error, without its module import, read again on the next sync', async () => {
    const entry = article('broken', ['Body.', '<Callout>unclosed']);
    const entries = new Map<string, Record<string, unknown>>();
    const store = {
      get: (id: string) => entries.get(id),
      set: (stored: { id: string }) => entries.set(stored.id, stored) && true,
      delete: (id: string) => entries.delete(id),
      clear: () => entries.clear(),
    } as unknown as LoaderContext['store'];
    let loaderStore: LoaderContext['store'] | undefined;
    const loader: Loader = {
      name: 'fake',
      load: async ({ store: target }) => {
        loaderStore = target;
        target.set({ ...entry, digest: 'd1', deferredRender: true });
      },
    };
    const context = {
      collection: 'articles',
      config: { root: pathToFileURL(`${ROOT}/`) },
      store,
      logger: { warn() {}, info() {}, error() {}, debug() {} },
      parseData: async ({ data }: { data: unknown }) => data,
    } as unknown as LoaderContext;
    await reporting(loader).load(context);
    const stored = entries.get('broken')!;
    expect(isInvalid(stored.data as object)).toBe(true);
    expect(entryErrors(stored.data as object)).toEqual([
      expect.objectContaining({ file: entry.filePath, line: lineOf(entry.filePath, '<Callout>unclosed') }),
    ]);
    // Without deferredRender, Astro adds no import of the file to the bundle, so Vite never compiles it.
    expect(stored).not.toHaveProperty('deferredRender');
    expect(loaderStore!.get('broken')).toBeUndefined();
  });
});
