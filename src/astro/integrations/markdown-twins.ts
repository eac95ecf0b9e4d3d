/**
 * Writes every page's markdown twin into the built site in one batch (`astro:build:done`). As one
 * Astro route per twin, a large build spent seconds writing small files one after the other
 * (BENCHMARKS.md, "Build"); here the writes overlap. Same pages, same bytes as the dev route (src/astro/routes/markdown-twin.ts):
 * both come from `sitePages` in the core.
 */
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Catalog } from '../../core/content/catalog.ts';
import { framedTwin, type SitePage, sitePages } from '../../core/publish/pages.ts';
import { twinPathOf } from '../../core/kernel/paths.ts';

/** A page's twin as served: front matter whose `doc_version` is 16 hex digits of the SHA-256 of the rest. */
export function servedTwin(page: SitePage): string {
  return framedTwin(page, createHash('sha256').update(page.markdown).digest('hex').slice(0, 16));
}

/** File writes in flight at once: enough to keep the disk busy, few enough to stay far from the open-file limit. */
const TWIN_WRITES_IN_FLIGHT = 64;

/** Writes `<distDir>/<page>.md` for every page of `catalog` (`pages`, when already computed from it); returns how many files it wrote. */
export async function writeMarkdownTwins(
  distDir: string,
  catalog: Catalog,
  pages: readonly SitePage[] = sitePages(catalog),
): Promise<number> {
  const twins = pages.map((page) => {
    const twinPath = twinPathOf(page.path);
    if (!twinPath) throw new Error(`page ${page.path} has no markdown twin path`);
    return { file: path.join(distDir, twinPath), markdown: servedTwin(page) };
  });
  await writeFilesInBatch(twins.map((twin) => ({ file: twin.file, data: twin.markdown })));
  return twins.length;
}

/** Writes many small files with the writes overlapping (their folders are created first). */
export async function writeFilesInBatch(files: readonly { file: string; data: string }[]): Promise<void> {
  for (const dir of new Set(files.map((f) => path.dirname(f.file)))) await mkdir(dir, { recursive: true });
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < files.length) {
      const { file, data } = files[next++]!;
      await writeFile(file, data);
    }
  };
  await Promise.all(Array.from({ length: Math.min(TWIN_WRITES_IN_FLIGHT, files.length) }, worker));
}
