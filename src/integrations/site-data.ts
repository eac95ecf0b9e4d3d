/**
 * Build hook: after Astro writes dist/, move the machine-only data (catalogue, search index) out of
 * the public folder into generated/, write the markdown twins from the catalogue, the catalogue
 * index and the deploy-store bodies for the MCP function, and record build facts. In `npm run dev` it injects the route that serves the twins instead. The Pagefind index is
 * the next build step (scripts/pagefind-index.ts).
 */
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import type { AstroIntegration } from 'astro';
import { catalogIndex, type Catalog } from '../core/content/catalog.ts';
import { writeDeployBodies } from './deploy-blobs.ts';
import { writeMarkdownTwins } from './markdown-twins.ts';

/** Folder (inside dist/) where prerendered data endpoints land before being moved out. */
export const GENERATED_ROUTE_DIR = 'generated';

export interface BuildInfo {
  origin: string;
  version: string;
  commit: string;
  built_at: string;
  content_dir: string;
}

function currentCommit(): string {
  if (process.env.COMMIT_REF) return process.env.COMMIT_REF;
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'unknown'; // not a git checkout (e.g. an unpacked archive): the build still works
  }
}

export function siteData(options: { origin: string; generatedDir: string }): AstroIntegration {
  return {
    name: 'site-data',
    hooks: {
      'astro:config:setup': ({ command, injectRoute }) => {
        if (command === 'dev') injectRoute({ pattern: '/[...twin].md', entrypoint: new URL('../routes/markdown-twin.ts', import.meta.url), prerender: true });
      },
      'astro:build:done': async ({ dir, logger }) => {
        const distDir = fileURLToPath(dir);
        const root = process.cwd();
        const outDir = path.resolve(root, options.generatedDir);
        await rm(outDir, { recursive: true, force: true });
        await mkdir(outDir, { recursive: true });
        const staged = path.join(distDir, GENERATED_ROUTE_DIR);
        if (existsSync(staged)) {
          await rename(staged, path.join(outDir, 'data'));
        }
        const catalog = JSON.parse(await readFile(path.join(outDir, 'data', 'catalog.json'), 'utf8')) as Catalog;
        const twins = await writeMarkdownTwins(distDir, catalog);
        // The MCP function's data: the catalogue without bodies (a file beside it), the bodies as deploy blobs.
        await writeFile(path.join(outDir, 'data', 'catalog-index.json'), JSON.stringify(catalogIndex(catalog)));
        const bodies = await writeDeployBodies(root, catalog);
        // The contact pages double as the templates of the no-JavaScript answer (src/core/contact/contact-form.ts).
        const [en, zh] = await Promise.all(['contact', 'zh/contact'].map((page) => readFile(path.join(distDir, page, 'index.html'), 'utf8')));
        const products = catalog.products.map((p) => ({ slug: p.slug, name: p.name }));
        await writeFile(path.join(outDir, 'data', 'contact-page.json'), JSON.stringify({ en, zh, products }));
        const pkg = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as { version: string };
        const info: BuildInfo = {
          origin: options.origin,
          version: pkg.version,
          commit: currentCommit(),
          built_at: new Date().toISOString(),
          content_dir: process.env.CONTENT_DIR ?? './content',
        };
        await writeFile(path.join(outDir, 'build-info.json'), JSON.stringify(info, null, 2) + '\n');
        // Pagefind runs after this process exits (scripts/pagefind-index.ts): inside it, the indexer's
        // peak adds to Astro's and a 10,000-article build passed 4 GB (BENCHMARKS.md, "Build").
        logger.info(`${twins} markdown twins and ${bodies} deploy-store bodies written; data moved to generated/; origin ${options.origin}`);
      },
    },
  };
}
