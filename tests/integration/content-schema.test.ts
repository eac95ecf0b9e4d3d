/**
 * Content at build time: a content error fails the build and says where (the file, the field and what
 * was expected), and front-matter translation links pair two articles.
 * Each case copies content/ to a scratch folder, breaks one thing and runs the real `astro build`.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

/** The 1-based line of `key:` in a file. */
function lineOf(file: string, key: string): number {
  return (
    readFileSync(file, 'utf8')
      .split('\n')
      .findIndex((line) => line.startsWith(`${key}:`)) + 1
  );
}
const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

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
    expect(output).toContain(path.relative(ROOT, file));
    const at = (key: string): string => `${path.relative(ROOT, file)}:${lineOf(file, key)}: `;
    expect(output).toMatch(new RegExp(`${escapeRegExp(at('lang'))}lang: .*expected one of "zh"\\|"en"`));
    expect(output).toContain(`${at('date')}date: expected a real calendar date (YYYY-MM-DD)`);
    expect(output).toContain(`${path.relative(ROOT, file)}:1: excerpt: the field is required`);
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
    expect(output).toContain(
      `${path.relative(ROOT, article)}:${lineOf(article, 'category')}: category "quantum-blockchain" is not defined`,
    );
    expect(output).toContain(
      `${path.relative(ROOT, article)}:${lineOf(article, 'slug')}: the slug "${slug}" is used by an article and a solution`,
    );
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
    for (const [file, other, collection, slug] of [
      [dupes.en!, dupes.zh!, 'articles', 'building-reliable-ai-agents'],
      [dupes.zh!, dupes.en!, 'articles', 'building-reliable-ai-agents'],
      [dupes.product!, dupes.productCopy!, 'products', 'llm-gateway'],
      [dupes.productCopy!, dupes.product!, 'products', 'llm-gateway'],
    ] as const)
      expect(output).toContain(
        `${files(file)}:${lineOf(file, 'slug')}: ${collection}: the slug "${slug}" is also used by ${files(other)}; each page needs its own slug`,
      );
  });

  it('lists every broken file of a content tree in one build, each as file:line: message in plain text', () => {
    const broken: { file: string; line: number | 'any'; message: string }[] = [];
    const { status, output } = buildWith('all-at-once', (content) => {
      const articles = path.join(content, 'articles');
      const edit = (name: string, change: (text: string) => string): string => {
        const file = path.join(articles, name);
        writeFileSync(file, change(readFileSync(file, 'utf8')));
        return file;
      };
      let file = edit('building-reliable-ai-agents.md', (text) => text.replace(/^lang: .*$/m, 'lang: fr'));
      broken.push({ file, line: lineOf(file, 'lang'), message: 'lang: ' });
      file = edit('llm-gateway-token-budgets.md', (text) => text.replace(/^excerpt: .*\n/m, ''));
      broken.push({ file, line: 1, message: 'excerpt: the field is required' });
      file = edit('rag-evaluation-faithfulness-metrics.md', (text) => text.replace(/^date: (.*)$/m, 'date: [$1'));
      // YAML reports where it noticed the unclosed list, a line or two on: the line is checked to be a real one below.
      broken.push({ file, line: 'any', message: 'the front matter is not valid YAML: ' });
      file = edit('speculative-decoding-faster-inference.md', (text) => text.replace(/^category: .*$/m, 'category: quantum'));
      broken.push({ file, line: lineOf(file, 'category'), message: 'category "quantum" is not defined' });
      file = path.join(articles, 'zz-same-slug.md');
      writeFileSync(
        file,
        readFileSync(path.join(articles, 'structured-output-json-schema-notes.md'), 'utf8').replace(/^title: .*$/m, 'title: A copy'),
      );
      broken.push({
        file,
        line: lineOf(file, 'slug'),
        message: 'articles: the slug "structured-output-json-schema-notes" is also used by ',
      });
      return file;
    });
    expect(status).not.toBe(0);
    const errors = output.split('\n').filter((line) => /^\S+\.mdx?:\d+: /.test(line));
    // The five files, and the article whose slug the copy took.
    expect(output).toContain(`${errors.length} content errors; fix them and build again:`);
    expect(errors).toHaveLength(broken.length + 1);
    for (const { file, line, message } of broken) {
      const prefix = new RegExp(
        `^${escapeRegExp(path.relative(ROOT, file))}:${line === 'any' ? '[1-9]\\d*' : line}: ${escapeRegExp(message)}`,
      );
      expect(
        errors.some((e) => prefix.test(e)),
        `${prefix} in\n${errors.join('\n')}`,
      ).toBe(true);
    }
    expect(output).not.toMatch(/\*\*|:0:0|MODULE_LEVEL_DIRECTIVE|Stack trace/);
    expect(errors.join('\n')).not.toContain('node_modules');
  });

  it('reports data files that are not YAML or JSON at their line, with the other errors of the round', () => {
    const at: Record<string, { file: string; line: number }> = {};
    /** The 1-based line of the first line of `file` that starts with `start`. */
    const lineStarting = (file: string, start: string): number =>
      readFileSync(file, 'utf8')
        .split('\n')
        .findIndex((line) => line.startsWith(start)) + 1;
    const { status, output } = buildWith('data-files', (content) => {
      const edit = (name: string, change: (text: string) => string): string => {
        const file = path.join(content, name);
        writeFileSync(file, change(readFileSync(file, 'utf8')));
        return file;
      };
      // A value holding ": " without quotes; a category defined twice; a comma before the end of a JSON list.
      let file = edit('company.yaml', (text) => text.replace(/^ {2}tagline: (.*)$/m, '  tagline: Private: $1'));
      at.company = { file, line: lineStarting(file, '  tagline:') };
      file = edit('categories.yaml', (text) => `${text.trimEnd()}\nprivate-deployment:\n  name: A second definition\n`);
      at.categories = { file, line: readFileSync(file, 'utf8').split('\n').lastIndexOf('private-deployment:') + 1 };
      file = edit('tweets.json', (text) => text.replace(/\}\n {2}\]\n\}\n?$/, '},\n  ]\n}\n'));
      at.tweets = { file, line: lineStarting(file, '  ]') };
      file = edit('articles/building-reliable-ai-agents.md', (text) => text.replace(/^lang: .*$/m, 'lang: fr'));
      at.article = { file, line: lineOf(file, 'lang') };
      return file;
    });
    expect(status).not.toBe(0);
    const errors = output.split('\n').filter((line) => /^\S+\.(md|yaml|json):\d+: /.test(line));
    const where = (name: string): string => `${path.relative(ROOT, at[name]!.file)}:${at[name]!.line}: `;
    expect(errors, output).toEqual([
      `${where('article')}lang: Invalid option: expected one of "zh"|"en"`,
      `${where('categories')}not valid YAML: duplicated mapping key (column 1)`,
      `${where('company')}not valid YAML: bad indentation of a mapping entry (column 19); a value that holds ": " must be in quotes`,
      expect.stringMatching(new RegExp(`^${escapeRegExp(where('tweets'))}not valid JSON: `)),
    ]);
    expect(output).toContain('4 content errors; fix them and build again:');
    // What followed from the broken files is not reported as problems of their own.
    expect(output).not.toMatch(
      /must define the key "profile"|is not defined in content\/categories\.yaml|Error reading data from|Invalid content reference/,
    );
    expect(output).not.toMatch(/\*\*|:0:0|Stack trace|node_modules/);
  });

  it('lists a missing cover and body image (markdown and MDX), a slug two files share beside a bad field, and an unclosed quote at its line, in one round', () => {
    // A missing image stopped the build in Vite's bundling with [ImageNotFound], a stack and no article named, and hid
    // every other error; a duplicate slug hid the other file's bad field; an unclosed quote was reported at the end of
    // the front matter (stranger s8b, M2 and L2).
    const at: Record<string, { file: string; line: number }> = {};
    const { status, output } = buildWith('missing-images', (content) => {
      const articles = path.join(content, 'articles');
      const base = readFileSync(path.join(articles, 'llm-gateway-token-budgets.md'), 'utf8');
      const withCover = path.join(articles, 'zz-cover.md');
      writeFileSync(
        withCover,
        `${base
          .replace(/^slug: .*$/m, 'slug: zz-cover')
          .replace(/^lang: en$/m, 'lang: en\ncover:\n  src: ./zz-nope.png\n  alt: A cover')}\n![a figure](./zz-also-nope.svg)\n`,
      );
      const lines = readFileSync(withCover, 'utf8').split('\n');
      at.cover = { file: withCover, line: lines.indexOf('  src: ./zz-nope.png') + 1 };
      at.body = { file: withCover, line: lines.indexOf('![a figure](./zz-also-nope.svg)') + 1 };
      const sameSlug = path.join(articles, 'zz-same-slug.md');
      writeFileSync(sameSlug, base.replace(/^lang: en$/m, 'lang: fr'));
      at.lang = { file: sameSlug, line: lineOf(sameSlug, 'lang') };
      const unclosed = path.join(articles, 'zz-unclosed.md');
      writeFileSync(unclosed, base.replace(/^slug: .*$/m, 'slug: zz-unclosed').replace(/^title: .*$/m, 'title: "Broken front matter'));
      at.quote = { file: unclosed, line: 2 };
      // An MDX body's image is imported as a module while Vite bundles the pages: it stopped the build there too.
      const mdx = path.join(articles, 'zz-mdx.mdx');
      writeFileSync(
        mdx,
        readFileSync(path.join(articles, 'gpu-capacity-planning-h100-l40s.mdx'), 'utf8')
          .replace(/^slug: .*$/m, 'slug: zz-mdx')
          .replaceAll('./gpu-capacity-planning-flow.svg', './zz-mdx-nope.svg'),
      );
      at.mdx = {
        file: mdx,
        line:
          readFileSync(mdx, 'utf8')
            .split('\n')
            .findIndex((line) => line.includes('(./zz-mdx-nope.svg')) + 1,
      };
      return withCover;
    });
    expect(status).not.toBe(0);
    const errors = output.split('\n').filter((line) => /^\S+\.mdx?:\d+: /.test(line));
    const where = ({ file, line }: { file: string; line: number }): string => `${path.relative(ROOT, file)}:${line}: `;
    expect(errors).toContain(`${where(at.cover!)}cover: ./zz-nope.png not found`);
    expect(errors).toContain(`${where(at.body!)}image ./zz-also-nope.svg not found`);
    expect(errors).toContain(`${where(at.mdx!)}image ./zz-mdx-nope.svg not found`);
    expect(errors.some((e) => e.startsWith(`${where(at.lang!)}lang: `))).toBe(true);
    expect(errors.some((e) => e.includes('the slug "llm-gateway-token-budgets" is also used by'))).toBe(true);
    expect(errors.some((e) => e.startsWith(`${where(at.quote!)}the front matter is not valid YAML: a quoted value starts here`))).toBe(
      true,
    );
    expect(output).toContain(`${errors.length} content errors; fix them and build again:`);
    expect(output).not.toMatch(/ImageNotFound|Stack trace|node_modules/);
  });

  it('lists an MDX body that does not compile, an MDX import of a missing file and an undefined component with the other errors', () => {
    // The MDX syntax error stopped the build in @astrojs/mdx's transform with a stack into node_modules and hid every
    // other error; the undefined component failed only as its page rendered, naming the route (stranger s10b, 2).
    const at: Record<string, { file: string; line: number }> = {};
    const { status, output } = buildWith('mdx-errors', (content) => {
      const articles = path.join(content, 'articles');
      const base = readFileSync(path.join(articles, 'gpu-capacity-planning-h100-l40s.mdx'), 'utf8');
      const write = (name: string, change: (text: string) => string, find: string): void => {
        const file = path.join(articles, `${name}.mdx`);
        writeFileSync(file, change(base.replace(/^slug: .*$/m, `slug: ${name}`)));
        at[name] = { file, line: readFileSync(file, 'utf8').split('\n').indexOf(find) + 1 };
      };
      write('zz-unclosed', (text) => `${text}\n<Callout type="tip">unclosed\n`, '<Callout type="tip">unclosed');
      write(
        'zz-import',
        (text) => text.replace("import Audience from '@components/Audience.astro';", "import Audience from '@components/Nope.astro';"),
        "import Audience from '@components/Nope.astro';",
      );
      write('zz-undefined', (text) => `${text}\nText.\nimport Nope from '@components/Nope.astro';\n\n<Nope />\n`, '<Nope />');
      const file = path.join(articles, 'building-reliable-ai-agents.md');
      writeFileSync(file, readFileSync(file, 'utf8').replace(/^lang: .*$/m, 'lang: fr'));
      at.lang = { file, line: lineOf(file, 'lang') };
      return file;
    });
    expect(status).not.toBe(0);
    const errors = output.split('\n').filter((line) => /^\S+\.mdx?:\d+: /.test(line));
    const where = (name: string): string => `${path.relative(ROOT, at[name]!.file)}:${at[name]!.line}: `;
    expect(errors, output).toEqual([
      `${where('lang')}lang: Invalid option: expected one of "zh"|"en"`,
      `${where('zz-import')}import "@components/Nope.astro": there is no such file (src/components/Nope.astro)`,
      `${where('zz-unclosed')}not valid MDX: Expected a closing tag for "<Callout>" (${at['zz-unclosed']!.line}:1) before the end of "paragraph"`,
      expect.stringMatching(
        new RegExp(`^${escapeRegExp(where('zz-undefined'))}<Nope> is not defined: the import on line \\d+ is read as text`),
      ),
    ]);
    expect(output).toContain('4 content errors; fix them and build again:');
    expect(output).not.toMatch(/MDXError|Stack trace|node_modules|Caught error rendering/);
  });

  it('holds back an article dated after the build day, and the link its translation makes to it, until a build on that day', () => {
    // A future date published the article at once, as the newest, with a lastmod to come in the sitemap (stranger s9b, 2).
    const zh = 'llm-inference-cost-optimization-zh';
    const en = 'speculative-decoding-faster-inference';
    const { status, output } = buildWith('scheduled', (content) => {
      editFrontMatter(path.join(content, 'articles', `${en}.md`), (fm) => `${fm}\ntranslation: ${zh}`);
      const file = path.join(content, 'articles', `${zh}.md`);
      editFrontMatter(file, (fm) => `${fm.replace(/^date: .*$/m, 'date: "2999-01-01"')}\ntranslation: ${en}`);
      return file;
    });
    expect(status, output).toBe(0);
    const built = (...parts: string[]): string => path.join(SCRATCH, 'scheduled', ...parts);
    expect(existsSync(built('dist', 'blog', en, 'index.html'))).toBe(true);
    expect(existsSync(built('dist', 'blog', zh))).toBe(false);
    expect(existsSync(built('dist', 'blog', `${zh}.md`))).toBe(false);
    const catalogued = JSON.parse(readFileSync(built('generated', 'data', 'catalog.json'), 'utf8')) as { articles: { slug: string }[] };
    expect(catalogued.articles.map((a) => a.slug)).toContain(en);
    expect(catalogued.articles.map((a) => a.slug)).not.toContain(zh);
    for (const file of ['sitemap.xml', 'rss.xml', 'llms.txt']) expect(readFileSync(built('dist', file), 'utf8')).not.toContain(zh);
    expect(readFileSync(built('dist', 'sitemap.xml'), 'utf8')).not.toContain('2999-');
    expect(readFileSync(built('dist', 'blog', en, 'index.html'), 'utf8')).not.toMatch(/hreflang="zh-CN"[^>]*\/blog\//);
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
