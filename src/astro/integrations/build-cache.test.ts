import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  clearIfCodeChanged,
  FINGERPRINT_FILE,
  fingerprintChange,
  type CodeFingerprint,
  pagesFromCache,
  reuseSummary,
} from './build-cache.ts';

const built: CodeFingerprint = { code: 'c1', settings: { origin: 'http://localhost:8888', ogImages: 'on-demand' } };

describe('fingerprintChange (why the cache cannot serve this build, for the log)', () => {
  it('names the build settings that changed, not the code, when only they did', () => {
    const next = { ...built, settings: { ...built.settings, origin: 'http://localhost:8925' } };
    expect(fingerprintChange(JSON.stringify(built), next)).toBe(
      'the build settings (origin: "http://localhost:8888" → "http://localhost:8925")',
    );
  });

  it('names the code, both, or neither', () => {
    expect(fingerprintChange(JSON.stringify(built), built)).toBeNull();
    expect(fingerprintChange(JSON.stringify(built), { ...built, code: 'c2' })).toBe('the code');
    expect(fingerprintChange(JSON.stringify(built), { code: 'c2', settings: { origin: 'http://localhost:8888' } })).toBe(
      'the code and the build settings (ogImages: "on-demand" → none)',
    );
  });

  it('cannot tell apart a missing or older-format fingerprint', () => {
    expect(fingerprintChange(null, built)).toBe('the code or the build settings');
    expect(fingerprintChange('3f2a9c', built)).toBe('the code or the build settings');
  });
});

describe('clearIfCodeChanged', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it("empties Astro's caches and the search terms when the settings changed, and says why", () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'build-cache-'));
    dirs.push(dir);
    writeFileSync(path.join(dir, FINGERPRINT_FILE), `${JSON.stringify(built)}\n`);
    writeFileSync(path.join(dir, 'data-store.json'), '{}');
    writeFileSync(path.join(dir, 'search-terms.ndjson'), '');
    mkdirSync(path.join(dir, 'pagefind'));
    expect(clearIfCodeChanged(dir, built)).toBeNull();
    expect(existsSync(path.join(dir, 'data-store.json'))).toBe(true);
    const moved = { ...built, settings: { ...built.settings, origin: 'http://localhost:8925' } };
    expect(clearIfCodeChanged(dir, moved)).toMatch(/^the build settings \(origin: /);
    expect(existsSync(path.join(dir, 'data-store.json'))).toBe(false);
    expect(existsSync(path.join(dir, 'search-terms.ndjson'))).toBe(false);
    // Pagefind's bundles key themselves on the pages' bytes: kept.
    expect(existsSync(path.join(dir, 'pagefind'))).toBe(true);
  });
});

describe('pagesFromCache (the build log line of what was reused)', () => {
  const manifest = (dependencyHash: string, paths: Record<string, { cacheKey: string; contentHashes?: Record<string, string> }>) => ({
    configHash: 'c',
    lockfileHash: 'l',
    routes: {
      'src/pages/blog/[slug].astro': { dependencyHash, paths },
      'src/pages/index.astro': { dependencyHash: 'i', paths: {} },
      // An endpoint's file is not a page.
      'src/pages/icons/[icon].png.ts': { dependencyHash: 'p', paths: { '/icons/icon-192.png': { cacheKey: 'k' } } },
    },
  });
  const before = manifest('d', {
    '/blog/a': { cacheKey: '1' },
    '/blog/b': { cacheKey: '2', contentHashes: { x: 'h' } },
    '/blog/c': { cacheKey: '3' },
  });

  it('counts the pages whose route code, cache key and content entries are unchanged', () => {
    const after = manifest('d', {
      '/blog/a': { cacheKey: '1' },
      '/blog/b': { cacheKey: '2', contentHashes: { x: 'h2' } },
      '/blog/c': { cacheKey: '9' },
      '/blog/d': { cacheKey: '4' },
    });
    expect(pagesFromCache(before, after)).toEqual({ copied: 1 });
    expect(pagesFromCache(before, before)).toEqual({ copied: 3 });
  });

  it('counts none when the route code, the configuration or the lockfile changed, or there was no cache', () => {
    expect(pagesFromCache(before, manifest('d2', { '/blog/a': { cacheKey: '1' } }))).toEqual({ copied: 0 });
    expect(pagesFromCache({ ...before, lockfileHash: 'other' }, before)).toEqual({ copied: 0, ignored: 'lock file' });
    expect(pagesFromCache({ ...before, configHash: 'other' }, before)).toEqual({ copied: 0, ignored: 'configuration' });
    expect(reuseSummary(3, { copied: 0, ignored: 'configuration' }, {})).toBe(
      "0 of 3 pages copied from the cache, 3 rendered (Astro's configuration changed since the cached build: it renders every page)",
    );
    expect(pagesFromCache(null, before)).toEqual({ copied: 0 });
    expect(pagesFromCache(null, null)).toEqual({ copied: 0 });
  });

  it('says it in one line with each of the build caches', () => {
    const line = reuseSummary(13_346, { copied: 13_282 }, { 'search terms': { reused: 9_999, counted: 1 } });
    expect(line).toBe('13,282 of 13,346 pages copied from the cache, 64 rendered; search terms: 9,999 reused, 1 derived');
  });
});
