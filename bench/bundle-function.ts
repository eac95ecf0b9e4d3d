/**
 * Bundles a Netlify function the way Netlify's bundler does, laid out as its deployed archive is
 * (`npm run deploy:check` shows the real one): the bundle at its source path with `.mjs`
 * (`<root>/netlify/functions/mcp.mjs`) and the files it reads at run time (netlify.toml
 * `included_files`) at their paths from the repository root (`<root>/generated/data/…`).
 */
import { mkdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { build, type Plugin } from 'esbuild';

const ROOT = path.resolve(import.meta.dirname, '..');

export interface BundledFunction {
  /** The bundle (what the function's import parses). */
  file: string;
  bytes: number;
  /** The archive root (Netlify extracts it to the function's task folder). */
  root: string;
}

/**
 * ESM for `.mts`, node platform, JSON imports inlined. CommonJS dependencies (the SDK's ajv, …)
 * call require(); Netlify's ESM bundles provide it the same way, through the banner. `beside` maps
 * a path from the repository root (`generated/data/catalog`, `generated/data/search`) to
 * the file or folder to put there (linked, not copied).
 */
export async function bundleFunction(
  entry: string,
  root: string,
  options: { plugins?: Plugin[]; beside?: Record<string, string> } = {},
): Promise<BundledFunction> {
  const outfile = path.join(root, entry.replace(/\.m?ts$/, '.mjs'));
  await build({
    entryPoints: [path.join(ROOT, entry)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    outfile,
    logLevel: 'warning',
    plugins: options.plugins ?? [],
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  });
  for (const [at, source] of Object.entries(options.beside ?? {})) {
    const target = path.join(root, at);
    mkdirSync(path.dirname(target), { recursive: true });
    rmSync(target, { force: true });
    symlinkSync(path.resolve(source), target);
  }
  return { file: outfile, bytes: statSync(outfile).size, root };
}

/** The build's own data files, for a function bundled over the current build. */
export const BUILD_DATA_BESIDE: Record<string, string> = {
  'generated/data/search': path.join(ROOT, 'generated', 'data', 'search'),
  'generated/data/catalog': path.join(ROOT, 'generated', 'data', 'catalog'),
};
