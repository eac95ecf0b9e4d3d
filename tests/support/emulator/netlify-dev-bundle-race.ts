/**
 * Workaround for @netlify/dev's per-request function bundles: each invocation builds the function
 * into an ephemeral folder under .netlify/functions-serve and removes it afterwards
 * (https://github.com/netlify/primitives/pull/199), and concurrent requests to one function share
 * the build of whichever started first, so a worker sometimes loads (or lazily reads an included
 * file) from a folder another invocation has just removed. No upstream issue is filed for it yet.
 * Used only by the parity test's emulator (tests/support/emulator/emulator.ts), in two layers: the folders
 * are removed a little later than @netlify/dev asks (it removes them through `fs.promises.rm`), and
 * a request that still lost its folder is retried, recognised by the error text.
 * @module
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { NetlifyDev } from '@netlify/dev';
import { answerHelp } from '../../../scripts/usage.ts';

/** Long enough for every request that shared a build to have loaded and answered from it. */
const BUNDLE_FOLDER_GRACE_MS = 30_000;

/**
 * Makes @netlify/dev's removal of its per-request folders (`<serveDir>/_xxxx`) happen
 * BUNDLE_FOLDER_GRACE_MS later; any other removal is untouched. Returns a function that removes
 * every per-request folder left (call it when the emulator stops).
 */
export function deferBundleFolderRemoval(serveDir: string): () => Promise<void> {
  const remove = fs.rm;
  const waiting = new Map<string, NodeJS.Timeout>();
  fs.rm = (target, options) => {
    const folder = String(target);
    if (path.dirname(folder) !== serveDir || !path.basename(folder).startsWith('_')) return remove(target, options);
    clearTimeout(waiting.get(folder));
    const timer = setTimeout(() => {
      waiting.delete(folder);
      remove(folder, options).catch(() => undefined);
    }, BUNDLE_FOLDER_GRACE_MS);
    timer.unref();
    waiting.set(folder, timer);
    return Promise.resolve();
  };
  return async () => {
    fs.rm = remove;
    for (const timer of waiting.values()) clearTimeout(timer);
    waiting.clear();
    // Every per-request folder, also one a build finished writing after its request had ended.
    const folders = (await fs.readdir(serveDir).catch(() => [] as string[])).filter((name) => name.startsWith('_'));
    await Promise.all(folders.map((name) => remove(path.join(serveDir, name), { recursive: true, force: true })));
  };
}

/**
 * An emulator-internal failure: a per-request bundle folder under .netlify/functions-serve vanished
 * mid-load (reported as ENOENT, or as "Cannot find module/package" when the worker's import loses the race).
 */
const EPHEMERAL_BUNDLE_RACE = /(?:ENOENT|Cannot find (?:module|package))[^\n]*\.netlify\/functions-serve\/_/;
/** Attempts per request in all (a retry runs alone, so the second retry is margin on a loaded machine). */
const BUNDLE_RACE_ATTEMPTS = 3;

/**
 * Retries run one at a time: a lone call builds its own copy of the function and removes it only
 * after it has answered, whereas concurrent calls share the copy of whichever started first.
 */
let retries: Promise<unknown> = Promise.resolve();
function oneRetryAtATime<T>(task: () => Promise<T>): Promise<T> {
  const run = retries.then(task, task);
  retries = run.catch(() => undefined);
  return run;
}

/**
 * Runs a request through @netlify/dev, retrying (up to BUNDLE_RACE_ATTEMPTS in all) when the
 * emulator itself lost the per-request copy of a function bundle (seen with concurrent requests to
 * one function: a 500 whose body names a missing file inside .netlify/functions-serve/_xxxx).
 * Production has no such folders; application errors are never retried.
 */
export async function handleRetryingBundleRace(dev: Pick<NetlifyDev, 'handle'>, request: Request): Promise<Response | undefined> {
  const spares = Array.from({ length: BUNDLE_RACE_ATTEMPTS - 1 }, () => (request.body ? request.clone() : request));
  let response = await dev.handle(request);
  for (const spare of spares) {
    if (!response || response.status < 500) return response;
    const text = await response.clone().text();
    if (!EPHEMERAL_BUNDLE_RACE.test(text)) return response;
    console.warn(`local runtime: retrying ${request.method} ${new URL(request.url).pathname} after an emulator bundle race`);
    response = await oneRetryAtATime(() => dev.handle(spare));
  }
  return response;
}

if (import.meta.main)
  answerHelp(
    "Usage: imported, not run: the parity test's emulator (tests/support/emulator/emulator.ts) retries @netlify/dev's bundle race through it.",
  );
