/**
 * Content at build time: a content error fails the build and says where (the file, the field and what
 * was expected), and front-matter translation links pair two articles.
 * Each case copies content/ to a scratch folder, breaks one thing and runs the real `astro build`.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const SCRATCH = path.join(ROOT, 'tests', '.tmp', 'content-schema');

function buildWith(name: string, breakContent: (dir: string) => string): { status: number | null; output: string; file: string } {
  const base = path.join(SCRATCH, name);
  rmSync(base, { recursive: true, force: true });
  const content = path.join(base, 'content');
  mkdirSync(base, { recursive: true });
  cpSync(path.join(ROOT, 'content'), content, { recursive: true });
  const file = breakContent(content);
  const result = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/astro/bin/astro.mjs'), 'build'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: {
      ...process.env,
      CONTENT_DIR: content,
      ASTRO_OUT_DIR: path.join(base, 'dist'),
      GENERATED_DIR: path.join(base, 'generated'),
      DEPLOY_BLOBS_DIR: path.join(base, 'deploy-blobs'),
      // Open Graph images are not what these builds check (≈ 0.1 s of drawing per page).
      OG_IMAGES: 'off',
      ASTRO_CACHE_DIR: path.join(base, 'cache'),
      ASTRO_TELEMETRY_DISABLED: '1',
      NO_COLOR: '1',
      FORCE_COLOR: '0',
    },
  });
  // Strip colour codes: CI terminals may still get them.
  const output = stripVTControlCharacters(`${result.stdout}\n${result.stderr}`);
  return { status: result.status, output, file };
}

function firstArticle(content: string): string {
  const name = readdirSync(path.join(content, 'articles'))
    .filter((f) => f.endsWith('.md'))
    .sort()[0]!;
  return path.join(content, 'articles', name);
}

function editFrontMatter(file: string, edit: (fm: string) => string): void {
  const text = readFileSync(file, 'utf8');
  const end = text.indexOf('\n---', 4);
  writeFileSync(file, edit(text.slice(0, end)) + text.slice(end));
}

afterAll(() => rmSync(SCRATCH, { recursive: true, force: true }));

describe('content validation at build time', () => {
  it('names the file, each bad field and what was expected', () => {
    const { status, output, file } = buildWith('bad-fields', (content) => {
      const file = firstArticle(content);
      editFrontMatter(file, (fm) =>
        fm
          .replace(/^lang: .*$/m, 'lang: fr')
          .replace(/^date: .*$/m, 'date: "2026-02-30"')
          .replace(/^excerpt: .*$/m, ''),
      );
      return file;
    });
    expect(status).not.toBe(0);
    expect(output).toContain(file);
    expect(output).toMatch(/lang: .*expected one of "zh"\|"en"/);
    expect(output).toMatch(/date: expected a real calendar date \(YYYY-MM-DD\)/);
    expect(output).toMatch(/excerpt\W+.*Required/);
  });

  it('names an unknown front-matter field and lists the allowed ones', () => {
    const { status, output, file } = buildWith('unknown-field', (content) => {
      const file = firstArticle(content);
      editFrontMatter(file, (fm) => `${fm.trimEnd()}\nsubtitle: not a field\n`);
      return file;
    });
    expect(status).not.toBe(0);
    expect(output).toContain(path.basename(file));
    expect(output).toMatch(/subtitle: unknown field "subtitle": the fields are title, slug, category/);
  });

  /**
   * One build for every reference problem, as an author would meet them together (the build lists
   * every problem at once): an unknown category, a slug an article and a solution share, a slug two
   * articles in different languages share, and a slug two products share.
   */
  let badReferences: { status: number | null; output: string; article: string; slug: string; dupes: Record<string, string> } | undefined;
  function buildBadReferences(): NonNullable<typeof badReferences> {
    if (badReferences) return badReferences;
    let slug = '';
    const dupes: Record<string, string> = {};
    const result = buildWith('bad-references', (content) => {
      const file = firstArticle(content);
      editFrontMatter(file, (fm) => fm.replace(/^category: .*$/m, 'category: quantum-blockchain'));
      const solutionDir = path.join(content, 'solutions');
      const solution = path.join(solutionDir, readdirSync(solutionDir).sort()[0]!);
      slug = /^slug: (.*)$/m.exec(readFileSync(file, 'utf8'))![1]!.trim();
      editFrontMatter(solution, (fm) => fm.replace(/^slug: .*$/m, `slug: ${slug}`));
      // A Chinese article reusing an English article's slug, and a second product reusing a product's slug:
      // new files with other text, so neither can be mistaken for the one it would replace.
      const english = path.join(content, 'articles', 'building-reliable-ai-agents.md');
      dupes.zh = path.join(content, 'articles', 'zz-copy-zh.md');
      writeFileSync(
        dupes.zh,
        readFileSync(path.join(content, 'articles', 'private-llm-deployment-guide-zh.md'), 'utf8').replace(
          /^slug: .*$/m,
          'slug: building-reliable-ai-agents',
        ),
      );
      dupes.en = english;
      dupes.product = path.join(content, 'products', 'llm-gateway.md');
      dupes.productCopy = path.join(content, 'products', 'zz-gateway-copy.md');
      writeFileSync(
        dupes.productCopy,
        readFileSync(path.join(content, 'products', 'agent-studio.md'), 'utf8').replace(/^slug: .*$/m, 'slug: llm-gateway'),
      );
      return file;
    });
    badReferences = { status: result.status, output: result.output, article: result.file, slug, dupes };
    return badReferences;
  }

  it('refuses a category that content/categories.yaml does not define and a slug an article and a solution share', () => {
    const { status, output, article, slug } = buildBadReferences();
    expect(status).not.toBe(0);
    expect(output).toContain(`${path.relative(ROOT, article)}: category "quantum-blockchain" is not defined in content/categories.yaml`);
    expect(output).toContain(`Slugs must be unique across articles and solutions; used more than once: ${slug} (`);
  });

  it('refuses a slug two files of one collection share, naming both files: articles across languages, products', () => {
    // The loader keys entries by slug, so the later file used to replace the earlier and the build passed (issue 24, item 13).
    const { status, output, dupes } = buildBadReferences();
    expect(status).not.toBe(0);
    const files = (...list: string[]): string =>
      list
        .map((f) => path.relative(ROOT, f))
        .sort()
        .join(', ');
    expect(output).toContain(`articles: the slug "building-reliable-ai-agents" is used by 2 files (${files(dupes.en!, dupes.zh!)})`);
    expect(output).toContain(`products: the slug "llm-gateway" is used by 2 files (${files(dupes.product!, dupes.productCopy!)})`);
  });

  it('pairs an article with its translation when each links the other (hreflang, the language switch)', () => {
    const zh = 'llm-inference-cost-optimization-zh';
    const en = 'speculative-decoding-faster-inference';
    const { status, output } = buildWith('translation', (content) => {
      editFrontMatter(path.join(content, 'articles', `${en}.md`), (fm) => `${fm}\ntranslation: ${zh}`);
      const file = path.join(content, 'articles', `${zh}.md`);
      editFrontMatter(file, (fm) => `${fm}\ntranslation: ${en}`);
      return file;
    });
    expect(status, output).toBe(0);
    const html = (slug: string): string => readFileSync(path.join(SCRATCH, 'translation', 'dist', 'blog', slug, 'index.html'), 'utf8');
    for (const page of [html(zh), html(en)]) {
      expect(page).toMatch(new RegExp(`<link rel="alternate" hreflang="zh-CN" href="[^"]*/blog/${zh}"`));
      expect(page).toMatch(new RegExp(`<link rel="alternate" hreflang="en" href="[^"]*/blog/${en}"`));
    }
    // The language switch leads to the translation, not to the other language's home page.
    expect(html(zh)).toMatch(new RegExp(`class="tool-link lang-switch" href="/blog/${en}"`));
    expect(html(en)).toMatch(new RegExp(`class="tool-link lang-switch" href="/blog/${zh}"`));
  });
});
