/**
 * Binding the test origin's port (8899, baked into the test build): when another run holds it
 * (another worktree's tests, a file of this run), wait for it instead of failing.
 */
import { connect, createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { serve, type ServeOptions } from '../../scripts/runtime/http.ts';
import { TEST_PORT } from './origin.ts';

/** Longer than any one file holds the port, on a loaded machine. */
export const TEST_PORT_WAIT_MS = 600_000;
const RETRY_MS = 250;

/** `serve()` on TEST_PORT, once it can be bound. */
export async function serveOnTestPort(runtime: Parameters<typeof serve>[0], options: ServeOptions = {}): ReturnType<typeof serve> {
  const deadline = Date.now() + TEST_PORT_WAIT_MS;
  for (;;) {
    try {
      return await serve(runtime, TEST_PORT, options);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || Date.now() > deadline) throw error;
      await sleep(RETRY_MS);
    }
  }
}

/**
 * Resolves once TEST_PORT can be bound, for a file whose server is a child process (`npm start`):
 * that child still fails if another file binds the port first, so the caller retries on EADDRINUSE.
 */
export async function waitForTestPort(): Promise<void> {
  const deadline = Date.now() + TEST_PORT_WAIT_MS;
  for (;;) {
    const free = await new Promise<boolean>((resolve) => {
      const probe = createServer();
      probe.once('error', () => resolve(false));
      probe.listen(TEST_PORT, () => probe.close(() => resolve(true)));
    });
    if (free) return;
    if (Date.now() > deadline) throw new Error(`port ${TEST_PORT} still busy after ${TEST_PORT_WAIT_MS} ms`);
    await sleep(RETRY_MS);
  }
}

/** Whether a TCP connection to host:port is accepted (within 2 s). */
export function acceptsConnection(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 2000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}
