/**
 * The functions' search loading: the index file beside the function, read by position. What it reads
 * is exactly what the engine asks for, and the engine over the file answers as over the bytes in memory.
 */
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSearchIndex } from '../../../src/core/search/build-index.ts';
import { SEARCH_INDEX_FILE } from '../../../src/core/search/index-data.ts';
import { loadSearchIndex } from '../../../src/core/search/search-index.ts';
import { documentMaker } from '../../../tests/support/core-fixtures.ts';
import { fileRangeReader, searchEngineAt } from './search.ts';

const doc = documentMaker();
const file = buildSearchIndex([
  doc('gateway', 'API 网关的限流与熔断', '在大模型 API 前部署网关，实现限流与熔断。'),
  doc('speculative', 'Speculative decoding', 'A draft model proposes tokens; the target model verifies them.'),
]);
const dir = mkdtempSync(path.join(tmpdir(), 'search-index-'));
writeFileSync(path.join(dir, SEARCH_INDEX_FILE), file);
const dirUrl = pathToFileURL(`${dir}/`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('fileRangeReader', () => {
  it('reads exactly the bytes asked for, and refuses a range past the end of the file', () => {
    const read = fileRangeReader(new URL(SEARCH_INDEX_FILE, dirUrl));
    expect(read(0, 4)).toEqual(file.subarray(0, 4));
    expect(read(100, 164)).toEqual(file.subarray(100, 164));
    expect(read(file.length - 1, file.length)).toEqual(file.subarray(-1));
    expect(read(7, 7)).toHaveLength(0);
    expect(() => read(file.length - 1, file.length + 1)).toThrow(/ends before byte/);
  });
});

describe('searchEngineAt', () => {
  it('answers as the engine over the bytes in memory, and keeps answering from the file it opened', () => {
    const engine = searchEngineAt(dirUrl);
    const inMemory = loadSearchIndex(file);
    for (const query of ['网关', 'speculat', 'draft model', 'zzz']) expect(engine().search(query)).toEqual(inMemory.search(query));
    expect(engine()).toBe(engine());
    // A rebuild replaces the file (a new file renamed over it): the open descriptor still reads the old one.
    const next = path.join(dir, 'next.bin');
    writeFileSync(next, buildSearchIndex([doc('other', 'Other', 'Nothing alike.')]));
    renameSync(next, path.join(dir, SEARCH_INDEX_FILE));
    expect(
      engine()
        .search('熔断')
        .map((h) => h.slug),
    ).toEqual(['gateway']);
  });

  it('fails on first use when the file is missing', () => {
    expect(() => searchEngineAt(pathToFileURL(`${dir}/missing/`))()).toThrow(/ENOENT/);
  });
});
