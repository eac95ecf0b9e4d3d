/**
 * The server side of the serving benchmarks (serve.bench.ts, soak.bench.ts), run as its own process
 * so the load generator does not share its event loop or its memory figures.
 *
 *     node --expose-gc bench/runtime-child.ts --mode warm|emulator [--port 0] [--edge on|off]
 *
 * - `warm` (default): what `npm start` serves, the warm runtime (scripts/runtime/): every function
 *   imported once, the edge function in process, static files, a local Blobs server (its own folder).
 * - `emulator`: tests/support/emulator/emulator.ts, Netlify's own emulation (@netlify/dev), what `npm start`
 *   ran before the warm runtime: every v2 function call in a fresh worker (a per-request cold start).
 *   Kept for before/after figures.
 *
 * Prints one line `READY {"url": ..., "pid": ...}` when listening. With an IPC channel it answers
 * `{ type: 'memory' }` with a forced-GC `process.memoryUsage()`.
 * @module
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serve as serveEmulator, startRuntime as startEmulator } from '../tests/support/emulator/emulator.ts';
import { serve, startRuntime } from '../scripts/runtime/index.ts';
import { argValue } from './generate-corpus.ts';
import { answerHelpFromDoc } from '../scripts/usage.ts';

answerHelpFromDoc(import.meta.url);

const argv = process.argv.slice(2);
const mode = argValue(argv, 'mode') ?? 'warm';
const port = Number(argValue(argv, 'port') ?? 0);
const edge = (argValue(argv, 'edge') ?? 'on') !== 'off';
if (mode !== 'warm' && mode !== 'emulator') throw new Error('--mode must be warm or emulator');

const blobsDir = mkdtempSync(path.join(tmpdir(), 'bench-runtime-blobs-'));
let runtime: { stop(): Promise<void> };
let served: { server: import('node:http').Server; url: string };
if (mode === 'warm') {
  const warm = await startRuntime({ blobsDir, edgeFunctions: edge });
  runtime = warm;
  served = await serve(warm, port, { trustedProxies: [] });
} else {
  const emulator = await startEmulator({ edgeFunctions: edge });
  runtime = emulator;
  served = await serveEmulator(emulator, port);
}
const { server, url } = served;
console.log(`READY ${JSON.stringify({ url, pid: process.pid, mode, edge })}`);

process.on('message', (message: { type?: string; id?: number }) => {
  if (message?.type !== 'memory') return;
  (globalThis as { gc?: () => void }).gc?.();
  process.send?.({ type: 'memory', id: message.id, memory: process.memoryUsage() });
});

let stopping = false;
const stop = async (): Promise<void> => {
  if (stopping) return;
  stopping = true;
  server.closeAllConnections();
  server.close();
  await runtime.stop();
  rmSync(blobsDir, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
process.on('disconnect', () => void stop());
