/**
 * `npm run dev` as an author meets it (issue 28, item 2 and the dev half of item 1): the first page
 * without a production build first, a save that lands in two writes showing the whole file, and
 * every content error listed on the page as `file:line: message`, gone at the save that fixes it.
 * The two-write save loses its second event only when the timing falls right (about 1 save in 6
 * here on the old code); src/astro/chokidar-dropped-changes.test.ts shows that loss deterministically.
 * The server runs on a free loopback port over a copy of content/, and stops by process group.
 */
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.ts';
import { type DevServer, firstPage, freePort, startDev } from '../support/dev-server.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const SCRATCH = path.join(ROOT, 'tests', '.tmp', 'dev-server');
const CONTENT = path.join(SCRATCH, 'content');
const ASTRO_CACHE = path.join(ROOT, 'node_modules', '.astro-dev-server-test');
/**
 * The dev server's CPU-seconds to its first page. Measured 9-10 (bench/dev.bench.ts); the production
 * build `npm run dev` used to run first costs several times this, so a return to it fails here.
 */
const FIRST_PAGE_CPU_SECONDS_MAX = 30;
/** A hang, not a speed limit (the loaded two-core machine may be slow). */
const FIRST_PAGE_TIMEOUT_MS = 120_000;
/** Between an editor's two writes of one save: after the first reload has read the file, within chokidar's 50 ms window. */
const BETWEEN_WRITES_MS = [20, 30, 40];
const POLL = { timeout: 30_000, interval: 250 };

let server: DevServer;
let first: { wallMs: number; cpuSeconds: number };

const article = (name: string): string => path.join(CONTENT, 'articles', name);
const relative = (file: string): string => path.relative(ROOT, file);
async function page(pagePath: string): Promise<{ status: number; text: string }> {
  const response = await fetch(new URL(pagePath, server.origin));
  return { status: response.status, text: await response.text() };
}
/** The text of the dev panel's errors, one per line (empty without the panel). */
async function panelErrors(): Promise<string[]> {
  const { text } = await page('/');
  const panel = /<aside class="dev-errors[^>]*>([\s\S]*?)<\/aside>/.exec(text)?.[1] ?? '';
  return [...panel.matchAll(/<pre[^>]*>([\s\S]*?)<\/pre>/g)].map((m) => m[1]!.replace(/&quot;/g, '"').replace(/&#34;/g, '"'));
}

beforeAll(async () => {
  rmSync(SCRATCH, { recursive: true, force: true });
  mkdirSync(SCRATCH, { recursive: true });
  cpSync(path.join(ROOT, 'content'), CONTENT, { recursive: true });
  // Its own Astro cache folder (content store, bodies): builds other test files run at the same time use the default one.
  // Under node_modules/, which Vite's watcher leaves out as it does the default one.
  rmSync(ASTRO_CACHE, { recursive: true, force: true });
  server = startDev({ port: await freePort(), env: { CONTENT_DIR: CONTENT, ASTRO_CACHE_DIR: ASTRO_CACHE } });
  first = await firstPage(server, `${server.origin}/`, FIRST_PAGE_TIMEOUT_MS);
}, FIRST_PAGE_TIMEOUT_MS + 10_000);

afterAll(async () => {
  await server?.stop();
  rmSync(SCRATCH, { recursive: true, force: true });
  rmSync(ASTRO_CACHE, { recursive: true, force: true });
});

describe('npm run dev', () => {
  it('serves its first page without building the site first', () => {
    console.log(`dev server: first page after ${(first.wallMs / 1000).toFixed(1)} s wall, ${first.cpuSeconds.toFixed(1)} CPU-s`);
    expect(server.output()).not.toContain('Building the site for');
    expect(first.cpuSeconds).toBeLessThan(FIRST_PAGE_CPU_SECONDS_MAX);
  });

  it('shows the whole file after a save in two writes: a half-written file never sticks', async () => {
    const file = article('llm-gateway-token-budgets.md');
    const original = readFileSync(file, 'utf8');
    const slug = /^slug: (.*)$/m.exec(original)![1]!.trim();
    expect((await page(`/blog/${slug}`)).status).toBe(200);
    for (const round of [1, 2, 3]) {
      const title = `Two-write save ${round}`;
      const whole = original.replace(/^title: .*$/m, `title: "${title}"`);
      // The first write stops inside the slug; the second comes inside chokidar's 50 ms window, which drops its
      // event (src/astro/chokidar-dropped-changes.ts), and after the first reload has read the half-written file.
      const cut = whole.indexOf(`slug: ${slug}`) + `slug: ${slug.slice(0, 5)}`.length;
      writeFileSync(file, whole.slice(0, cut));
      await sleep(BETWEEN_WRITES_MS[round % BETWEEN_WRITES_MS.length]!);
      writeFileSync(file, whole);
      await expect
        .poll(async () => {
          const { status, text } = await page(`/blog/${slug}`);
          return status === 200 && text.includes(title) ? 'shown' : `status ${status}`;
        }, POLL)
        .toBe('shown');
      // It stays shown once every reload has ended.
      await sleep(3_000);
      const after = await page(`/blog/${slug}`);
      expect(after.status, `round ${round}`).toBe(200);
      expect(after.text).toContain(title);
    }
    writeFileSync(file, original);
  });

  it('lists every content error on the page as file:line: message, and drops one at the save that fixes it', async () => {
    const badLang = article('building-reliable-ai-agents.md');
    const badYaml = article('rag-evaluation-faithfulness-metrics.md');
    const [langSource, yamlSource] = [readFileSync(badLang, 'utf8'), readFileSync(badYaml, 'utf8')];
    writeFileSync(badLang, langSource.replace(/^lang: .*$/m, 'lang: fr'));
    writeFileSync(badYaml, yamlSource.replace(/^title: (.*)$/m, 'title: [unclosed $1'));
    const langLine = langSource.split('\n').findIndex((line) => line.startsWith('lang:')) + 1;
    const expected = [`${relative(badLang)}:${langLine}: lang: `, `${relative(badYaml)}:`];
    await expect
      .poll(async () => {
        const errors = await panelErrors();
        return expected.every((start) => errors.some((e) => e.startsWith(start)));
      }, POLL)
      .toBe(true);
    const errors = await panelErrors();
    expect(errors.find((e) => e.startsWith(relative(badYaml)))).toMatch(/^[^:]+:\d+: the front matter is not valid YAML: /);
    for (const error of errors) {
      expect(error).toMatch(/^[^:]+:[1-9]\d*: /);
      expect(error).not.toMatch(/\*\*|:0:0|node_modules/);
    }
    writeFileSync(badLang, langSource);
    await expect.poll(async () => (await panelErrors()).some((e) => e.startsWith(relative(badLang))), POLL).toBe(false);
    expect((await panelErrors()).some((e) => e.startsWith(relative(badYaml)))).toBe(true);
    writeFileSync(badYaml, yamlSource);
    await expect.poll(async () => (await panelErrors()).length, POLL).toBe(0);
  });

  it('lists an unknown category on every page, leaving out only its article, and drops it at the save that fixes it', async () => {
    // One unknown category made every page a bare 500 "ContentError" (the list only in the terminal; stranger s10b, 4).
    const file = article('speculative-decoding-faster-inference.md');
    const source = readFileSync(file, 'utf8');
    writeFileSync(file, source.replace(/^category: .*$/m, 'category: quantum'));
    const line = source.split('\n').findIndex((l) => l.startsWith('category:')) + 1;
    const expected = `${relative(file)}:${line}: category "quantum" is not defined in content/categories.yaml (expected one of `;
    try {
      await expect.poll(async () => (await panelErrors()).some((e) => e.startsWith(expected)), POLL).toBe(true);
      expect((await page('/')).status).toBe(200);
      expect((await page('/blog')).status).toBe(200);
      expect((await page('/blog/speculative-decoding-faster-inference')).status).toBe(404);
    } finally {
      writeFileSync(file, source);
    }
    await expect.poll(async () => (await panelErrors()).length, POLL).toBe(0);
    expect((await page('/blog/speculative-decoding-faster-inference')).status).toBe(200);
  });

  it('lists a data file that is not YAML at its line, on the page or, without the company profile, instead of it', async () => {
    const categories = path.join(CONTENT, 'categories.yaml');
    const company = path.join(CONTENT, 'company.yaml');
    const [categoriesSource, companySource] = [readFileSync(categories, 'utf8'), readFileSync(company, 'utf8')];
    // A category defined twice: the panel names the second definition's line.
    writeFileSync(categories, `${categoriesSource.trimEnd()}\nprivate-deployment:\n  name: A second definition\n`);
    const duplicate = `${relative(categories)}:${categoriesSource.trimEnd().split('\n').length + 1}: not valid YAML: duplicated mapping key (column 1)`;
    await expect.poll(async () => await panelErrors(), POLL).toEqual([duplicate]);
    writeFileSync(categories, categoriesSource);
    await expect.poll(async () => (await panelErrors()).length, POLL).toBe(0);
    // No page can be drawn without the company profile: Astro's error page shows the report instead, as a browser draws it.
    const taglineLine = companySource.split('\n').findIndex((line) => line.startsWith('  tagline:')) + 1;
    writeFileSync(company, companySource.replace(/^ {2}tagline: /m, '  tagline: Private: '));
    const browser = await launchBrowser();
    try {
      const tab = await browser.newPage();
      const shown = async (): Promise<string> => {
        await tab.goto(`${server.origin}/`);
        return tab
          .locator('vite-error-overlay #message-content')
          .textContent({ timeout: 5_000 })
          .then((text) => text?.trim() ?? '')
          .catch(() => '');
      };
      await expect
        .poll(shown, POLL)
        .toBe(
          `1 content error; fix it and build again:\n${relative(company)}:${taglineLine}: not valid YAML: bad indentation of a mapping entry ` +
            '(column 19); a value that holds ": " must be in quotes',
        );
    } finally {
      await browser.close();
    }
    writeFileSync(company, companySource);
    try {
      await expect.poll(async () => (await page('/')).status, POLL).toBe(200);
    } catch (error) {
      // Seen once in CI (a 500 for 30 s after the fix): what the server said, and what the page said.
      console.error(`dev server output (tail):\n${server.output().slice(-4000)}\npage:\n${(await page('/')).text.slice(0, 2000)}`);
      throw error;
    }
    expect(await panelErrors()).toEqual([]);
  });
});
