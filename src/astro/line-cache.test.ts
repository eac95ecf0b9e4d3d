import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openLineCache } from './line-cache.ts';

const isText = (value: unknown): value is string => typeof value === 'string';

describe('a line cache between builds', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });
  const cacheDir = async (): Promise<string> => {
    const dir = await mkdtemp(path.join(tmpdir(), 'line-cache-'));
    dirs.push(dir);
    return dir;
  };
  const VALUES: [string, string][] = [
    ['a', '私有化部署大模型的完整指南'],
    ['b', 'emoji 🧪 and "quotes"\nand a newline'],
    ['c', 'x'.repeat(100)],
    ['d', ''],
  ];

  it('reads back every value, with its multi-byte characters and escaped newlines', async () => {
    const dir = await cacheDir();
    const first = await openLineCache(dir, 'values.ndjson', isText);
    for (const [key, value] of VALUES) first.set(key, value);
    await first.save();
    const again = await openLineCache(dir, 'values.ndjson', isText);
    expect(VALUES.map(([key]) => again.get(key))).toEqual(VALUES.map(([, value]) => value));
    expect([again.reused, again.counted]).toEqual([VALUES.length, 0]);
  });

  it('derives again what a damaged or invalid line cannot give, and keeps only what the build asked for', async () => {
    const dir = await cacheDir();
    const file = path.join(dir, 'values.ndjson');
    // A line cut short, a value of the wrong kind, garbage, and a last line without its newline.
    await writeFile(
      file,
      `${JSON.stringify(['a', 'kept'])}\n["b", "cut\n${JSON.stringify(['c', 7])}\nnot json\n${JSON.stringify(['d', 'last'])}`,
    );
    const cache = await openLineCache(dir, 'values.ndjson', isText);
    expect(['a', 'b', 'c', 'd'].map((key) => cache.get(key))).toEqual(['kept', undefined, undefined, 'last']);
    cache.set('e', 'new');
    await cache.save();
    const lines = (await readFile(file, 'utf8')).trim().split('\n');
    expect(lines.map((line) => JSON.parse(line)[0])).toEqual(['a', 'd', 'e']);
  });

  it('leaves an unchanged file alone and starts empty without one', async () => {
    const dir = await cacheDir();
    const empty = await openLineCache(dir, 'values.ndjson', isText);
    expect(empty.get('a')).toBeUndefined();
    await empty.save();
    await expect(readFile(path.join(dir, 'values.ndjson'), 'utf8')).rejects.toThrow();
  });
});
