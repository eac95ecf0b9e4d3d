/**
 * Workaround for @netlify/dev's per-request function bundles: each invocation builds the function
 * into an ephemeral folder under .netlify/functions-serve and removes it afterwards
 * (https://github.com/netlify/primitives/pull/199), and under concurrent requests to one function a
 * worker sometimes loads from a folder another invocation has just removed. No upstream issue is
 * filed for it yet. Used only by the parity test's emulator (scripts/runtime/emulator.ts); it relies
 * on the error text, not on private methods, so it pins no version.
 * @module
 */
import type { NetlifyDev } from '@netlify/dev';
import { answerHelp } from '../usage.ts';

/**
 * An emulator-internal failure: a per-request bundle folder under .netlify/functions-serve vanished
 * mid-load (reported as ENOENT, or as "Cannot find module/package" when the worker's import loses the race).
 */
const EPHEMERAL_BUNDLE_RACE = /(?:ENOENT|Cannot find (?:module|package))[^\n]*\.netlify\/functions-serve\/_/;
/** Attempts per request in all (the race is rare; the second retry is margin on a loaded machine). */
const BUNDLE_RACE_ATTEMPTS = 3;

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
    response = await dev.handle(spare);
  }
  return response;
}

if (import.meta.main)
  answerHelp(
    "Usage: imported, not run: the parity test's emulator (scripts/runtime/emulator.ts) retries @netlify/dev's bundle race through it.",
  );
