import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Document } from '../core/content/catalog.ts';
import { buildSearchIndex } from '../core/search/build-index.ts';
import { documentMaker } from '../../tests/support/core-fixtures.ts';
import { openTermsCache, SEARCH_TERMS_FILE } from './search-terms-cache.ts';

const doc = documentMaker();
const DOCS: Document[] = [
  doc('a', 'Private LLM gateway', 'Token budgets per team, 私有化部署。'),
  doc('b', 'RAG evaluation', 'Faithfulness and recall on a held-out set.'),
  doc('c', '智能体', '工具调用与权限。'),
];

describe('the search terms cache between builds', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });
  const cacheDir = async (): Promise<string> => {
    const dir = await mkdtemp(path.join(tmpdir(), 'search-terms-'));
    dirs.push(dir);
    return dir;
  };

  it('gives the next build every unchanged document, the same index bytes, and counts only the edited one', async () => {
    const dir = await cacheDir();
    const fresh = buildSearchIndex(DOCS);
    const first = await openTermsCache(dir);
    expect(buildSearchIndex(DOCS, { termsCache: first })).toEqual(fresh);
    expect([first.reused, first.counted]).toEqual([0, 3]);
    await first.save();

    const edited = DOCS.map((d) => (d.slug === 'b' ? { ...d, markdown: `${d.markdown} Quokka recall.` } : d));
    const second = await openTermsCache(dir);
    expect(buildSearchIndex(edited, { termsCache: second })).toEqual(buildSearchIndex(edited));
    expect([second.reused, second.counted]).toEqual([2, 1]);
    await second.save();
    // Only the last build's documents are kept: the edited document's old terms are gone.
    expect((await readFile(path.join(dir, SEARCH_TERMS_FILE), 'utf8')).trim().split('\n')).toHaveLength(3);
  });

  it('counts again what a damaged file cannot give, and never fails the build over it', async () => {
    const dir = await cacheDir();
    const first = await openTermsCache(dir);
    buildSearchIndex(DOCS, { termsCache: first });
    await first.save();
    const file = path.join(dir, SEARCH_TERMS_FILE);
    const lines = (await readFile(file, 'utf8')).trim().split('\n');
    // One line cut short, one with counts that do not match its terms, and garbage.
    const [key, terms] = JSON.parse(lines[1]!) as [string, { titleCounts: number[] }];
    terms.titleCounts.push(7);
    await writeFile(file, `${lines[0]!.slice(0, 20)}\n${JSON.stringify([key, terms])}\n${lines[2]}\nnot json\n`);
    const second = await openTermsCache(dir);
    expect(buildSearchIndex(DOCS, { termsCache: second })).toEqual(buildSearchIndex(DOCS));
    expect([second.reused, second.counted]).toEqual([1, 2]);
  });

  it('keys a document by the key its caller has for its source, and hashes the fields of the rest', async () => {
    const dir = await cacheDir();
    const keyOf = (d: Document): string | undefined => (d.slug === 'a' ? 'articles/a digest-1' : undefined);
    const counted = buildSearchIndex(DOCS);
    const first = Object.assign(await openTermsCache(dir), { keyOf });
    expect(buildSearchIndex(DOCS, { termsCache: first })).toEqual(counted);
    await first.save();
    const keys = (await readFile(path.join(dir, SEARCH_TERMS_FILE), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line)[0] as string);
    expect(keys).toContain('articles/a digest-1');
    expect(keys.filter((key) => /^[0-9a-f]{16}$/.test(key))).toHaveLength(2);
    const second = Object.assign(await openTermsCache(dir), { keyOf });
    expect(buildSearchIndex(DOCS, { termsCache: second })).toEqual(counted);
    expect([second.reused, second.counted]).toEqual([3, 0]);
  });
});
