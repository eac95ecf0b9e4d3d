/**
 * The dropped-change workaround against a real chokidar watcher (the watcher Vite bundles, and so
 * Astro's content loaders use, is the same code): a save in two writes inside chokidar's 50 ms
 * window, the second after the listener has read the first.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LoaderContext } from 'astro/loaders';
import { type FSWatcher, watch } from 'chokidar';
import { afterEach, describe, expect, it } from 'vitest';
import { reloadingDroppedChanges } from './chokidar-dropped-changes.ts';

/** Longer than chokidar's window and our settling after it, on a loaded machine. */
const QUIET_MS = 600;

let dir: string;
let watcher: FSWatcher;

afterEach(async () => {
  await watcher?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Watches a new file; `listen` is handed the watcher to register on. Returns what each change read and the file. */
async function twoWriteSave(listen: (watcher: LoaderContext['watcher'], listener: (file: string) => void) => void): Promise<string[]> {
  dir = mkdtempSync(path.join(tmpdir(), 'chokidar-dropped-'));
  const file = path.join(dir, 'article.md');
  writeFileSync(file, 'saved before\n');
  watcher = watch(file, { ignoreInitial: true });
  await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  const reads: string[] = [];
  let firstRead!: () => void;
  const read = new Promise<void>((resolve) => (firstRead = resolve));
  listen(watcher as unknown as LoaderContext['watcher'], (changed) => {
    reads.push(readFileSync(changed, 'utf8'));
    firstRead();
  });
  writeFileSync(file, '---\ntitle: Half\nsl');
  await read;
  // The rest of the save, inside the 50 ms in which chokidar drops the file's next change event.
  writeFileSync(file, '---\ntitle: Whole\nslug: whole\n---\n');
  await sleep(QUIET_MS);
  return reads;
}

describe('chokidar-dropped-changes', () => {
  it('chokidar alone drops the second write of a quick save (paulmillr/chokidar#1455; when this fails, the workaround can go)', async () => {
    const reads = await twoWriteSave((w, listener) => w!.on('change', listener));
    expect(reads).toEqual(['---\ntitle: Half\nsl']);
  });

  it('reads the file again when it changed during a reload, so the last read is the whole file', async () => {
    const reads = await twoWriteSave((w, listener) => {
      const context = reloadingDroppedChanges({ watcher: w } as LoaderContext);
      context.watcher!.on('change', listener);
    });
    expect(reads.at(-1)).toBe('---\ntitle: Whole\nslug: whole\n---\n');
  });

  it('runs one file’s reloads one at a time', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'chokidar-dropped-'));
    const file = path.join(dir, 'article.md');
    writeFileSync(file, 'v0');
    watcher = watch(file, { ignoreInitial: true });
    await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
    let running = 0;
    let overlapped = false;
    let calls = 0;
    const context = reloadingDroppedChanges({ watcher: watcher as unknown as LoaderContext['watcher'] } as LoaderContext);
    const slowReload = async (): Promise<void> => {
      calls++;
      running++;
      if (running > 1) overlapped = true;
      await sleep(200);
      running--;
    };
    context.watcher!.on('change', slowReload);
    context.watcher!.on('add', slowReload);
    // Two events of the one listener for one file while a reload runs: change, then (after the window) change again.
    writeFileSync(file, 'v1');
    await sleep(80);
    writeFileSync(file, 'v2');
    await sleep(QUIET_MS + 400);
    expect(calls).toBeGreaterThanOrEqual(2);
    expect(overlapped).toBe(false);
  });
});
