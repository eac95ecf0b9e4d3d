/**
 * `npm run dev` as an author starts it, on a free loopback port and a content folder of the test's
 * own: the first page's wall time and the CPU-seconds of the whole process tree (npm, the shell,
 * Astro and anything they start), and a stop by process group. Used by tests/integration/dev-server.test.ts
 * and bench/dev.bench.ts.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const CLOCK_TICKS_PER_SECOND = 100;
const POLL_MS = 100;
/** One request's limit: a request made while Vite re-optimizes its dependencies may never be answered; the next one is. */
const REQUEST_TIMEOUT_MS = 15_000;

/** A port nothing listens on now. */
export async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** CPU-seconds of `pid` and its live descendants, with the children each has reaped (/proc stat fields 14-17). */
export function treeCpuSeconds(pid: number): number {
  const children = new Map<number, number[]>();
  const ticks = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ppid = Number(fields[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
      // After the command and state: utime, stime, cutime, cstime are fields 14-17 of stat, 11-14 here.
      ticks.set(
        Number(entry),
        fields.slice(11, 15).reduce((sum, value) => sum + Number(value), 0),
      );
    } catch {
      // the process ended meanwhile
    }
  }
  let total = 0;
  const stack = [pid];
  while (stack.length) {
    const current = stack.pop()!;
    total += ticks.get(current) ?? 0;
    stack.push(...(children.get(current) ?? []));
  }
  return total / CLOCK_TICKS_PER_SECOND;
}

/** This process's environment as an author's shell has it: without the test runner's NODE_ENV=test and VITEST variables. */
function authorEnvironment(): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'NODE_ENV' && !name.startsWith('VITEST')));
}

export interface DevServer {
  origin: string;
  process: ChildProcess;
  /** Everything the server printed so far. */
  output(): string;
  /** Stops the server's whole process group. */
  stop(): Promise<void>;
}

/** Starts `npm run <script>` (default `dev`) in the project with `env` added, on `port`. */
export function startDev(options: { port: number; env?: Record<string, string>; script?: string; args?: string[] }): DevServer {
  const child = spawn(
    'npm',
    ['run', options.script ?? 'dev', '--', '--host', '127.0.0.1', '--port', String(options.port), ...(options.args ?? [])],
    {
      cwd: ROOT,
      env: { ...authorEnvironment(), PORT: String(options.port), ASTRO_TELEMETRY_DISABLED: '1', NO_COLOR: '1', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group: npm, the shell and Astro stop together.
      detached: true,
    },
  );
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return {
    origin: `http://127.0.0.1:${options.port}`,
    process: child,
    output: () => output,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      process.kill(-child.pid!, 'SIGTERM');
      await Promise.race([exited, sleep(10_000)]);
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
    },
  };
}

/** Polls `url` until it answers 200; returns the wall milliseconds it took and the server tree's CPU-seconds by then. */
export async function firstPage(server: DevServer, url: string, timeoutMs: number): Promise<{ wallMs: number; cpuSeconds: number }> {
  const start = performance.now();
  for (;;) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
      await response.arrayBuffer();
      if (response.status === 200) return { wallMs: performance.now() - start, cpuSeconds: treeCpuSeconds(server.process.pid!) };
    } catch {
      // not listening yet
    }
    if (server.process.exitCode !== null) throw new Error(`the dev server exited (${server.process.exitCode}):\n${server.output()}`);
    if (performance.now() - start > timeoutMs) throw new Error(`no page within ${timeoutMs} ms:\n${server.output()}`);
    await sleep(POLL_MS);
  }
}
