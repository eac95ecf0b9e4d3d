/**
 * The pages Astro copies from its incremental cache are keyed on their props, their registry entry
 * and the site facts (page-cache.ts). A template that read the catalogue some other way would show
 * data its key does not cover, and a rebuild would serve it stale. This checks the source: every
 * cached route reads the catalogue only inside getStaticPaths, and the components it renders
 * (transitively) read it only through props, siteFacts() and registeredPage() (which the key covers).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '..');

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
  );
}

/** The routes that give their pages a cacheKey. */
const cachedRoutes = filesUnder(path.join(SRC, 'pages')).filter(
  (file) => /\.(astro|ts)$/.test(file) && readFileSync(file, 'utf8').includes('cacheKey'),
);

/** The text of `source` outside the body of its getStaticPaths function. */
function outsideGetStaticPaths(source: string): string {
  const start = source.search(/export (async )?function getStaticPaths\(\)[^{]*\{/);
  if (start === -1) return source;
  let depth = 0;
  for (let i = source.indexOf('{', start); i < source.length; i++) {
    if (source[i] === '{') depth++;
    else if (source[i] === '}' && --depth === 0) return source.slice(0, start) + source.slice(i + 1);
  }
  throw new Error('getStaticPaths has no end');
}

/** The .astro components `file` imports, and theirs, by relative path. */
function componentsOf(file: string, seen = new Set<string>()): Set<string> {
  for (const match of readFileSync(file, 'utf8').matchAll(/from '(\.[^']+\.astro)'/g)) {
    const component = path.resolve(path.dirname(file), match[1]!);
    if (!seen.has(component)) {
      seen.add(component);
      componentsOf(component, seen);
    }
  }
  return seen;
}

const READS_THE_CATALOGUE = /\bgetCatalog\(|\bgetSitePages\(|\bgetCollection\(|\bgetEntry\(/;

describe('cached pages read only what their cache key covers', () => {
  it('finds the cached routes (articles, solutions, listings, tag and category pages, OG images)', () => {
    const names = cachedRoutes.map((file) => path.relative(SRC, file)).sort();
    expect(names).toEqual(
      expect.arrayContaining([
        'pages/blog/[slug].astro',
        'pages/solutions/[slug].astro',
        'pages/blog/page/[page].astro',
        'pages/[lang]/blog/page/[page].astro',
        'pages/zh/blog/all/page/[page].astro',
        'pages/blog/tag/[tag].astro',
        'pages/blog/category/[category].astro',
        'pages/og/[...slug].png.ts',
      ]),
    );
  });

  it.each(cachedRoutes.map((file) => [path.relative(SRC, file), file]))('%s reads the catalogue only in getStaticPaths', (_name, file) => {
    // getEntry is allowed for the body: the key names the source file's digest.
    const outside = outsideGetStaticPaths(readFileSync(file, 'utf8')).replace(/await getEntry\('(articles|solutions)', doc\.slug\)/g, '');
    expect(outside).not.toMatch(READS_THE_CATALOGUE);
  });

  it.each(cachedRoutes.map((file) => [path.relative(SRC, file), file]))(
    'the components %s renders read only props and site facts',
    (_name, file) => {
      for (const component of componentsOf(file)) {
        const source = readFileSync(component, 'utf8');
        expect(source, path.relative(SRC, component)).not.toMatch(READS_THE_CATALOGUE);
        expect(source, path.relative(SRC, component)).not.toMatch(/from 'astro:content'/);
      }
    },
  );

  it('catches a component that reads the catalogue (the check itself works)', () => {
    expect(outsideGetStaticPaths('export async function getStaticPaths() { await getCatalog(); }\nconst x = 1;')).not.toMatch(
      READS_THE_CATALOGUE,
    );
    expect(outsideGetStaticPaths('export async function getStaticPaths() { return []; }\nconst c = await getCatalog();')).toMatch(
      READS_THE_CATALOGUE,
    );
  });
});
