/** `npm start`: build when needed, then serve the production build with every function on $PORT (default 8888). */
import path from 'node:path';
import { resolveOrigin } from '../src/core/site/origin.ts';
import { loadDotEnv } from './dot-env.ts';
import { ensureBuild } from './ensure-build.ts';
import { watchBuild } from './runtime/build-watch.ts';
import { ROOT, serve, startRuntime } from './runtime/index.ts';

// Before anything reads the environment (PORT, SITE_URL, the functions' variables).
const dotEnv = loadDotEnv(path.join(ROOT, '.env'));
if (dotEnv) console.log(`Read .env: ${dotEnv.loaded.length} variables set${dotEnv.kept.length ? `; ${dotEnv.kept.join(', ')} kept from the environment` : ''}.`);

const port = Number(process.env.PORT || 8888);
const origin = resolveOrigin({ SITE_URL: process.env.SITE_URL, PORT: String(port) });
ensureBuild(origin);
const started = performance.now();
const runtime = await startRuntime();
const { url, server } = await serve(runtime, port, process.env.HOST ?? 'localhost');
const trusted = process.env.TRUSTED_PROXIES ? `; X-Forwarded-For trusted from ${process.env.TRUSTED_PROXIES}` : '';
console.log(`\n  Site, functions and Blobs running at ${url}  (ready in ${Math.round(performance.now() - started)} ms${trusted}; Ctrl-C to stop)\n`);

const stopWatching = watchBuild(ROOT, (builtAt) => {
  void runtime.reloadStatic().then(() =>
    console.warn(`\n  dist/ was rebuilt (${builtAt}): pages and files are served from the new build now, but the functions still run the build they started with. Restart npm start to serve the new build everywhere.\n`),
  );
});

const stop = async (): Promise<void> => {
  stopWatching();
  server.closeAllConnections();
  server.close();
  await runtime.stop();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
