import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sitePages } from '../../core/publish/pages.ts';
import { FIXTURE_CATALOG } from '../../../tests/support/core-fixtures.ts';
import { writeMarkdownTwins } from './markdown-twins.ts';

describe('writeMarkdownTwins (the build writes every twin in one batch)', () => {
  let dir = '';
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("writes <page>.md for every page of the catalogue with the page's markdown, creating folders as needed", async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'twins-'));
    const pages = sitePages(FIXTURE_CATALOG);
    expect(await writeMarkdownTwins(dir, FIXTURE_CATALOG)).toBe(pages.length);
    const article = pages.find((page) => page.path.startsWith('/blog/') && page.kind === 'article')!;
    expect(await readFile(path.join(dir, 'index.md'), 'utf8')).toBe(pages.find((page) => page.path === '/')!.markdown);
    expect(await readFile(path.join(dir, `${article.path}.md`), 'utf8')).toBe(article.markdown);
    for (const page of pages) {
      expect(await readFile(path.join(dir, page.path === '/' ? 'index.md' : `${page.path}.md`), 'utf8'), page.path).toBe(page.markdown);
    }
  });
});
