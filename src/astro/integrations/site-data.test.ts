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

  it('names the file when it is missing or not JSON', async () => {
    const missing = folder(null);
    await expect(readTweetSnapshot(missing)).rejects.toThrow(`${path.join(missing, 'tweets.json')}: expected a JSON tweet feed`);
    await expect(readTweetSnapshot(folder('{nope'))).rejects.toThrow(/tweets\.json: expected a JSON tweet feed/);
  });

  it('names the file when the feed is malformed', async () => {
    await expect(readTweetSnapshot(folder('{"tweets": "none"}'))).rejects.toThrow(/tweets\.json: /);
  });
});
