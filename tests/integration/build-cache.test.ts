/**
 * The incremental build (issue 25): a rebuild reuses what depends only on unchanged inputs, and
 * never serves anything stale. A scratch copy of the project (its code, content and functions;
 * node_modules linked) is built five times with real `astro build` runs and one kept cache folder:
 * 1. cold;
 * 2. one article edited (title, body, updated date): the change reaches every surface (page, twin,
 *    llms.txt, sitemap, RSS, search, MCP, A2A, its OG image, every page that lists it), and the
 *    pages that do not show it are copied from the cache, byte for byte; another's body alone edited (a page key
 *    names a plain article's text by its source's digest, not the text) reaches its page and twin;
 * 3. an image beside an article replaced under the same name: the article and its twin show the new one, and only the
 *    pages that show it are rendered again;
 * 4. the company's tagline edited (a site fact every page's footer shows): no page keeps the old one;
 * 5. code edited (a card component, and a markdown plugin that Astro's own page hashing cannot see):
 *    every page shows the new code's output.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRuntime, type LocalRuntime } from '../../scripts/runtime/index.ts';
import { a2aSendMessage } from '../support/core-fixtures.ts';
import { testBlobsDir } from '../support/runtime.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const SCRATCH = path.join(ROOT, 'tests', '.tmp', 'build-cache');
const ORIGIN = 'http://localhost:8899';
/** What the scratch project needs to build and to serve (the functions read its generated/ data). */
const PROJECT_FILES = [
  'src',
  'public',
  'netlify',
  'scripts',
  'astro.config.mjs',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'netlify.toml',
];

/** One real `astro build` of the seed site: ≈ 30 s alone, past 2 minutes on a loaded 2-core machine. */
const BUILD_TIMEOUT_MS = 300_000;
const EDITED = 'rag-evaluation-faithfulness-metrics';
const UNTOUCHED = 'mcp-oauth-agent-integrations';
const NEW_TITLE = 'Faithfulness metrics, revised after the quokka review';
const NEW_WORD = 'zanzibarquokka';
/** A plain-markdown article whose body alone is edited, with a word only the new text has. */
const BODY_ONLY = 'speculative-decoding-faster-inference';
const BODY_WORD = 'marmosetdraft';
/** An article whose body shows an image beside it (gpu-capacity-planning-flow.svg). */
const IMAGE_ARTICLE = 'gpu-capacity-planning-h100-l40s';

interface Build {
  status: number | null;
  output: string;
  /** Files Astro copied from its cache instead of rendering ("(restored)" in its log). */
  restored: number;
}

function build(): Build {
  const result = spawnSync(process.execPath, [path.join(SCRATCH, 'node_modules/astro/bin/astro.mjs'), 'build'], {
    cwd: SCRATCH,
    encoding: 'utf8',
    env: {
      ...process.env,
      SITE_URL: ORIGIN,
      CONTENT_DIR: path.join(SCRATCH, 'content'),
      // node_modules is the real project's (a link): the cache must stay in the scratch folder.
      ASTRO_CACHE_DIR: path.join(SCRATCH, 'cache'),
      ASTRO_OUT_DIR: undefined,
      GENERATED_DIR: undefined,
      DEPLOY_BLOBS_DIR: undefined,
      // Every card drawn in the build, so the cache of cards is tested (on demand, a card is drawn by the og-image function).
      OG_IMAGES: 'build',
      // A new build machine has no Node compile cache.
      NODE_COMPILE_CACHE: path.join(SCRATCH, `compile-cache-${Date.now()}`),
      ASTRO_TELEMETRY_DISABLED: '1',
      NO_COLOR: '1',
      FORCE_COLOR: '0',
    },
  });
  const output = stripVTControlCharacters(`${result.stdout}\n${result.stderr}`);
  return { status: result.status, output, restored: (output.match(/\(restored\)/g) ?? []).length };
}

const dist = (file: string): string => path.join(SCRATCH, 'dist', file);
const read = (file: string): string => readFileSync(dist(file), 'utf8');

/** Every HTML file of the build, relative to dist/. */
function htmlFiles(dir = dist('.'), prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? htmlFiles(path.join(dir, entry.name), `${prefix}${entry.name}/`)
      : entry.name.endsWith('.html')
        ? [`${prefix}${entry.name}`]
        : [],
  );
}

function editFile(file: string, edit: (text: string) => string): void {
  const text = readFileSync(file, 'utf8');
  const edited = edit(text);
  if (edited === text) throw new Error(`the edit changed nothing in ${file}`);
  writeFileSync(file, edited);
}

let cold: Build;
const oldTitle = (): string =>
  /^title: "?(.*?)"?$/m.exec(readFileSync(path.join(ROOT, 'content', 'articles', `${EDITED}.md`), 'utf8'))![1]!;

beforeAll(() => {
  rmSync(SCRATCH, { recursive: true, force: true });
  mkdirSync(SCRATCH, { recursive: true });
  for (const name of [...PROJECT_FILES, 'content'])
    cpSync(path.join(ROOT, name), path.join(SCRATCH, name), { recursive: true, filter: (src) => !src.endsWith('.test.ts') });
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(SCRATCH, 'node_modules'), 'dir');
  cold = build();
  expect(cold.status, cold.output.slice(-3000)).toBe(0);
}, BUILD_TIMEOUT_MS);

afterAll(() => rmSync(SCRATCH, { recursive: true, force: true }));

describe('one article edited: an incremental build', () => {
  let before: { untouchedPage: string; untouchedOg: Buffer; editedOg: Buffer };
  let runtime: LocalRuntime;
  let edited: Build;

  beforeAll(async () => {
    before = {
      untouchedPage: read(`blog/${UNTOUCHED}/index.html`),
      untouchedOg: readFileSync(dist(`og/blog/${UNTOUCHED}.png`)),
      editedOg: readFileSync(dist(`og/blog/${EDITED}.png`)),
    };
    editFile(path.join(SCRATCH, 'content', 'articles', `${EDITED}.md`), (text) =>
      text
        .replace(/^title: .*$/m, `title: "${NEW_TITLE}"`)
        .replace(/^date: (.*)$/m, 'date: $1\nupdated: "2026-11-25"')
        .concat(`\n\nThe ${NEW_WORD} review found two more faithfulness failures.\n`),
    );
    editFile(path.join(SCRATCH, 'content', 'articles', `${BODY_ONLY}.md`), (text) => `${text}\nThe ${BODY_WORD} trial settled it.\n`);
    edited = build();
    expect(edited.status, edited.output.slice(-3000)).toBe(0);
    runtime = await startRuntime({ root: SCRATCH, blobsDir: testBlobsDir() });
  }, BUILD_TIMEOUT_MS);
  afterAll(async () => {
    await runtime?.stop();
    if (runtime) rmSync(runtime.blobsDir, { recursive: true, force: true });
  });
  const fetchPath = (p: string, init?: RequestInit): Promise<Response> => runtime.handle(new Request(new URL(p, ORIGIN), init));

  it('copies the pages that do not show the article from the cache, byte for byte, and draws only its OG image again', () => {
    // Most pages and OG images come from the cache; the article, its neighbours, listings and tag pages are rendered.
    expect(cold.restored).toBe(0);
    expect(edited.restored).toBeGreaterThan(150);
    expect(read(`blog/${UNTOUCHED}/index.html`)).toBe(before.untouchedPage);
    expect(readFileSync(dist(`og/blog/${UNTOUCHED}.png`)).equals(before.untouchedOg)).toBe(true);
    expect(readFileSync(dist(`og/blog/${EDITED}.png`)).equals(before.editedOg)).toBe(false);
  });

  it('shows the new title and body on the page and in its twin, and the old title on no page at all', () => {
    const page = read(`blog/${EDITED}/index.html`);
    expect(page).toContain(NEW_TITLE);
    expect(page).toContain(NEW_WORD);
    const twin = read(`blog/${EDITED}.md`);
    expect(twin).toContain(`# ${NEW_TITLE}`);
    expect(twin).toContain(NEW_WORD);
    // Listings, tag and category pages, neighbours' links, related lists: none may keep the old title.
    const stale = htmlFiles().filter((file) => read(file).includes(oldTitle()));
    expect(stale).toEqual([]);
    const listing = htmlFiles().filter((file) => file !== `blog/${EDITED}/index.html` && read(file).includes(NEW_TITLE));
    expect(listing.length).toBeGreaterThan(3);
  });

  it('renders an article whose body alone changed again, page and twin', () => {
    expect(read(`blog/${BODY_ONLY}/index.html`)).toContain(BODY_WORD);
    expect(read(`blog/${BODY_ONLY}.md`)).toContain(BODY_WORD);
  });

  it('reaches llms.txt, llms-full.txt, the sitemap and the feeds', () => {
    expect(read('llms.txt')).toContain(NEW_TITLE);
    expect(read('llms.txt')).not.toContain(oldTitle());
    expect(read('llms-full.txt')).toContain(NEW_WORD);
    expect(read('sitemap.xml')).toMatch(new RegExp(`/blog/${EDITED}</loc>\\s*<lastmod>2026-11-25</lastmod>`));
    expect(read('rss.xml')).toContain(NEW_TITLE);
    expect(read('rss.xml')).not.toContain(oldTitle());
  });

  it('reaches search, MCP and A2A through the functions', async () => {
    const search = (await (await fetchPath(`/api/search?q=${NEW_WORD}`)).json()) as { slug: string; title: string }[];
    expect(search.map((r) => [r.slug, r.title])).toContainEqual([EDITED, NEW_TITLE]);

    const mcp = await fetchPath('/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_article', arguments: { slug: EDITED } } }),
    });
    const article = JSON.stringify(await mcp.json());
    expect(article).toContain(NEW_TITLE);
    expect(article).toContain(NEW_WORD);

    const a2a = await runtime.handle(a2aSendMessage([{ text: NEW_WORD }], ORIGIN));
    const answer = JSON.stringify(await a2a.json());
    expect(answer).toContain(NEW_TITLE);
  });
});

describe('an image beside an article replaced under the same name', () => {
  it('shows the new image on the article and in its twin, and renders only the pages that show it', { timeout: BUILD_TIMEOUT_MS }, () => {
    // The twin names the image as built; the page, the copy Astro's image service made of it.
    const svgUrl = /\/_astro\/gpu-capacity-planning-flow\.[\w-]+\.svg/;
    const oldUrl = svgUrl.exec(read(`blog/${IMAGE_ARTICLE}.md`))?.[0];
    const oldPageUrl = svgUrl.exec(read(`blog/${IMAGE_ARTICLE}/index.html`))?.[0];
    expect(oldUrl, 'the twin names the built image').toBeDefined();
    expect(oldPageUrl, 'the page shows the image').toBeDefined();
    editFile(path.join(SCRATCH, 'content', 'articles', 'gpu-capacity-planning-flow.svg'), (text) =>
      text.replace('</svg>', '<!-- redrawn for the cache test --></svg>'),
    );
    const rebuilt = build();
    expect(rebuilt.status, rebuilt.output.slice(-3000)).toBe(0);
    const newUrl = svgUrl.exec(read(`blog/${IMAGE_ARTICLE}.md`))?.[0];
    expect(newUrl).toBeDefined();
    expect(newUrl).not.toBe(oldUrl);
    const newPageUrl = svgUrl.exec(read(`blog/${IMAGE_ARTICLE}/index.html`))?.[0];
    expect(newPageUrl).toBeDefined();
    expect(newPageUrl).not.toBe(oldPageUrl);
    for (const url of [newUrl!, newPageUrl!]) expect(readFileSync(dist(url.slice(1)), 'utf8')).toContain('redrawn for the cache test');
    expect(htmlFiles().filter((file) => read(file).includes(oldUrl!) || read(file).includes(oldPageUrl!))).toEqual([]);
    // The build's reuse line: the article and the pages every build renders, not the whole site (it was every page).
    const [, copied, total] = /([\d,]+) of ([\d,]+) pages copied from the cache/
      .exec(rebuilt.output)!
      .map((n) => Number(n.replace(/,/g, '')));
    expect(total! - copied!).toBeLessThan(total! / 4);
    // The line counts pages; Astro marks every file it copied, OG cards and icons as well.
    expect(copied).toBe((rebuilt.output.match(/\.html \(restored\)/g) ?? []).length);
  });
});

describe('a site fact edited: the tagline every footer shows', () => {
  it('leaves no page with the old tagline', { timeout: BUILD_TIMEOUT_MS }, () => {
    const company = path.join(SCRATCH, 'content', 'company.yaml');
    const tagline = /^\s*tagline: "?(.*?)"?$/m.exec(readFileSync(company, 'utf8'))![1]!;
    editFile(company, (text) => text.replace(/^(\s*)tagline: .*$/m, '$1tagline: "Private AI, revised for the cache test"'));
    const rebuilt = build();
    expect(rebuilt.status, rebuilt.output.slice(-3000)).toBe(0);
    const english = htmlFiles().filter((file) => read(file).includes('<html lang="en"'));
    expect(english.length).toBeGreaterThan(20);
    expect(english.filter((file) => !read(file).includes('Private AI, revised for the cache test'))).toEqual([]);
    expect(htmlFiles().filter((file) => read(file).includes(tagline))).toEqual([]);
  });
});

describe('code edited: a component and a markdown plugin', () => {
  it('renders every page with the new code, none from the cache', { timeout: BUILD_TIMEOUT_MS }, () => {
    editFile(path.join(SCRATCH, 'src', 'components', 'DocCard.astro'), (text) =>
      text.replace('<li class="card"', '<li class="card card-v2"'),
    );
    // The markdown plugins run in the content layer, outside any page's module graph.
    editFile(path.join(SCRATCH, 'src', 'astro', 'markdown-plugins.ts'), (text) =>
      text.replace('class="anchor-link"', 'class="anchor-link anchor-v2"'),
    );
    const rebuilt = build();
    expect(rebuilt.status, rebuilt.output.slice(-3000)).toBe(0);
    expect(rebuilt.restored).toBe(0);
    const pages = htmlFiles().map((file) => ({ file, html: read(file) }));
    // DocCard's list item opens with its title (after a cover), which carries the document's lang (other pages have cards
    // of their own: /zh/developers marks its English links' cards with lang on the list item).
    const docCards = (html: string, cls: string): boolean =>
      new RegExp(`<li class="${cls}">(?:<img[^>]*>)?<h[23] lang="[^"]*"><a `).test(html);
    const withCards = pages.filter((p) => docCards(p.html, 'card[^"]*'));
    expect(withCards.length).toBeGreaterThan(20);
    expect(withCards.filter((p) => docCards(p.html, 'card')).map((p) => p.file)).toEqual([]);
    // Headings of article and solution bodies (other pages draw their own anchor links).
    const bodies = pages.filter((p) => /^(blog|solutions)\/[^/]+\/index\.html$/.test(p.file));
    const withAnchors = bodies.filter((p) => p.html.includes('class="anchor-link'));
    expect(withAnchors.length).toBeGreaterThan(10);
    expect(withAnchors.filter((p) => p.html.includes('class="anchor-link"')).map((p) => p.file)).toEqual([]);
    expect(existsSync(dist(`blog/${EDITED}/index.html`))).toBe(true);
  });
});
