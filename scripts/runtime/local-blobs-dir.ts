/**
 * Where the local runtime (`npm start`) keeps Netlify Blobs, and where the CLIs read them:
 * `NETLIFY_LOCAL_BLOBS_DIR` or .netlify/blobs-serve.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { answerHelp } from '../usage.ts';
import { parseEnv } from '../../src/core/config.ts';

/** Where `npm start` keeps local Blobs when NETLIFY_LOCAL_BLOBS_DIR is not set. */
export const DEFAULT_LOCAL_BLOBS_DIR = path.resolve(import.meta.dirname, '..', '..', '.netlify', 'blobs-serve');

export function localBlobsDir(env: Record<string, string | undefined> = process.env): string {
  return path.resolve(parseEnv(env, ['NETLIFY_LOCAL_BLOBS_DIR']).NETLIFY_LOCAL_BLOBS_DIR ?? DEFAULT_LOCAL_BLOBS_DIR);
}

/** How a Blobs folder is named in a message: the variable it came from, or that it is the default. */
function named(dir: string, env: Record<string, string | undefined>): string {
  return env.NETLIFY_LOCAL_BLOBS_DIR
    ? `NETLIFY_LOCAL_BLOBS_DIR (${dir})`
    : `The local Blobs folder ${dir} (the default: NETLIFY_LOCAL_BLOBS_DIR is not set)`;
}

/** A local Blobs folder that is a file: one clear line for every local tool (npm start, scheduled, the operator commands). */
export function assertNotAFile(dir: string, env: Record<string, string | undefined> = process.env): void {
  if (statSync(dir, { throwIfNoEntry: false })?.isDirectory() === false)
    throw new Error(`${named(dir, env)} is a file, not a folder: point NETLIFY_LOCAL_BLOBS_DIR at the folder npm start uses.`);
}

/**
 * The folder an operator command (enquiries, stats, feedback) reads: it must exist, as a folder. A reader never
 * creates one: an empty answer from a folder no `npm start` ever wrote would hide that it reads the wrong one.
 */
export function existingLocalBlobsDir(env: Record<string, string | undefined> = process.env): string {
  const dir = localBlobsDir(env);
  assertNotAFile(dir, env);
  if (!statSync(dir, { throwIfNoEntry: false }))
    throw new Error(
      `${named(dir, env)} does not exist, so nothing was ever stored there. Set NETLIFY_LOCAL_BLOBS_DIR to the folder your ` +
        `npm start used (npm start uses NETLIFY_LOCAL_BLOBS_DIR, or ${DEFAULT_LOCAL_BLOBS_DIR} when it is not set).`,
    );
  return dir;
}

if (import.meta.main)
  answerHelp(
    `Usage: imported, not run: localBlobsDir() is where npm start keeps local Blobs (${localBlobsDir()}), read by npm run enquiries and npm run keys.`,
  );
