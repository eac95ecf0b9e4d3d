/**
 * The local runtime on a bad day: its Blobs server answers only on loopback, and a kill during
 * writes loses nothing accepted and hides nothing: after a restart every enquiry that got 200 is
 * listed, `npm run enquiries` and the sweep (`npm run scheduled`) carry on past what the kill left.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_PORT } from '../support/origin.ts';
import { useRuntime } from '../support/runtime.ts';
import { acceptsConnection } from '../support/test-port.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const site = useRuntime();

describe('the local Blobs server', () => {
  it("listens on 127.0.0.1 only: not on ::1, not on the machine's other addresses", async () => {
    const port = Number(new URL(site.runtime.blobsUrl).port);
    expect(new URL(site.runtime.blobsUrl).hostname).toBe('127.0.0.1');
    expect(await acceptsConnection('127.0.0.1', port)).toBe(true);
    expect(await acceptsConnection('::1', port)).toBe(false);
    const external = Object.values(networkInterfaces())
      .flat()
      .filter((a) => a && !a.internal)
      .map((a) => a!.address);
    for (const address of external) expect(await acceptsConnection(address, port)).toBe(false);
  });
});

/** The runtime over `blobsDir` in a child process, served on a free port behind a trusted proxy (us). */
function startChild(blobsDir: string): Promise<{ child: ChildProcess; url: string }> {
  const code = `
    import { serve, startRuntime } from ${JSON.stringify(path.join(ROOT, 'scripts/runtime/index.ts'))};
    const runtime = await startRuntime({ blobsDir: ${JSON.stringify(blobsDir)} });
    const { url } = await serve(runtime, 0, { trustedProxies: ['127.0.0.1'] });
    console.log('READY ' + url);
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`runtime did not start:\n${output}`)), 60_000);
    const read = (chunk: Buffer): void => {
      output += chunk.toString();
      const ready = /READY (\S+)/.exec(output);
      if (ready) {
        clearTimeout(timer);
        resolve({ child, url: ready[1]! });
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (exitCode) => {
      clearTimeout(timer);
      reject(new Error(`runtime exited (${exitCode}) before it was ready:\n${output}`));
    });
  });
}

const scratch = mkdtempSync(path.join(tmpdir(), 'runtime-kill-'));
let running: ChildProcess | undefined;
afterAll(() => {
  running?.kill('SIGKILL');
  rmSync(scratch, { recursive: true, force: true });
});

describe('a kill during writes', () => {
  it('every accepted enquiry survives a SIGKILL and a restart; what the kill left is skipped, not shown', async () => {
    const blobsDir = path.join(scratch, 'blobs');
    const first = await startChild(blobsDir);
    running = first.child;
    const accepted = new Set<string>();
    let sent = 0;
    const post = async (i: number): Promise<void> => {
      const answer = await fetch(`${first.url}/api/contact`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.18.${Math.floor(i / 250)}.${i % 250}` },
        body: JSON.stringify({ name: `Person ${i}`, email: `p${i}@example.com`, message: `enquiry ${i}` }),
      });
      if (answer.status === 200) accepted.add(((await answer.json()) as { id: string }).id);
    };
    // Keep 8 posts in flight; kill the runtime while they are.
    const inFlight = new Set<Promise<void>>();
    const killAt = Date.now() + 1500;
    while (Date.now() < killAt) {
      const p = post(sent++).catch(() => undefined);
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
      if (inFlight.size >= 8) await Promise.race(inFlight);
    }
    first.child.kill('SIGKILL');
    await Promise.allSettled(inFlight);
    expect(accepted.size).toBeGreaterThan(10);

    // Whatever the kill interrupted, make sure both kinds of debris are there: a temporary file of an
    // unfinished write and a record cut short (a hand-edited blob, a disk that filled up).
    const day = path.join(blobsDir, 'entries', '0', 'site:enquiries', 'enquiry', '2026-01-01T00:00:00.000Z');
    mkdirSync(day, { recursive: true });
    writeFileSync(path.join(day, '.k3y9q0temp'), '{"id":"half-writ');
    writeFileSync(path.join(day, 'cut-short'), '{"id":"cut-sh');

    const second = await startChild(blobsDir);
    running = second.child;
    // The restarted runtime removed the temporary file and goes on accepting enquiries.
    expect(readdirSync(day)).toEqual(['cut-short']);
    const after = await fetch(`${second.url}/api/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.19.9.9' },
      body: JSON.stringify({ name: 'After', email: 'after@example.com', message: 'after the restart' }),
    });
    expect(after.status).toBe(200);
    accepted.add(((await after.json()) as { id: string }).id);

    const env = { ...process.env, NETLIFY_LOCAL_BLOBS_DIR: blobsDir, PORT: String(TEST_PORT) };
    const listed = spawnSync(process.execPath, ['scripts/enquiries.ts', 'json'], { cwd: ROOT, env, encoding: 'utf8' });
    expect(listed.status).toBe(0);
    const ids = new Set((JSON.parse(listed.stdout) as { id: string }[]).map((e) => e.id));
    for (const id of accepted) expect(ids.has(id)).toBe(true);
    expect(listed.stderr).toContain('skipped enquiry/2026-01-01T00:00:00.000Z/cut-short');
    expect([...ids].some((id) => id.startsWith('half'))).toBe(false);

    second.child.kill('SIGTERM');
    // The sweep, run by hand as documented, over the same folder: it finishes.
    const swept = spawnSync(process.execPath, ['scripts/scheduled.ts', 'store-sweep'], { cwd: ROOT, env, encoding: 'utf8' });
    expect(swept.stderr + swept.stdout).toMatch(/store-sweep: 204/);
    expect(swept.status).toBe(0);
  }, 180_000);
});
