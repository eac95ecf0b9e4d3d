/** `npm start`: build when needed, then serve the production build with every function on $PORT (default 8888). */
import { resolveOrigin } from '../src/core/site/origin.ts';
import { ensureBuild } from './ensure-build.ts';
import { serve, startRuntime } from './local-server.ts';

const port = Number(process.env.PORT || 8888);
const origin = resolveOrigin({ SITE_URL: process.env.SITE_URL, PORT: String(port) });
ensureBuild(origin);
const runtime = await startRuntime();
const { url } = await serve(runtime, port, process.env.HOST ?? 'localhost');
console.log(`\n  Site, functions and Blobs running at ${url}  (Ctrl-C to stop)\n`);

const stop = async (): Promise<void> => {
  await runtime.stop();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
