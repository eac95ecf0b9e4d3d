/**
 * A rebuild under a running runtime (`npm run build` beside `npm start`, stranger s9b finding 1): every surface
 * switches to the new build together (pages, the functions' build data and their deploy store), and while no build is
 * complete (one under way, or failed) functions answer 503 as pages do. A scratch site with one function that
 * answers from everything a function reads of its build: a JSON import, a file beside it read when first needed
 * (as the search index and catalogue shards are), and an article body from the deploy store.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRuntime, type LocalRuntime } from './index.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
// Under the checkout, so the function resolves @netlify/blobs from its node_modules.
mkdirSync(path.join(ROOT, 'tests', '.tmp'), { recursive: true });
const SITE = mkdtempSync(path.join(ROOT, 'tests', '.tmp', 'build-switch-'));

const PROBE = `import { readFileSync } from 'node:fs';
import { getDeployStore } from '@netlify/blobs';
import info from '../../generated/build-info.json' with { type: 'json' };
let lazy;
export default async (req) => {
  lazy ??= readFileSync(new URL('../../generated/data/lazy.txt', import.meta.url), 'utf8');
  const slug = new URL(req.url).searchParams.get('slug');
  const body = slug ? await getDeployStore().get('bodies/' + slug, { type: 'text' }) : null;
  return Response.json({ built: info.built_at, lazy, body });
};
export const config = { path: '/api/probe' };
`;

/** What a build writes: dist/, generated/ afresh (the build deletes it first), the fingerprint last. */
function build(name: string, articles: Record<string, string>, builtAt = name, origin?: string): void {
  rmSync(path.join(SITE, 'generated'), { recursive: true, force: true });
  mkdirSync(path.join(SITE, 'generated', 'data'), { recursive: true });
  mkdirSync(path.join(SITE, 'dist'), { recursive: true });
  writeFileSync(path.join(SITE, 'dist', 'index.html'), `<h1>home ${name}</h1>`);
  writeFileSync(path.join(SITE, 'dist', '404.html'), '<h1>not here</h1>');
  writeFileSync(path.join(SITE, 'generated', 'build-info.json'), JSON.stringify({ built_at: builtAt, ...(origin ? { origin } : {}) }));
  writeFileSync(path.join(SITE, 'generated', 'data', 'lazy.txt'), name);
  const catalog = { articles: Object.entries(articles).map(([slug, markdown]) => ({ slug, markdown })), solutions: [] };
  writeFileSync(path.join(SITE, 'generated', 'data', 'catalog.json'), JSON.stringify(catalog));
  writeFileSync(path.join(SITE, 'generated', 'fingerprint.txt'), `${name}\n`);
}

/** What `npm run build` does first (build-fingerprint --before, then Astro empties dist/), and a failed build leaves. */
function buildStarts(): void {
  rmSync(path.join(SITE, 'generated', 'fingerprint.txt'));
  rmSync(path.join(SITE, 'dist', 'index.html'));
}

let runtime: LocalRuntime;
beforeAll(async () => {
  mkdirSync(path.join(SITE, 'netlify', 'functions'), { recursive: true });
  writeFileSync(path.join(SITE, 'netlify', 'functions', 'probe.mjs'), PROBE);
  writeFileSync(path.join(SITE, 'netlify.toml'), '[build]\npublish = "dist"\n');
  build('one', { 'old-name': 'the old body' });
  runtime = await startRuntime({ root: SITE, blobsDir: path.join(SITE, 'blobs'), edgeFunctions: false });
});
afterAll(async () => {
  await runtime?.stop();
  rmSync(SITE, { recursive: true, force: true });
});

const probe = async (slug = ''): Promise<Response> => runtime.handle(new Request(`http://localhost/api/probe?slug=${slug}`));

describe('a rebuild under a running runtime', () => {
  it('switches pages and functions to the new build together, and answers 503 everywhere while none is complete', async () => {
    expect(await (await probe('old-name')).json()).toEqual({ built: 'one', lazy: 'one', body: 'the old body' });
    expect(await (await runtime.handle(new Request('http://localhost/'))).text()).toBe('<h1>home one</h1>');

    buildStarts();
    const during = await probe();
    expect(during.status).toBe(503);
    expect(during.headers.get('content-type')).toBe('application/problem+json');
    expect(((await during.json()) as { detail: string }).detail).toMatch(/npm run build/);
    expect((await runtime.handle(new Request('http://localhost/'))).status).toBe(503);
    expect((await runtime.handle(new Request('http://localhost/blog/x'))).status).toBe(503);

    build('two', { 'new-name': 'the renamed body' });
    expect(await (await probe('new-name')).json()).toEqual({ built: 'two', lazy: 'two', body: 'the renamed body' });
    expect(await (await probe('old-name')).json()).toMatchObject({ body: null });
    expect(await (await runtime.handle(new Request('http://localhost/'))).text()).toBe('<h1>home two</h1>');
    expect(runtime.functions.map((f) => f.name)).toEqual(['probe']);

    // A rebuild with nothing changed is still a new build (its build time).
    buildStarts();
    build('two', { 'new-name': 'the renamed body' }, 'two, again');
    expect(await (await probe()).json()).toMatchObject({ built: 'two, again' });
  });
});

describe('a rebuild for another origin (stranger s10b, finding 1)', () => {
  it('is not served: every surface answers 503 naming both origins and the command, until a build for this origin', async () => {
    const own = 'http://localhost:4321';
    build('mine', { a: 'body a' }, 'mine', own);
    await runtime.stop(); // one runtime a process; afterAll stops this one
    const served = await startRuntime({ root: SITE, blobsDir: path.join(SITE, 'blobs-origin'), edgeFunctions: false, origin: own });
    runtime = served;
    {
      const probeOf = (slug = ''): Promise<Response> => served.handle(new Request(`${own}/api/probe?slug=${slug}`));
      // (Its first functions are this process's modules of the first runtime: one runtime a process, as npm start runs.)
      expect((await probeOf('a')).status).toBe(200);
      expect(await (await served.handle(new Request(`${own}/`))).text()).toBe('<h1>home mine</h1>');

      buildStarts();
      build('theirs', { a: 'body a' }, 'theirs', 'http://localhost:8888');
      const api = await probeOf();
      expect(api.status).toBe(503);
      const { detail } = (await api.json()) as { detail: string };
      expect(detail).toContain('made for http://localhost:8888, but this server serves http://localhost:4321');
      expect(detail).toContain('SITE_URL=http://localhost:4321 npm run build');
      const page = await served.handle(new Request(`${own}/`));
      expect(page.status).toBe(503);
      expect(await page.text()).toContain('made for http://localhost:8888');

      buildStarts();
      build('mine again', { a: 'body a' }, 'mine again', `${own}/`);
      expect(await (await probeOf('a')).json()).toMatchObject({ built: 'mine again', body: 'body a' });
      expect(await (await served.handle(new Request(`${own}/`))).text()).toBe('<h1>home mine again</h1>');
    }
  });
});
