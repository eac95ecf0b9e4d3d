/** Bundles a Netlify function the way Netlify's esbuild bundler does, for benchmarks that load it directly. */
import { statSync } from 'node:fs';
import path from 'node:path';
import { build, type Plugin } from 'esbuild';

const ROOT = path.resolve(import.meta.dirname, '..');

/**
 * ESM for `.mts`, node platform, JSON data inlined. CommonJS dependencies (the SDK's ajv, …) call
 * require(); Netlify's ESM bundles provide it the same way, through the banner.
 */
export async function bundleFunction(entry: string, outfile: string, plugins: Plugin[] = []): Promise<{ file: string; bytes: number }> {
  await build({
    entryPoints: [path.join(ROOT, entry)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    outfile,
    logLevel: 'warning',
    plugins,
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  });
  return { file: outfile, bytes: statSync(outfile).size };
}
