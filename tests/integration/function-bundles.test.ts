/**
 * Which function bundles carry the article bodies. Each function is bundled the way Netlify's
 * esbuild bundler does, with the catalogue replaced by one holding a marker: only the MCP server
 * (get_article, export) and the A2A agent (it answers an article request with the article) may inline it. Any other function that imported the full catalogue would
 * carry every article body (53 MB and ≈ 270 ms more cold start at 10,000 articles).
 * It lives here, not beside the functions: Netlify treats every file in netlify/functions/ as a function.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { build, type Plugin } from 'esbuild';
import { describe, expect, it } from 'vitest';

const FUNCTIONS_DIR = path.resolve(import.meta.dirname, '..', '..', 'netlify', 'functions');
const MARKER = 'ARTICLE-BODY-MARKER-7f3a';
const markerCatalog: Plugin = {
  name: 'marker-catalog',
  setup(b) {
    b.onResolve({ filter: /generated\/data\/catalog\.json$/ }, () => ({ path: 'catalog.json', namespace: 'marker' }));
    b.onLoad({ filter: /.*/, namespace: 'marker' }, () => ({ contents: JSON.stringify({ articles: [{ markdown: MARKER }], solutions: [] }), loader: 'json' }));
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
    plugins: [markerCatalog],
  });
  return result.outputFiles.map((f) => f.text).join('\n');
}

describe('function bundles', () => {
  const functions = readdirSync(FUNCTIONS_DIR).filter((name) => name.endsWith('.mts')).sort();

  it('inline the article bodies in the MCP server and the A2A agent only', async () => {
    expect(functions).toContain('mcp.mts');
    const carrying: string[] = [];
    for (const file of functions) if ((await bundledText(file)).includes(MARKER)) carrying.push(file);
    expect(carrying).toEqual(['a2a.mts', 'mcp.mts']);
  });
});
