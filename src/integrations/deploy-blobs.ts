/**
 * The build's deploy-scoped Netlify Blobs: every article and solution body, one blob per document,
 * written where Netlify's build uploads them to the deploy's store (the Frameworks API layout,
 * `.netlify/v1/blobs/deploy/<key>/blob`; @netlify/build `plugins_core/blobs_upload`). The MCP
 * function reads them with `getDeployStore()`, so its code carries no bodies (BENCHMARKS.md,
 * "Production at scale"); locally scripts/runtime/deploy-blobs.ts puts them in the local Blobs server.
 * @module
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { bodyKey, type Catalog } from '../core/content/catalog.ts';
import { writeFilesInBatch } from './markdown-twins.ts';

/** Where the build leaves deploy blobs, relative to the project root (Netlify clears it before each build). */
export const DEPLOY_BLOBS_DIR = path.join('.netlify', 'v1', 'blobs', 'deploy');
/** The data file of one blob inside its key's folder. */
export const BLOB_FILE = 'blob';

/** The blob files of the bodies of `catalog` under `root`. */
export function deployBodyFiles(root: string, catalog: Pick<Catalog, 'articles' | 'solutions'>): { file: string; data: string }[] {
  const dir = path.join(root, DEPLOY_BLOBS_DIR);
  return [...catalog.articles, ...catalog.solutions].map((doc) => ({
    file: path.join(dir, ...bodyKey(doc.slug).split('/'), BLOB_FILE),
    data: doc.markdown,
  }));
}

/** Replaces the deploy blobs under `root` with the bodies of `catalog`; returns how many it wrote. */
export async function writeDeployBodies(root: string, catalog: Pick<Catalog, 'articles' | 'solutions'>): Promise<number> {
  await rm(path.join(root, DEPLOY_BLOBS_DIR), { recursive: true, force: true });
  const files = deployBodyFiles(root, catalog);
  await writeFilesInBatch(files);
  return files.length;
}
