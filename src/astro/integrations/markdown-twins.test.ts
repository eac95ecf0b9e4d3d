import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { sitePages } from '../../core/publish/pages.ts';
import { withoutFrontMatter } from '../../core/content/markdown.ts';
import { FIXTURE_CATALOG } from '../../../tests/support/core-fixtures.ts';
import { servedTwin, writeMarkdownTwins } from './markdown-twins.ts';

describe('writeMarkdownTwins (the build writes every twin in one batch)', () => {
  let dir = '';
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("writes <page>.md for every page of the catalogue with the page's markdown after its front matter, creating folders as needed", async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'twins-'));
    const pages = sitePages(FIXTURE_CATALOG);
    expect(await writeMarkdownTwins(dir, FIXTURE_CATALOG)).toBe(pages.length);
    for (const page of pages) {
      const written = await readFile(path.join(dir, page.path === '/' ? 'index.md' : `${page.path}.md`), 'utf8');
      expect(written, page.path).toBe(servedTwin(page));
      expect(withoutFrontMatter(written), page.path).toBe(page.markdown);
    }
  });
});

describe('servedTwin', () => {
  const pages = sitePages(FIXTURE_CATALOG);

  it('opens with YAML front matter: title, description, doc_version (the SHA-256 of the rest, 16 hex digits), last_updated', () => {
    for (const page of pages) {
      const front = /^---\n([\s\S]*?)\n---\n\n> Index of this site for agents: /.exec(servedTwin(page))?.[1];
      expect(front, page.path).toBeDefined();
      const fields = Object.fromEntries(
        front!.split('\n').map((line) => [line.slice(0, line.indexOf(':')), JSON.parse(line.slice(line.indexOf(':') + 1))]),
      );
      expect(fields, page.path).toEqual({
        title: page.title,
        description: page.description,
        doc_version: createHash('sha256').update(page.markdown).digest('hex').slice(0, 16),
        last_updated: page.lastmod,
      });
    }
  });

  it('changes doc_version exactly when the text changes', () => {
    const version = (twin: string): string => /doc_version: "([^"]+)"/.exec(twin)![1]!;
    const [first, second] = FIXTURE_CATALOG.articles;
    const edited = sitePages({
      ...FIXTURE_CATALOG,
      articles: [{ ...first!, markdown: `${first!.markdown}\n\nOne more line.` }, ...FIXTURE_CATALOG.articles.slice(1)],
    });
    const of = (list: typeof pages, p: string) => servedTwin(list.find((x) => x.path === p)!);
    expect(version(of(edited, first!.path))).not.toBe(version(of(pages, first!.path)));
    expect(version(of(edited, second!.path))).toBe(version(of(pages, second!.path)));
  });
});
