/**
 * `npm start` stopped by the npm process's id (a supervisor, a script, `kill <pid>`): npm runs the
 * script through `sh -c`, which does not pass SIGTERM on, so the server must notice that the process
 * that started it is gone, and stop: the port free, no `node scripts/serve.ts` left.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_ORIGIN } from '../support/origin.ts';
import { acceptsConnection } from '../support/test-port.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const START_TIMEOUT_MS = 60_000;
/** What "at once" means for a stop on a loaded two-core machine. */
const STOP_WITHIN_MS = 10_000;

const scratch = mkdtempSync(path.join(tmpdir(), 'npm-start-stop-'));
const started: number[] = [];
afterAll(() => {
  // Whatever the test left running, by its own process id.
  for (const pid of started.reverse()) if (alive(pid)) process.kill(pid, 'SIGKILL');
  rmSync(scratch, { recursive: true, force: true });
});

/** Whether `pid` runs: exists and is no zombie (one re-parented to an init that does not reap has exited all the same). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** The ids of `pid`'s child processes, from /proc. */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        // The stat line: "pid (comm) state ppid ..."; comm may hold spaces, so read after its closing parenthesis.
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

const commandOf = (pid: number): string => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();

/** `npm start` for the test build (its origin, so no build), on any free port; resolves with the port once it serves. */
function npmStart(): Promise<{ npm: ChildProcess; port: number }> {
  const env: NodeJS.ProcessEnv = { ...process.env, SITE_URL: TEST_ORIGIN, PORT: '0', NETLIFY_LOCAL_BLOBS_DIR: path.join(scratch, 'blobs') };
  delete env.CONTENT_DIR;
  const npm = spawn('npm', ['start'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(npm.pid!);
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`npm start did not get ready within ${START_TIMEOUT_MS} ms:\n${output}`)),
      START_TIMEOUT_MS,
    );
    const read = (chunk: Buffer): void => {
      output += chunk.toString();
      const ready = /running at http:\/\/localhost:(\d+)/.exec(output);
      if (ready) {
        clearTimeout(timer);
        resolve({ npm, port: Number(ready[1]) });
      }
    };
    npm.stdout!.on('data', read);
    npm.stderr!.on('data', read);
    npm.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited (${code}) before it was ready:\n${output}`));
    });
  });
}

describe('npm start', () => {
  it('stops, port and all, when the npm process is sent SIGTERM', async () => {
    const { npm, port } = await npmStart();
    // npm → sh -c → node scripts/serve.ts (or npm → node, where the shell execs its one command).
    const descendants = [...childrenOf(npm.pid!), ...childrenOf(npm.pid!).flatMap(childrenOf)];
    const server = descendants.find((pid) => commandOf(pid).includes('scripts/serve.ts') && !commandOf(pid).startsWith('sh'));
    expect(server).toBeDefined();
    started.push(...descendants);
    expect(await acceptsConnection('127.0.0.1', port)).toBe(true);

    const exited = new Promise((resolve) => npm.once('exit', resolve));
    npm.kill('SIGTERM');
    await exited;
    await expect.poll(() => descendants.filter(alive), { timeout: STOP_WITHIN_MS, interval: 100 }).toEqual([]);
    expect(await acceptsConnection('127.0.0.1', port)).toBe(false);
  });
});
