/**
 * The static layer when a failed build has emptied dist/ under a running `npm start`: every miss is a 503 saying the
 * last build failed and what to run, logged once, where it was a silent 404 for every page (stranger s8b, M3).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BUILD_MISSING_TEXT, StaticSite } from './static.ts';

const DIST = mkdtempSync(path.join(tmpdir(), 'runtime-static-'));
afterAll(() => rmSync(DIST, { recursive: true, force: true }));

function build(): void {
  mkdirSync(path.join(DIST, 'blog', 'notes'), { recursive: true });
  writeFileSync(path.join(DIST, 'index.html'), '<h1>Home</h1>');
  writeFileSync(path.join(DIST, '404.html'), '<h1>Not here</h1>');
  writeFileSync(path.join(DIST, 'blog', 'notes', 'index.html'), '<h1>Notes</h1>');
}

/** What Astro does first in a build, which then fails: dist/ emptied. */
function failedBuild(): void {
  for (const name of ['index.html', '404.html', 'blog']) rmSync(path.join(DIST, name), { recursive: true, force: true });
}

async function get(site: StaticSite, pathname: string, method = 'GET'): Promise<Response> {
  const request = new Request(`http://localhost${pathname}`, { method });
  const found = await site.find(pathname);
  return found ? site.respond(request, found) : site.notFound(request);
}

describe('a failed build under a running server', () => {
  it('answers 503 saying to run npm run build, logs it once, and serves the next good build at once', async () => {
    build();
    const log: string[] = [];
    const site = new StaticSite(DIST, [], (line) => log.push(line));
    expect((await get(site, '/')).status).toBe(200);
    expect((await get(site, '/no-such-page')).status).toBe(404);

    failedBuild();
    for (const pathname of ['/blog/notes/', '/rss.xml', '/no-such-page']) {
      const res = await get(site, pathname);
      expect(res.status, pathname).toBe(503);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(await res.text()).toBe(BUILD_MISSING_TEXT);
    }
    expect((await get(site, '/blog/notes/', 'HEAD')).status).toBe(503);
    expect(BUILD_MISSING_TEXT).toContain('the last `npm run build` failed');
    expect(log).toHaveLength(1);
    expect(log[0]).toMatch(/holds no build: the last npm run build failed .* run npm run build/);

    build();
    expect((await get(site, '/blog/notes/')).status).toBe(200);
    expect((await get(site, '/no-such-page')).status).toBe(404);
    failedBuild();
    expect((await get(site, '/')).status).toBe(503);
    expect(log).toHaveLength(2); // a second failed build is logged again
  });
});
