/**
 * The emulator workaround (the parity test only): the bundle-race retry retries only that race; the
 * per-request bundle folders outlive their request, and only those folders.
 */
import { existsSync, mkdirSync, mkdtempSync, promises as fs, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { deferBundleFolderRemoval, handleRetryingBundleRace } from './netlify-dev-bundle-race.ts';

describe('netlify-dev-bundle-race', () => {
  const race = "Error: ENOENT: no such file or directory, open '/x/.netlify/functions-serve/_a1b2/mcp.mjs'";
  const devAnswering = (...bodies: [number, string][]) => {
    let calls = 0;
    return {
      calls: () => calls,
      handle: async () => {
        const [status, body] = bodies[Math.min(calls++, bodies.length - 1)]!;
        return new Response(body, { status });
      },
    };
  };

  it('retries a request that lost the bundle race, then answers', async () => {
    const dev = devAnswering([500, race], [200, 'ok']);
    const response = await handleRetryingBundleRace(dev, new Request('http://localhost/mcp', { method: 'POST', body: '{}' }));
    expect([response?.status, await response?.text(), dev.calls()]).toEqual([200, 'ok', 2]);
  });

  it('gives up after three attempts, and never retries an application error', async () => {
    const racing = devAnswering([500, race]);
    expect((await handleRetryingBundleRace(racing, new Request('http://localhost/mcp')))?.status).toBe(500);
    expect(racing.calls()).toBe(3);
    const failing = devAnswering([500, 'TypeError: boom']);
    expect((await handleRetryingBundleRace(failing, new Request('http://localhost/mcp')))?.status).toBe(500);
    expect(failing.calls()).toBe(1);
  });

  it('keeps a per-request folder after @netlify/dev removes it, until the emulator stops; other removals are untouched', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'bundle-folders-'));
    const serveDir = path.join(root, 'functions-serve');
    const [perRequest, perFunction, elsewhere] = [path.join(serveDir, '_a1b2'), path.join(serveDir, 'mcp'), path.join(root, '_other')];
    for (const dir of [perRequest, perFunction, elsewhere]) mkdirSync(dir, { recursive: true });
    const original = fs.rm;
    const removeLeft = deferBundleFolderRemoval(serveDir);
    try {
      await fs.rm(perRequest, { recursive: true, force: true });
      await fs.rm(perFunction, { recursive: true, force: true });
      await fs.rm(elsewhere, { recursive: true, force: true });
      expect([existsSync(perRequest), existsSync(perFunction), existsSync(elsewhere)]).toEqual([true, false, false]);
    } finally {
      await removeLeft();
    }
    expect(existsSync(perRequest)).toBe(false);
    expect(fs.rm).toBe(original);
    rmSync(root, { recursive: true, force: true });
  });
});
