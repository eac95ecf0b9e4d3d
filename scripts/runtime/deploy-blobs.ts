/**
 * Gives a local Blobs server's folder the deploy store the functions see locally (site 0, deploy 0:
 * this runtime, @netlify/dev and so `npm run dev`): the article and solution bodies, under the keys
 * the build uploads them with on Netlify (src/astro/integrations/deploy-blobs.ts). Neither @netlify/dev
 * nor the vite plugin loads a build's deploy blobs. The bodies are written from the build's
 * catalogue (generated/data/catalog.json), not linked from .netlify/v1/blobs/deploy: Netlify's
 * build deletes that folder before it runs (`npm run deploy:check` does), and a runtime starting
 * meanwhile would see no bodies. Written only when the build changed since the folder's last seeding.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { bodyKey, type Catalog } from '../../src/core/content/catalog.ts';

/** The site and deploy IDs of local emulation (@netlify/dev uses "0" for both when the folder is not linked to a site). */
export const LOCAL_SITE_ID = '0';
export const LOCAL_DEPLOY_ID = '0';
/** Records which build a Blobs folder holds the deploy store of (outside `entries/`, so no store lists it). */
const STAMP_FILE = 'deploy-store.json';

/** The folder of the local deploy store inside a Blobs folder (the BlobsServer's layout: entries/<site>/<store>/<key>). */
export const localDeployStoreDir = (blobsDir: string): string => path.join(blobsDir, 'entries', LOCAL_SITE_ID, `deploy:${LOCAL_DEPLOY_ID}`);

/** Makes `blobsDir`'s deploy store hold exactly the bodies of the build under `root`. */
export function seedDeployStore(blobsDir: string, root: string): { blobs: number; seeded: boolean } {
  const buildInfo = path.join(root, 'generated', 'build-info.json');
  const catalogFile = path.join(root, 'generated', 'data', 'catalog.json');
  const stamp = `${catalogFile}\n${existsSync(buildInfo) ? readFileSync(buildInfo, 'utf8') : ''}`;
  const stampFile = path.join(blobsDir, STAMP_FILE);
  const store = localDeployStoreDir(blobsDir);
  const previous = existsSync(stampFile) ? (JSON.parse(readFileSync(stampFile, 'utf8')) as { stamp: string; blobs: number }) : undefined;
  if (previous?.stamp === stamp) return { blobs: previous.blobs, seeded: false };
  rmSync(store, { recursive: true, force: true });
  rmSync(path.join(blobsDir, 'metadata', LOCAL_SITE_ID, `deploy:${LOCAL_DEPLOY_ID}`), { recursive: true, force: true });
  const catalog = existsSync(catalogFile) ? (JSON.parse(readFileSync(catalogFile, 'utf8')) as Catalog) : { articles: [], solutions: [] };
  const docs = [...catalog.articles, ...catalog.solutions];
  const made = new Set<string>();
  for (const doc of docs) {
    const file = path.join(store, ...bodyKey(doc.slug).split('/'));
    const dir = path.dirname(file);
    if (!made.has(dir)) {
      mkdirSync(dir, { recursive: true });
      made.add(dir);
    }
    writeFileSync(file, doc.markdown);
  }
  mkdirSync(blobsDir, { recursive: true });
  writeFileSync(stampFile, JSON.stringify({ stamp, blobs: docs.length }));
  return { blobs: docs.length, seeded: true };
}
