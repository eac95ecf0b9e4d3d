/** `npm start`: build when needed, then serve the production build with every function on $PORT (default 8888). */
import { parseLocalRuntimeConfig } from '../src/core/config.ts';
import path from 'node:path';
import { loadDotEnv } from './dot-env.ts';
import { ensureBuild } from './build.ts';
import { ROOT, serve, startRuntime } from './runtime/index.ts';
import { stopWhenNpmIsGone } from './runtime/npm-parent.ts';
import { answerHelp } from './usage.ts';

/** How often generated/fingerprint.txt is looked at for a new or failed build: quick for a person, nothing for the CPU. */
const BUILD_CHECK_INTERVAL_MS = 2_000;

answerHelp(`Usage: npm start   (node scripts/serve.ts)

Builds the site when the last build is stale, then serves the production build with every
function, the edge function and local Blobs on http://localhost:$PORT.

Environment: PORT (default 8888), HOST (default localhost), SITE_URL (the public origin baked into
the build; default http://localhost:$PORT), TRUSTED_PROXIES (IPs/CIDRs whose X-Forwarded-For is
believed), NETLIFY_LOCAL_BLOBS_DIR (default .netlify/blobs-serve).`);

// Read first: a parent gone during the build is noticed once the server is up (the build blocks until then).
const parentPid = process.ppid;

// Before anything reads the environment (PORT, SITE_URL, the functions' variables).
const dotEnv = loadDotEnv(path.join(ROOT, '.env'));
if (dotEnv)
  console.log(
    `Read .env: ${dotEnv.loaded.length} variables set${dotEnv.kept.length ? `; ${dotEnv.kept.join(', ')} kept from the environment` : ''}.`,
  );

// Only SITE_URL or PORT choose the origin here: the local build links to itself unless told otherwise.
const config = parseLocalRuntimeConfig({
  SITE_URL: process.env.SITE_URL,
  PORT: process.env.PORT,
  HOST: process.env.HOST,
  TRUSTED_PROXIES: process.env.TRUSTED_PROXIES,
  NETLIFY_LOCAL_BLOBS_DIR: process.env.NETLIFY_LOCAL_BLOBS_DIR,
});
const { origin, port } = config;
ensureBuild(origin);
const started = performance.now();
const runtime = await startRuntime({ origin });
const { url, server } = await serve(runtime, port, { host: config.host, trustedProxies: config.trustedProxies ?? undefined });
const trusted = config.trustedProxies ? `; X-Forwarded-For trusted from ${config.trustedProxies}` : '';
console.log(
  `\n  Site, functions and Blobs running at ${url}  (ready in ${Math.round(performance.now() - started)} ms${trusted}; Ctrl-C to stop)\n`,
);

// A rebuild beside the server is switched to by the next request anyway (runtime refreshBuild); looking every few seconds
// logs it without one, and the first request after a build does not pay for loading it.
const watch = setInterval(() => void runtime.refreshBuild(), BUILD_CHECK_INTERVAL_MS);
watch.unref();

let stopping = false;
const stop = async (): Promise<void> => {
  if (stopping) return;
  stopping = true;
  clearInterval(watch);
  server.closeAllConnections();
  server.close();
  await runtime.stop();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

// `npm start` runs this file through `sh -c`, which does not pass a SIGTERM sent to npm on: stop when npm is gone.
stopWhenNpmIsGone(['start'], () => void stop(), { parent: parentPid });
