import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { devWatchIgnored } from './dev-watch.ts';

const ROOT = '/repo';

describe('devWatchIgnored', () => {
  it("leaves out the build's, the benchmarks' and the runtime's output, and nothing an author edits", () => {
    const ignored = devWatchIgnored(ROOT, './content');
    for (const file of [
      'dist/index.html',
      'generated/data/x.json',
      '.netlify/blobs-serve/a',
      'bench/.out/build/10000/dist/a.html',
      'tests/.tmp/build-cache/content/company.yaml',
    ])
      expect(ignored(path.join(ROOT, file)), file).toBe(true);
    expect(ignored(path.join(ROOT, '.stryker-tmp-oauth'))).toBe(true);
    for (const file of ['content/articles/a.md', 'src/pages/index.astro', 'astro.config.mjs', 'bench/build.bench.ts', 'distribution.md'])
      expect(ignored(path.join(ROOT, file)), file).toBe(false);
  });

  it('keeps a content folder inside a scratch folder watched, and the folders on the way to it', () => {
    const ignored = devWatchIgnored(ROOT, 'bench/.corpus/dev/content');
    expect(ignored(path.join(ROOT, 'bench/.corpus/dev/content/articles/a.md'))).toBe(false);
    expect(ignored(path.join(ROOT, 'bench/.corpus'))).toBe(false);
    expect(ignored(path.join(ROOT, 'bench/.corpus/build/content-10000/a.md'))).toBe(true);
  });

  it("watches a test's own content copy under tests/.tmp, not the other tests' copies beside it", () => {
    const ignored = devWatchIgnored(ROOT, 'tests/.tmp/dev-server/content');
    expect(ignored(path.join(ROOT, 'tests/.tmp/dev-server/content/company.yaml'))).toBe(false);
    expect(ignored(path.join(ROOT, 'tests/.tmp/build-cache/content/company.yaml'))).toBe(true);
  });
});
