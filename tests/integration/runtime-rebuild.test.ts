/**
 * `npm run build` beside a running runtime, on the real site (stranger s9b, finding 1): after the rebuild a deleted
 * article is gone from /api/search and MCP, a new one is found and its body read, /health counts the new index; while
 * no build is complete, the functions answer 503 as the pages do. A scratch copy of the site (its functions, content,
 * dist/ and generated/) is built with the real `astro build`, so the test build the other files serve is not touched.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRuntime, type LocalRuntime } from '../../scripts/runtime/index.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
// Under the checkout, so the copied functions resolve their packages from its node_modules.
const SITE = path.join(ROOT, 'tests', '.tmp', 'runtime-rebuild');
const CONTENT = path.join(SITE, 'content');
const FINGERPRINT = path.join(SITE, 'generated', 'fingerprint.txt');

function article(slug: string, word: string): string {
  return [
    '---',
    `title: "The ${word} article"`,
    `slug: ${slug}`,
    'category: ai-agents',
    'date: "2025-12-20"',
    `excerpt: An article about ${word}, in one build only.`,
    'lang: en',
    'tags:',
    '  - AI agents',
    '---',
    '',
    `Everything about ${word}.`,
    '',
  ].join('\n');
}

/** `npm run build` into the scratch site: the fingerprint deleted first, written last (scripts/build-fingerprint.ts). */
function build(name: string): void {
  rmSync(FINGERPRINT, { force: true });
  const result = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/astro/bin/astro.mjs'), 'build'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: {
      ...process.env,
      CONTENT_DIR: CONTENT,
      ASTRO_OUT_DIR: path.join(SITE, 'dist'),
      GENERATED_DIR: path.join(SITE, 'generated'),
      DEPLOY_BLOBS_DIR: path.join(SITE, 'deploy-blobs'),
      OG_IMAGES: 'off',
      ASTRO_CACHE_DIR: path.join(SITE, 'cache'),
      ASTRO_TELEMETRY_DISABLED: '1',
      NO_COLOR: '1',
    },
  });
  expect(result.status, `${result.stdout}\n${result.stderr}`).toBe(0);
  writeFileSync(FINGERPRINT, `${name}\n`);
}

let runtime: LocalRuntime;
beforeAll(async () => {
  rmSync(SITE, { recursive: true, force: true });
  mkdirSync(path.join(SITE, 'netlify'), { recursive: true });
  cpSync(path.join(ROOT, 'netlify', 'functions'), path.join(SITE, 'netlify', 'functions'), {
    recursive: true,
    filter: (file) => !file.endsWith('.test.ts'),
  });
  cpSync(path.join(ROOT, 'netlify.toml'), path.join(SITE, 'netlify.toml'));
  symlinkSync(path.join(ROOT, 'src'), path.join(SITE, 'src'), 'dir');
  cpSync(path.join(ROOT, 'content'), CONTENT, { recursive: true });
  writeFileSync(path.join(CONTENT, 'articles', 'rebuild-echo.md'), article('rebuild-echo', 'narwhalfuture'));
  build('first');
  runtime = await startRuntime({ root: SITE, blobsDir: path.join(SITE, 'blobs'), edgeFunctions: false });
}, 300_000);
afterAll(async () => {
  await runtime?.stop();
  rmSync(SITE, { recursive: true, force: true });
});

const search = async (q: string): Promise<string[]> => {
  const answer = await runtime.handle(new Request(`http://localhost/api/search?q=${q}`));
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { slug: string }[]).map((r) => r.slug);
};

async function mcp(name: string, args: object): Promise<{ result?: { content: { text: string }[]; isError?: boolean }; error?: unknown }> {
  const answer = await runtime.handle(
    new Request('http://localhost/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
    }),
  );
  expect(answer.status).toBe(200);
  return (await answer.json()) as never;
}

const documents = async (): Promise<number> =>
  ((await (await runtime.handle(new Request('http://localhost/health'))).json()) as { checks: { search_index: { documents: number } } })
    .checks.search_index.documents;

describe('npm run build beside a running runtime, on the real site', () => {
  it('serves the new build on every surface: a deleted article is gone, a new one is found and read', async () => {
    expect(await search('narwhalfuture')).toEqual(['rebuild-echo']);
    expect((await mcp('search_articles', { query: 'narwhalfuture' })).result?.content[0]?.text).toContain('rebuild-echo');
    const before = await documents();

    unlinkSync(path.join(CONTENT, 'articles', 'rebuild-echo.md'));
    writeFileSync(path.join(CONTENT, 'articles', 'rebuild-fresh.md'), article('rebuild-fresh', 'axolotlnew'));
    rmSync(FINGERPRINT); // the build starts
    for (const pathname of ['/api/search?q=narwhalfuture', '/health', '/']) {
      expect((await runtime.handle(new Request(`http://localhost${pathname}`))).status, pathname).toBe(503);
    }
    build('second');

    expect(await search('narwhalfuture')).toEqual([]);
    expect(await search('axolotlnew')).toEqual(['rebuild-fresh']);
    expect((await mcp('search_articles', { query: 'narwhalfuture' })).result?.content[0]?.text).not.toContain('rebuild-echo');
    const fresh = await mcp('get_article', { slug: 'rebuild-fresh' });
    expect(fresh.result?.isError).toBeFalsy();
    expect(fresh.result?.content[0]?.text).toContain('Everything about axolotlnew.');
    const gone = await mcp('get_article', { slug: 'rebuild-echo' });
    expect(JSON.stringify(gone)).not.toContain('-32603');
    expect(await documents()).toBe(before);
    expect((await runtime.handle(new Request('http://localhost/blog/rebuild-echo'))).status).toBe(404);
    expect((await runtime.handle(new Request('http://localhost/blog/rebuild-fresh'))).status).toBe(200);
  }, 300_000);
});
