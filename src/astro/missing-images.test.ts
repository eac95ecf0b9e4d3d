/** Missing images found as content errors when an entry is stored, before Astro's bundling looks for them. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Loader, LoaderContext } from 'astro/loaders';
import { afterAll, describe, expect, it } from 'vitest';
import { entryErrors, isInvalid, reporting, storedEntryErrors, unclosedQuoteLine } from './content-errors.ts';
import { IMAGE_IMPORT_PREFIX, missingImageErrors } from './missing-images.ts';

const ROOT = mkdtempSync(path.join(tmpdir(), 'missing-images-'));
afterAll(() => rmSync(ROOT, { recursive: true, force: true }));
mkdirSync(path.join(ROOT, 'content', 'articles'), { recursive: true });
writeFileSync(path.join(ROOT, 'content', 'articles', 'here.png'), 'png');
for (const name of ['a.md', 'b.md']) writeFileSync(path.join(ROOT, 'content', 'articles', name), '---\nslug: shared\n---\n');
const ARTICLE = [
  '---',
  'title: Notes',
  'slug: notes',
  'cover:',
  '  src: ./nope.png',
  '  alt: A cover',
  '---',
  '',
  'Text.',
  '',
  '![a figure](./here.png) and ![x](./also-nope.svg)',
  '',
  '![remote](https://example.com/a.png)',
].join('\n');
writeFileSync(path.join(ROOT, 'content', 'articles', 'notes.md'), ARTICLE);
const FILE = 'content/articles/notes.md';

describe('missingImageErrors', () => {
  it('names a missing cover at the line of its path and a missing body image at its line; present and remote ones pass', () => {
    const errors = missingImageErrors(
      {
        id: 'notes',
        filePath: FILE,
        data: { title: 'Notes', cover: { src: `${IMAGE_IMPORT_PREFIX}./nope.png`, alt: 'A cover' } },
        assetImports: ['./here.png', './also-nope.svg', 'https://example.com/a.png'],
      },
      ROOT,
    );
    expect(errors).toEqual([
      { file: FILE, line: 5, message: 'cover: ./nope.png not found' },
      { file: FILE, line: 11, message: 'image ./also-nope.svg not found' },
    ]);
    expect(
      missingImageErrors(
        { id: 'notes', filePath: FILE, data: { cover: { src: `${IMAGE_IMPORT_PREFIX}./here.png` } }, assetImports: ['./here.png'] },
        ROOT,
      ),
    ).toEqual([]);
  });
});

describe('missingImageErrors of an MDX body', () => {
  it('reads the images from its text (the content layer does not render MDX): a missing one at its line, code left alone', () => {
    const body = [
      "import Callout from '@components/Callout.astro';",
      '',
      '![a figure](./here.png)',
      '',
      '<Callout type="tip">See ![x](./mdx-nope.svg)</Callout>',
      '',
      '```md',
      '![in code](./in-code.png)',
      '```',
    ].join('\n');
    writeFileSync(path.join(ROOT, 'content', 'articles', 'guide.mdx'), `---\ntitle: Guide\nslug: guide\n---\n${body}\n`);
    const entry = { id: 'guide', filePath: 'content/articles/guide.mdx', data: { title: 'Guide' }, body };
    expect(missingImageErrors(entry, ROOT)).toEqual([
      { file: 'content/articles/guide.mdx', line: 9, message: 'image ./mdx-nope.svg not found' },
    ]);
    // A markdown entry's images are the ones Astro's markdown pass listed, not a second reading of its text.
    expect(missingImageErrors({ ...entry, filePath: 'content/articles/guide.md', assetImports: [] }, ROOT)).toEqual([]);
  });
});

/** A store over a Map, as the content layer's scoped store behaves for set/get. */
function mapStore(): { entries: Map<string, { id: string; data: Record<string, unknown> }>; store: LoaderContext['store'] } {
  const entries = new Map<string, { id: string; data: Record<string, unknown> }>();
  const store = {
    get: (id: string) => entries.get(id),
    set: (entry: { id: string; data: Record<string, unknown> }) => {
      entries.set(entry.id, entry);
      return true;
    },
    values: () => [...entries.values()],
    keys: () => [...entries.keys()],
    entries: () => [...entries],
    delete: (id: string) => entries.delete(id),
    clear: () => entries.clear(),
    has: (id: string) => entries.has(id),
    addAssetImport: () => {},
    addAssetImports: () => {},
    addModuleImport: () => {},
  } as unknown as LoaderContext['store'];
  return { entries, store };
}

describe('reporting(loader): the store it writes to', () => {
  it('stores an entry with a missing image as invalid, importing nothing, and keeps the errors of an entry another replaced', async () => {
    const { entries, store } = mapStore();
    let loaderStore: LoaderContext['store'] | undefined;
    const loader: Loader = {
      name: 'fake',
      load: async ({ store: target }) => {
        loaderStore = target;
        target.set({
          id: 'notes',
          filePath: FILE,
          data: { title: 'Notes', cover: { src: `${IMAGE_IMPORT_PREFIX}./nope.png`, alt: 'A cover' } },
          assetImports: ['./also-nope.svg'],
        });
        // Two files claiming one slug: the second replaces the first in the store, errors and all.
        const broken = { file: 'content/articles/a.md', line: 3, message: 'lang: Invalid option' };
        target.set({ id: 'shared', filePath: 'content/articles/a.md', data: { __invalidEntry: [broken] } });
        target.set({ id: 'shared', filePath: 'content/articles/b.md', data: { title: 'B' } });
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

    const notes = entries.get('notes')!;
    expect(isInvalid(notes.data)).toBe(true);
    expect(entryErrors(notes.data).map((e) => e.message)).toEqual(['cover: ./nope.png not found', 'image ./also-nope.svg not found']);
    expect(JSON.stringify(notes)).not.toContain(IMAGE_IMPORT_PREFIX);
    expect(notes).not.toHaveProperty('assetImports');
    // Read again on the next sync, in case the image came.
    expect(loaderStore!.get('notes')).toBeUndefined();
    expect(loaderStore!.get('shared')).toMatchObject({ data: { title: 'B' } });
    expect(storedEntryErrors().map((e) => e.message)).toEqual([
      'cover: ./nope.png not found',
      'image ./also-nope.svg not found',
      'lang: Invalid option',
    ]);
  });
});

describe('unclosedQuoteLine', () => {
  it('finds the value whose quote is never closed, not one closed or escaped', () => {
    const yaml = ['title: "Broken front matter', 'slug: s8b-broken', 'excerpt: "A closed one"', 'date: 2026-11-20'].join('\n');
    expect(unclosedQuoteLine(yaml)).toBe(1);
    expect(unclosedQuoteLine('title: "A \\"quoted\\" word"\nalt: \'It\'\'s fine\'\ntags:\n  - "x"')).toBe(0);
    expect(unclosedQuoteLine("a: 1\ntags:\n  - 'open\nb: 2")).toBe(3);
    expect(unclosedQuoteLine('a: 1\nb: "late', 1)).toBe(0);
  });
});
