/**
 * The local runtime's route table comes from Netlify's parsers (ISC, edge manifest, redirect parser)
 * and is matched as @netlify/dev matches it; the rebuild watcher notices a new build.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadRedirects } from './redirects.ts';
import { notFoundPageOf } from '../../src/core/publish/page-negotiation.ts';
import {
  assertConfigMatches,
  assertUnambiguous,
  edgeEntries,
  findEdgeFunctions,
  findFunction,
  listFunctionEntries,
  type FunctionEntry,
} from './routes.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const scratch: string[] = [];
afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function scratchDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'runtime-routes-'));
  scratch.push(dir);
  return dir;
}

const entry = (
  name: string,
  routes: { literal?: string; expression?: string; pattern: string }[],
  excluded: string[] = [],
): FunctionEntry => ({
  name,
  mainFile: `/x/${name}.mts`,
  routes: routes.map((r) => ({
    pattern: r.pattern,
    ...(r.literal ? { literal: r.literal } : {}),
    ...(r.expression ? { expression: new RegExp(r.expression) } : {}),
    methods: [],
    preferStatic: false,
  })),
  excluded: excluded.map((literal) => ({ pattern: literal, literal })),
});

describe('function routes (zip-it-and-ship-it ISC)', () => {
  it("reads this site's functions as Netlify deploys them", async () => {
    const functions = await listFunctionEntries(path.join(ROOT, 'netlify', 'functions'));
    const byName = Object.fromEntries(functions.map((f) => [f.name, f]));
    expect(byName['api-not-found']!.routes.map((r) => r.pattern)).toEqual(['/api', '/api/*']);
    expect(byName['api-not-found']!.excluded.map((r) => r.pattern)).toEqual([
      '/api/search',
      '/api/tweets',
      '/api/contact',
      '/api/feedback',
    ]);
    expect(byName['tweets-refresh']!.schedule).toBe('@hourly');
    expect(byName['tweets-refresh']!.routes).toEqual([]);
    expect(() => assertUnambiguous(functions)).not.toThrow();

    expect(findFunction(functions, '/api/search', 'GET')?.fn.name).toBe('api-search');
    // Lower-cased, trailing slash dropped, as @netlify/functions-dev matches.
    expect(findFunction(functions, '/API/Search/', 'GET')?.fn.name).toBe('api-search');
    expect(findFunction(functions, '/api/nope', 'GET')?.fn.name).toBe('api-not-found');
    // A scheduled function has no public URL: only the scheduler runs it (invokeScheduled).
    expect(findFunction(functions, '/.netlify/functions/tweets-refresh', 'POST')).toBeUndefined();
    expect(findFunction(functions, '/.netlify/functions/api-search', 'GET')).toBeUndefined(); // routed functions: only on their routes
    expect(findFunction(functions, '/blog/', 'GET')).toBeUndefined();
  });

  it('caches the parsed table under the sources: the same table from the cache', async () => {
    const cacheDir = scratchDir();
    const parsed = await listFunctionEntries(path.join(ROOT, 'netlify', 'functions'), { cacheDir, root: ROOT });
    const cached = await listFunctionEntries(path.join(ROOT, 'netlify', 'functions'), { cacheDir, root: ROOT });
    expect(cached).toEqual(parsed);
    expect(readdirSync(cacheDir)).toHaveLength(1);
  });

  it('refuses a path two functions claim, and a config the parser reads differently', () => {
    expect(() =>
      assertUnambiguous([entry('a', [{ pattern: '/x', literal: '/x' }]), entry('b', [{ pattern: '/*', expression: '^(?:/(.*))/?$' }])]),
    ).toThrow(/\/x: a and b/);
    expect(() =>
      assertUnambiguous([
        entry('a', [{ pattern: '/x', literal: '/x' }]),
        entry('b', [{ pattern: '/*', expression: '^(?:/(.*))/?$' }], ['/x']),
      ]),
    ).not.toThrow();
    const parsed = entry('a', [{ pattern: '/x', literal: '/x' }]);
    expect(() => assertConfigMatches(parsed, { path: '/x' })).not.toThrow();
    expect(() => assertConfigMatches(parsed, { path: ['/x', '/y'] })).toThrow(/keep config a literal/);
  });
});

describe('edge routes (edge-bundler manifest)', () => {
  it('matches the negotiate function on pages, not on excluded paths', async () => {
    const edges = await edgeEntries([
      { name: 'negotiate', mainFile: '/x/negotiate.ts', config: { path: '/*', excludedPath: ['/api/*', '/_astro/*'] } },
    ]);
    expect(findEdgeFunctions(edges, '/blog/x', 'GET').map((e) => e.name)).toEqual(['negotiate']);
    expect(findEdgeFunctions(edges, '/api/search', 'GET')).toEqual([]);
    expect(findEdgeFunctions(edges, '/_astro/a.css', 'GET')).toEqual([]);
  });
});

describe('redirects (@netlify/redirect-parser + netlify-redirector)', () => {
  it('no rules: nothing loads', async () => {
    const dir = scratchDir();
    writeFileSync(path.join(dir, 'netlify.toml'), '[build]\n  publish = "dist"\n');
    expect(await loadRedirects(dir, path.join(dir, 'dist'))).toBeNull();
  });

  it('matches redirects and rewrites from netlify.toml and _redirects, with splats and the query kept', async () => {
    const dir = scratchDir();
    mkdirSync(path.join(dir, 'dist'));
    writeFileSync(path.join(dir, 'netlify.toml'), '[[redirects]]\n  from = "/old/*"\n  to = "/new/:splat"\n  status = 301\n');
    writeFileSync(path.join(dir, 'dist', '_redirects'), '/docs  /docs/api  200!\n');
    const redirects = (await loadRedirects(dir, path.join(dir, 'dist')))!;
    const moved = await redirects.match(new Request('http://localhost/old/a/b?x=1'));
    expect(moved).toMatchObject({ status: 301, redirect: true, force: false });
    expect(moved!.target.href).toBe('http://localhost/new/a/b?x=1');
    expect(await redirects.match(new Request('http://localhost/docs'))).toMatchObject({ status: 200, redirect: false, force: true });
    expect(await redirects.match(new Request('http://localhost/elsewhere'))).toBeUndefined();
  });

  it('moves the /en/ addresses a reader guesses to the English pages (netlify.toml; issue 28 stranger #19)', async () => {
    const dir = scratchDir();
    mkdirSync(path.join(dir, 'dist'));
    const redirects = (await loadRedirects(path.resolve(import.meta.dirname, '..', '..'), path.join(dir, 'dist')))!;
    for (const [from, to] of [
      ['/en', '/'],
      ['/en/', '/'],
      ['/en/products', '/products'],
      ['/en/products/llm-gateway', '/products/llm-gateway'],
      ['/en/solutions', '/solutions'],
      ['/en/contact', '/contact'],
      ['/en/search?q=gateway', '/search?q=gateway'],
      ['/en/developers', '/developers'],
    ]) {
      const match = await redirects.match(new Request(`http://localhost${from}`));
      expect(match, from).toMatchObject({ status: 301, redirect: true, force: false });
      expect(`${match!.target.pathname}${match!.target.search}`, from).toBe(to);
    }
    // /en/blog is a page; no rule touches it.
    expect(await redirects.match(new Request('http://localhost/en/blog'))).toBeUndefined();
  });

  it('gives each address the 404 page the edge picks for the addresses no rule reaches (one rule, two places)', async () => {
    const dir = scratchDir();
    mkdirSync(path.join(dir, 'dist'));
    const redirects = (await loadRedirects(path.resolve(import.meta.dirname, '..', '..'), path.join(dir, 'dist')))!;
    for (const pathname of ['/zh', '/zh/', '/zh/blog/no-such-article', '/zh/x/y', '/blog/no-such-article', '/zhx', '/nowhere']) {
      const match = await redirects.match(new Request(`http://localhost${pathname}`));
      const ruleTarget = match?.status === 404 ? match.target.pathname : '/404';
      expect(ruleTarget, pathname).toBe(notFoundPageOf(pathname));
    }
  });

  it('refuses rules it would not honour (conditions, proxies)', async () => {
    const dir = scratchDir();
    writeFileSync(
      path.join(dir, 'netlify.toml'),
      '[[redirects]]\n  from = "/x"\n  to = "/y"\n  status = 302\n  conditions = {Country = ["de"]}\n',
    );
    await expect(loadRedirects(dir, path.join(dir, 'dist'))).rejects.toThrow(/does not emulate/);
  });
});
