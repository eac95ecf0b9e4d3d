import { describe, expect, it } from 'vitest';
import { currentResults, DELTA_META, MAX_RESULT_BATCHES, type PagefindResultData } from './pagefind-delta.ts';

const result = (url: string, delta = false) => {
  const data: PagefindResultData = { url, meta: delta ? { title: url, [DELTA_META.name]: DELTA_META.value } : { title: url } };
  let loads = 0;
  return {
    data: async () => {
      loads++;
      return data;
    },
    loads: () => loads,
  };
};

describe('currentResults (the delta bundle wins over a base bundle for a superseded page)', () => {
  it("drops a base bundle's result for a superseded page and keeps the delta's, in Pagefind's order", async () => {
    const results = [
      result('/blog/a/'),
      result('/blog/edited/'),
      result('/blog/b/'),
      result('/blog/edited/', true),
      result('/blog/removed/'),
    ];
    const kept = await currentResults(results, new Set(['/blog/edited/', '/blog/removed/']), 10);
    expect(kept.map((d) => [d.url, d.meta[DELTA_META.name] ?? 'base'])).toEqual([
      ['/blog/a/', 'base'],
      ['/blog/b/', 'base'],
      ['/blog/edited/', 'delta'],
    ]);
  });

  it('keeps everything when nothing is superseded, up to the limit, loading only what it returns', async () => {
    const results = Array.from({ length: 8 }, (_, i) => result(`/blog/${i}/`));
    const kept = await currentResults(results, new Set(), 3);
    expect(kept.map((d) => d.url)).toEqual(['/blog/0/', '/blog/1/', '/blog/2/']);
    expect(results.map((r) => r.loads())).toEqual([1, 1, 1, 0, 0, 0, 0, 0]);
  });

  it('loads the next batch when stale results leave the first one short', async () => {
    const results = [result('/x/'), result('/old/'), result('/y/'), result('/z/'), result('/w/'), result('/v/'), result('/u/')];
    const kept = await currentResults(results, new Set(['/old/']), 3);
    expect(kept.map((d) => d.url)).toEqual(['/x/', '/y/', '/z/']);
    // Two batches of three: the seventh is never loaded.
    expect(results.map((r) => r.loads())).toEqual([1, 1, 1, 1, 1, 1, 0]);
  });

  it('keeps only what `accept` keeps, reading at most MAX_RESULT_BATCHES batches of a loose match', async () => {
    const results = Array.from({ length: 40 }, (_, i) => result(`/blog/${i}/`));
    const even = await currentResults(results, new Set(), 3, undefined, (d) => Number(d.url.split('/')[2]) % 2 === 0);
    expect(even.map((d) => d.url)).toEqual(['/blog/0/', '/blog/2/', '/blog/4/']);
    const none = await currentResults(results, new Set(), 3, undefined, () => false);
    expect(none).toEqual([]);
    // Two batches for the first query, MAX_RESULT_BATCHES for the second: never all 40.
    expect(results.filter((r) => r.loads() > 0)).toHaveLength(3 * MAX_RESULT_BATCHES);
    expect(results[3 * MAX_RESULT_BATCHES]!.loads()).toBe(0);
  });

  it('compares by the path `pathOf` gives (a merged bundle names results by absolute URL)', async () => {
    const results = [result('http://localhost/blog/edited/'), result('http://localhost/blog/a/')];
    const kept = await currentResults(results, new Set(['/blog/edited/']), 5, (url) => new URL(url, 'http://localhost/').pathname);
    expect(kept.map((d) => d.url)).toEqual(['http://localhost/blog/a/']);
  });
});
