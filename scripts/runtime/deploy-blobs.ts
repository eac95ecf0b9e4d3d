/**
 * Puts the build's deploy blobs (`.netlify/v1/blobs/deploy/<key>/blob`, written by
 * src/integrations/deploy-blobs.ts) into a local Blobs server's folder as the deploy store the
 * functions see locally (site 0, deploy 0: this runtime, @netlify/dev and so `npm run dev`), which
 * is what Netlify's build does when it uploads them to the deploy's store. Neither @netlify/dev nor
 * the vite plugin does it. Files are hard-linked (copied across file systems), and only when the
 * build changed since the last seeding of that folder.
 */
import { copyFileSync, existsSync, linkSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BLOB_FILE, DEPLOY_BLOBS_DIR } from '../../src/integrations/deploy-blobs.ts';

/** The site and deploy IDs of local emulation (@netlify/dev uses "0" for both when the folder is not linked to a site). */
export const LOCAL_SITE_ID = '0';
export const LOCAL_DEPLOY_ID = '0';
const META_FILE = 'blob.meta.json';
/** Records which build a Blobs folder holds the deploy store of (outside `entries/`, so no store lists it). */
const STAMP_FILE = 'deploy-store.json';

/** The key of every `<key>/blob` under `dir`. */
function blobKeys(dir: string, prefix = ''): string[] {
  const keys: string[] = [];
  for (const entry of readdirSync(path.join(dir, prefix), { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const key = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (existsSync(path.join(dir, key, BLOB_FILE))) keys.push(key);
    keys.push(...blobKeys(dir, key));
  }
  return keys;
}

function linkOrCopy(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch {
    copyFileSync(from, to);
  }
}

/**
 * Makes `blobsDir`'s deploy store hold exactly the blobs of the build under `root`. Returns how
 * many blobs it holds and whether it had to write them.
 */
export function seedDeployStore(blobsDir: string, root: string): { blobs: number; seeded: boolean } {
  const source = path.join(root, DEPLOY_BLOBS_DIR);
  const buildInfo = path.join(root, 'generated', 'build-info.json');
  // The build (its facts) and the source folder (restored after Netlify's build cleared it) identify the blobs.
  const stamp = JSON.stringify({ source, build: existsSync(buildInfo) ? readFileSync(buildInfo, 'utf8') : '', sourceChanged: existsSync(source) ? statSync(source).mtimeMs : 0 });
  const stampFile = path.join(blobsDir, STAMP_FILE);
  const store = `deploy:${LOCAL_DEPLOY_ID}`;
  const entries = path.join(blobsDir, 'entries', LOCAL_SITE_ID, store);
  const metadata = path.join(blobsDir, 'metadata', LOCAL_SITE_ID, store);
  const previous = existsSync(stampFile) ? (JSON.parse(readFileSync(stampFile, 'utf8')) as { stamp: string; blobs: number }) : undefined;
  if (previous?.stamp === stamp && existsSync(entries)) return { blobs: previous.blobs, seeded: false };
  rmSync(entries, { recursive: true, force: true });
  rmSync(metadata, { recursive: true, force: true });
  const keys = existsSync(source) ? blobKeys(source) : [];
  const made = new Set<string>();
  for (const key of keys) {
    const target = path.join(entries, ...key.split('/'));
    const parent = path.dirname(target);
    if (!made.has(parent)) {
      mkdirSync(parent, { recursive: true });
      made.add(parent);
    }
    linkOrCopy(path.join(source, key, BLOB_FILE), target);
    const meta = path.join(source, key, META_FILE);
    if (existsSync(meta)) {
      mkdirSync(path.dirname(path.join(metadata, key)), { recursive: true });
      writeFileSync(path.join(metadata, ...key.split('/')), readFileSync(meta));
    }
  }
  mkdirSync(blobsDir, { recursive: true });
  writeFileSync(stampFile, JSON.stringify({ stamp, blobs: keys.length }));
  return { blobs: keys.length, seeded: true };
}
