/** llms.txt per language, sectioned beyond the size budget, measured at 10,000 generated articles. */
import { describe, expect, it } from 'vitest';
import { generateDocuments } from '../../../bench/generate-corpus.ts';
import { FIXTURE_CATALOG } from '../../../tests/support/core-fixtures.ts';
import { byNewest, type Article, type Catalog, type Solution } from '../content/catalog.ts';
import { AGENT_INSTRUCTIONS_HEADING, agentInstructions } from '../agent-tools/instructions.ts';
import { LLMS_TXT_MAX_CHARS, llmsFiles, llmsTxt } from './llms.ts';
import { llmsFullTxt } from './feeds.ts';
import { sitePages } from './pages.ts';

const ORIGIN = FIXTURE_CATALOG.origin;
const linksOf = (text: string): string[] => [...text.matchAll(/^- \[[^\]]+\]\(([^)]+)\)/gm)].map((m) => m[1]!);
const local = (url: string): string => url.slice(ORIGIN.length);
const twinOf = (path: string): string => `${ORIGIN}${path}.md`;

function generatedCatalog(n: number): Catalog {
  const docs = [...generateDocuments({ n, seed: 7 })];
  const categories = [...new Set(docs.map((d) => d.category))].map((slug) => ({ slug, name: slug, name_zh: slug, description: slug }));
  return {
    ...FIXTURE_CATALOG,
    categories,
    articles: docs.filter((d): d is Article => d.type === 'article').sort(byNewest),
    solutions: docs.filter((d): d is Solution => d.type === 'solution').sort(byNewest),
  };
}

describe('llms.txt at the fixture size', () => {
  const files = llmsFiles(FIXTURE_CATALOG);
  const file = (path: string): string => files.find((f) => f.path === path)!.text;

  it('the root lists every document and names both language indexes', () => {
    expect(files.map((f) => f.path)).toEqual(['/llms.txt', '/en/llms.txt', '/zh/llms.txt']);
    const root = llmsTxt(FIXTURE_CATALOG);
    const links = linksOf(root);
    for (const d of [...FIXTURE_CATALOG.articles, ...FIXTURE_CATALOG.solutions]) expect(links).toContain(twinOf(d.path));
    expect(root).toContain(`\`${ORIGIN}/zh/llms.txt\``);
    expect(root).toContain(`\`${ORIGIN}/en/llms.txt\``);
  });

  it('counts each language in words that fit the number (the fixture has 1 Chinese document and 3 English ones)', () => {
    const root = llmsTxt(FIXTURE_CATALOG);
    const count = (lang: string): number =>
      [...FIXTURE_CATALOG.articles, ...FIXTURE_CATALOG.solutions].filter((d) => d.lang === lang).length;
    expect(count('zh')).toBe(1);
    expect(root).toContain(`${count('zh')} article or solution in zh`);
    expect(root).toContain(`${count('en')} articles and solutions in en`);
    expect(root).not.toMatch(/\b1 articles/);
  });

  it('the root links every page the sitemap lists (AFDocs llms-txt-coverage), and links nothing but markdown', () => {
    const pages = sitePages(FIXTURE_CATALOG);
    const root = llmsTxt(FIXTURE_CATALOG, pages);
    const links = [...root.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
    const listed = pages.filter((p) => p.listed !== false);
    expect(listed.length).toBeGreaterThan(30);
    for (const page of listed) expect(links, page.path).toContain(page.path === '/' ? `${ORIGIN}/index.md` : twinOf(page.path));
    for (const page of pages.filter((p) => p.listed === false)) expect(links).not.toContain(twinOf(page.path));
    // Every link a twin, auth.md or sitemap.md (the Agent Readability Spec's llms-txt.md-extensions): endpoints are code spans.
    expect(links.filter((l) => !l.endsWith('.md'))).toEqual([]);
    expect(root).toContain(`- MCP server: \`${ORIGIN}/mcp\``);
    expect(root).toContain(`- Full text (llms-full.txt): \`${ORIGIN}/llms-full.txt\``);
    expect(links).toContain(`${ORIGIN}/sitemap.md`);
    expect(links).toContain(`${ORIGIN}/auth.md`);
  });

  it('the root has a "## Docs" section with the developer documentation (Mintlify llms-txt-directive-format)', () => {
    const root = llmsTxt(FIXTURE_CATALOG);
    const docs = /\n## Docs\n\n([\s\S]*?)\n\n## /.exec(root)![1]!;
    expect(linksOf(docs).map(local)).toEqual(
      expect.arrayContaining(['/developers.md', '/zh/developers.md', '/docs/api.md', '/docs/api/search-articles.md', '/auth.md']),
    );
    expect(
      linksOf(docs)
        .map(local)
        .filter((p) => !p.startsWith('/docs/api') && !p.endsWith('developers.md')),
    ).toEqual(['/auth.md']);
  });

  it('each language file lists exactly its language', () => {
    for (const lang of ['zh', 'en'] as const) {
      const expected = [...FIXTURE_CATALOG.solutions, ...FIXTURE_CATALOG.articles]
        .filter((d) => d.lang === lang)
        .map((d) => twinOf(d.path));
      expect(linksOf(file(`/${lang}/llms.txt`)).filter((l) => l.endsWith('.md'))).toEqual(expected);
    }
  });

  it('shows the instructions for agents, written once, in llms.txt, in every twin and once in llms-full.txt', () => {
    const instructions = agentInstructions(FIXTURE_CATALOG);
    expect(instructions).toContain(FIXTURE_CATALOG.company.operator_attribution);
    expect(llmsTxt(FIXTURE_CATALOG)).toContain(`${AGENT_INSTRUCTIONS_HEADING}\n\n${instructions}`);
    const pages = sitePages(FIXTURE_CATALOG);
    expect(pages.length).toBeGreaterThan(10);
    for (const page of pages) expect(page.markdown, page.path).toMatch(new RegExp(`\\n${AGENT_INSTRUCTIONS_HEADING}\\n\\n[^]*\\n$`));
    for (const page of pages) expect(page.markdown.endsWith(`${instructions}\n`), page.path).toBe(true);
    const full = llmsFullTxt(FIXTURE_CATALOG, pages);
    expect(full.split(AGENT_INSTRUCTIONS_HEADING)).toHaveLength(2);
  });
});

describe('llms.txt at 10,000 generated articles', () => {
  const catalog = generatedCatalog(10_000);
  const files = llmsFiles(catalog);

  it(`keeps every file under ${LLMS_TXT_MAX_CHARS} characters, the root linking the language indexes`, () => {
    for (const f of files) expect(f.text.length, f.path).toBeLessThan(LLMS_TXT_MAX_CHARS);
    expect(files[0]!.text).toContain('\n## Docs\n');
    expect(new Set(files.map((f) => f.path)).size).toBe(files.length);
    const root = linksOf(files[0]!.text);
    expect(root).toContain(`${ORIGIN}/zh/llms.txt`);
    expect(root).toContain(`${ORIGIN}/en/llms.txt`);
    expect(root.filter((l) => l.includes('/blog/'))).toEqual([]);
  });

  it('the sections of each language list every document of it exactly once, and every section is linked', () => {
    const paths = new Set(files.map((f) => f.path));
    for (const lang of ['zh', 'en'] as const) {
      const index = files.find((f) => f.path === `/${lang}/llms.txt`)!.text;
      const sections = linksOf(index)
        .map(local)
        .filter((p) => p.startsWith(`/${lang}/llms/`));
      expect(sections.length).toBeGreaterThan(1);
      const categoryFiles = files.filter((f) => f.path.startsWith(`/${lang}/llms/`) && !/\/llms\/pages(-\d+)?\.txt$/.test(f.path));
      expect(categoryFiles.map((f) => f.path)).toEqual(sections);
      for (const s of sections) expect(paths.has(s), s).toBe(true);
      const listed = sections.flatMap((s) => linksOf(files.find((f) => f.path === s)!.text).filter((l) => l.endsWith('.md')));
      const expected = [...catalog.solutions, ...catalog.articles].filter((d) => d.lang === lang).map((d) => twinOf(d.path));
      expect(listed.length).toBe(expected.length);
      expect(new Set(listed)).toEqual(new Set(expected));
    }
  });
});

describe('llms.txt past the root budget, read as the afdocs tool reads it', () => {
  const catalog = generatedCatalog(10_000);
  const pages = sitePages(catalog);
  const files = llmsFiles(catalog, pages);
  const text = (url: string): string | undefined => files.find((f) => `${ORIGIN}${f.path}` === url)?.text;
  const allLinks = (body: string): string[] => [...body.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);

  it('the root and the .txt files it links, one level deep, list every page the sitemap does (AFDocs llms-txt-coverage)', () => {
    const root = allLinks(files[0]!.text);
    const nested = root.filter((l) => l.endsWith('.txt'));
    for (const url of nested) expect(text(url), url).toBeDefined();
    const reached = new Set([...root, ...nested.flatMap((url) => allLinks(text(url)!))].filter((l) => !l.endsWith('.txt')));
    const listed = pages.filter((p) => p.listed !== false);
    expect(listed.filter((p) => p.path.includes('/tag/')).length).toBeGreaterThan(100);
    const missing = listed
      .filter((p) => !reached.has(encodeURI(p.path === '/' ? `${ORIGIN}/index.md` : twinOf(p.path))))
      .map((p) => p.path);
    expect(missing).toEqual([]);
  });

  it('each language has its other pages in /{lang}/llms/pages.txt, every file under the budget', () => {
    for (const lang of ['zh', 'en'] as const) {
      const others = files.filter((f) => /\/llms\/pages(-\d+)?\.txt$/.test(f.path) && f.path.startsWith(`/${lang}/`));
      expect(others[0]!.path).toBe(`/${lang}/llms/pages.txt`);
      for (const f of others) expect(f.text).toMatch(/^# .*: pages/);
      expect(others.flatMap((f) => linksOf(f.text)).map(local)).toContain(lang === 'zh' ? '/zh/search.md' : '/search.md');
    }
    for (const f of files) expect(f.text.length, f.path).toBeLessThan(LLMS_TXT_MAX_CHARS);
  });
});
