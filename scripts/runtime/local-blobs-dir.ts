/**
 * Where the local runtime (`npm start`) keeps Netlify Blobs, and where the CLIs read them:
 * `NETLIFY_LOCAL_BLOBS_DIR` or .netlify/blobs-serve.
 */
import path from 'node:path';
import { answerHelp } from '../usage.ts';
import { parseEnv } from '../../src/core/config.ts';

export function localBlobsDir(env: Record<string, string | undefined> = process.env): string {
  return path.resolve(
    parseEnv(env, ['NETLIFY_LOCAL_BLOBS_DIR']).NETLIFY_LOCAL_BLOBS_DIR ??
      path.join(import.meta.dirname, '..', '..', '.netlify', 'blobs-serve'),
  );
}

if (import.meta.main)
  answerHelp(
    `Usage: imported, not run: localBlobsDir() is where npm start keeps local Blobs (${localBlobsDir()}), read by npm run enquiries and npm run keys.`,
  );
