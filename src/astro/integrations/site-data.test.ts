/** The build hook's tweet snapshot: a bad content/tweets.json fails the build naming the file and the problem. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTweetSnapshot } from './site-data.ts';

const folder = (tweets: string | null): string => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tweets-snapshot-'));
  if (tweets !== null) writeFileSync(path.join(dir, 'tweets.json'), tweets);
  return dir;
};

describe('readTweetSnapshot', () => {
  it('reads the repository snapshot', async () => {
    const feed = await readTweetSnapshot(path.resolve(import.meta.dirname, '..', '..', '..', 'content'));
    expect(feed.tweets.length).toBeGreaterThan(0);
  });

  it('names the file and line, as a content error, when it is missing or not JSON', async () => {
    const missing = folder(null);
    const file = (dir: string): string => path.relative(process.cwd(), path.join(dir, 'tweets.json'));
    await expect(readTweetSnapshot(missing)).rejects.toThrow(`${file(missing)}:1: the file is missing: a JSON tweet feed`);
    const broken = folder('{\n  "updated_at": "2026-11-15T08:00:00Z",\n  nope\n}');
    await expect(readTweetSnapshot(broken)).rejects.toThrow(`${file(broken)}:3: not valid JSON: `);
  });

  it('names the file and the field when the feed is malformed', async () => {
    await expect(readTweetSnapshot(folder('{"tweets": "none"}'))).rejects.toThrow(/tweets\.json:1: Invalid tweet feed at /);
  });
});
