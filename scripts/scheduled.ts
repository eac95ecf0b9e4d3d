/**
 * `npm run scheduled -- <name>`: runs one scheduled function now, by hand, as Netlify's scheduler
 * would, against the local Blobs that `npm start` uses. Scheduled functions have no public URL
 * (locally as on Netlify), so this is the way to run one before its time; on Netlify, use "Run now"
 * on the function's page in the Netlify UI.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseLocalRuntimeConfig } from '../src/core/config.ts';
import { ensureBuild } from './build.ts';
import { loadDotEnv } from './dot-env.ts';
import { ROOT, startRuntime } from './runtime/index.ts';
import { assertNotAFile, localBlobsDir } from './runtime/local-blobs-dir.ts';
import { answerHelp } from './usage.ts';

const USAGE = `Usage: npm run scheduled -- <name>

Runs the scheduled function <name> once, now, as Netlify's scheduler does, against the local Blobs
that npm start uses (.netlify/blobs-serve, or NETLIFY_LOCAL_BLOBS_DIR), with the last build's data
(it builds only when there is no build at all: a rebuild could pull dist/ from under a running
npm start). Without a name, lists the scheduled functions and their schedules.

Scheduled functions have no public URL: a request to /.netlify/functions/<name> is answered 404,
locally as on Netlify. On Netlify, run one by hand with "Run now" on its page in the Netlify UI.`;

answerHelp(USAGE);
loadDotEnv(path.join(ROOT, '.env'));
const name = process.argv[2];
const config = parseLocalRuntimeConfig({
  SITE_URL: process.env.SITE_URL,
  PORT: process.env.PORT,
  HOST: process.env.HOST,
  TRUSTED_PROXIES: process.env.TRUSTED_PROXIES,
  NETLIFY_LOCAL_BLOBS_DIR: process.env.NETLIFY_LOCAL_BLOBS_DIR,
});
try {
  assertNotAFile(localBlobsDir()); // before any build: the message, not a stack
} catch (error) {
  console.error(`error: ${(error as Error).message}`);
  process.exit(1);
}
if (!existsSync(path.join(ROOT, 'generated', 'build-info.json'))) ensureBuild(config.origin);
let runtime: Awaited<ReturnType<typeof startRuntime>>;
try {
  runtime = await startRuntime();
} catch (error) {
  // A wrong NETLIFY_LOCAL_BLOBS_DIR (a file) or a broken build: the message, not a stack.
  console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
console.error(`Local Blobs: ${runtime.blobsDir}`);
let code = 0;
try {
  const scheduled = runtime.functions.filter((f) => f.schedule);
  if (!name) {
    for (const fn of scheduled) console.log(`${fn.name}  ${fn.schedule}`);
  } else if (!scheduled.some((f) => f.name === name)) {
    console.error(`error: no scheduled function "${name}"; there are: ${scheduled.map((f) => f.name).join(', ')}\n\n${USAGE}`);
    code = 2;
  } else {
    const started = performance.now();
    const answer = await runtime.invokeScheduled(name);
    console.log(`${name}: ${answer.status} in ${Math.round(performance.now() - started)} ms`);
    if (answer.status >= 400) code = 1;
  }
} finally {
  await runtime.stop();
}
process.exit(code);
