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
import { bodyKey, type Catalog } from '../../core/content/catalog.ts';
import { writeFilesInBatch } from './markdown-twins.ts';

/**
 * Where Netlify's build takes deploy blobs from, relative to the project root (it clears the folder
 * before each build); the build writes there unless DEPLOY_BLOBS_DIR says otherwise (scratch builds
 * of other corpora must not replace the main build's bodies).
 */
export const DEPLOY_BLOBS_DIR = path.join('.netlify', 'v1', 'blobs', 'deploy');
/** The data file of one blob inside its key's folder. */
export const BLOB_FILE = 'blob';

/** The blob files of the bodies of `catalog` in the deploy blobs folder `dir`. */
export function deployBodyFiles(dir: string, catalog: Pick<Catalog, 'articles' | 'solutions'>): { file: string; data: string }[] {
  return [...catalog.articles, ...catalog.solutions].map((doc) => ({
    file: path.join(dir, ...bodyKey(doc.slug).split('/'), BLOB_FILE),
    data: doc.markdown,
  }));
}

/** Replaces the deploy blobs folder `dir` with the bodies of `catalog`; returns how many it wrote. */
export async function writeDeployBodies(dir: string, catalog: Pick<Catalog, 'articles' | 'solutions'>): Promise<number> {
  await rm(dir, { recursive: true, force: true });
  const files = deployBodyFiles(dir, catalog);
  await writeFilesInBatch(files);
  return files.length;
}
