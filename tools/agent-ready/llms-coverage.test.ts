/**
 * AFDocs llms-txt-coverage over both shapes of llms.txt a site publishes: one flat file listing every page,
 * and a root that links per-language llms.txt files (progressive disclosure), which the afdocs tool walks one
 * level deep. The good fixture site's pages are `/`, `/docs/guide` and `/docs/glossary`.
 */
import { describe, expect, it } from 'vitest';
import { AFDOCS } from './rubrics/afdocs.ts';
import { scan } from './scan.ts';
import { doc, FIXTURE_ORIGIN, goodRoutes, memoryFetch, type Routes } from './test/good-site.ts';
import type { CheckResult } from './types.ts';

const O = FIXTURE_ORIGIN;
const TEXT = { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'public, max-age=300' };
const HOME = `- [Home](${O}/index.md): the home page`;
const GUIDE = `- [Getting started](${O}/docs/guide.md): install and first call`;
const GLOSSARY = `- [Glossary](${O}/docs/glossary.md): the terms`;

/** A root llms.txt that lists no page itself and links the given nested files. */
const root = (...nested: string[]): string =>
  `# Fixture\n\n> Documentation for the Fixture API, for agents.\n\n## By language\n\n${nested.map((n) => `- [${n}](${O}${n}): one language`).join('\n')}\n`;
const index = (title: string, ...lines: string[]): string => `# ${title}\n\n> One language.\n\n## Docs\n\n${lines.join('\n')}\n`;

async function coverage(mutate: (routes: Routes) => void = () => {}): Promise<CheckResult & { requested: string[] }> {
  const routes = goodRoutes(O);
  mutate(routes);
  const requested: string[] = [];
  const fetchAll = memoryFetch(routes);
  const report = await scan(
    {
      baseUrl: O,
      fetch: async (input, init) => {
        requested.push(new URL(input instanceof Request ? input.url : String(input)).href.replace(O, ''));
        return fetchAll(input, init);
      },
      behaviour: false,
    },
    [AFDOCS],
  );
  return { ...report.rubrics[0]!.checks.find((c) => c.id === 'llms-txt-coverage')!, requested };
}

describe('AFDocs llms-txt-coverage', () => {
  it('a flat llms.txt that links every sitemap page passes, and nothing nested is fetched', async () => {
    const result = await coverage();
    expect(result.status).toBe('pass');
    expect(result.reason).toBe('llms.txt links 3 of 3 (100 %) sitemap pages');
  });

  it('a flat llms.txt that misses pages fails, naming them', async () => {
    const result = await coverage((r) => r.set('/llms.txt', doc(index('Fixture', HOME), TEXT)));
    expect(result.status).toBe('fail');
    expect(result.reason).toMatch(/^llms\.txt links 1 of 3 \(33 %\) sitemap pages; not listed e\.g\. .*\/docs\/guide/);
  });

  it('a root that links per-language llms.txt files is read with them: their pages count', async () => {
    const result = await coverage((r) => {
      r.set('/llms.txt', doc(root('/en/llms.txt', '/zh/llms.txt'), TEXT));
      r.set('/en/llms.txt', doc(index('English', HOME, GUIDE), TEXT));
      r.set('/zh/llms.txt', doc(index('中文', GLOSSARY), TEXT));
    });
    expect(result.reason).toBe('llms.txt and the 2 nested index(es) it links link 3 of 3 (100 %) sitemap pages');
    expect(result.status).toBe('pass');
    expect(result.requested.filter((p) => p.endsWith('/llms.txt'))).toEqual([
      '/llms.txt',
      '/docs/llms.txt',
      '/en/llms.txt',
      '/zh/llms.txt',
    ]);
  });

  it('a page no nested index lists is still missing', async () => {
    const result = await coverage((r) => {
      r.set('/llms.txt', doc(root('/en/llms.txt'), TEXT));
      r.set('/en/llms.txt', doc(index('English', HOME, GUIDE), TEXT));
    });
    expect(result.status).toBe('fail');
    expect(result.reason).toMatch(
      /^llms\.txt and the 1 nested index\(es\) it links link 2 of 3 \(67 %\) sitemap pages; not listed e\.g\. .*\/docs\/glossary$/,
    );
  });

  it('one level deep: a .txt inside a nested index is not fetched, and the sitemap pages in its folder are left out', async () => {
    const result = await coverage((r) => {
      r.set('/llms.txt', doc(root('/en/llms.txt'), TEXT));
      r.set('/en/llms.txt', doc(index('English', HOME, GLOSSARY, `- [Guide section](${O}/docs/guide/llms.txt): the guide`), TEXT));
      r.set('/docs/guide/llms.txt', doc(index('Guide', GUIDE), TEXT));
    });
    expect(result.requested).not.toContain('/docs/guide/llms.txt');
    expect(result.status).toBe('pass');
    expect(result.reason).toBe(
      'llms.txt and the 1 nested index(es) it links link 2 of 2 (100 %) sitemap pages; 1 deeper index(es) not followed (1 sitemap pages under them left out)',
    );
  });

  it('a nested index that is not text (a soft 404, a missing file) lists nothing, and the reason says which', async () => {
    const result = await coverage((r) => {
      r.set('/llms.txt', doc(root('/en/llms.txt', '/zh/llms.txt'), TEXT));
      r.set('/en/llms.txt', doc(index('English', HOME), TEXT));
      r.set('/zh/llms.txt', doc('<!doctype html><html><body><h1>Welcome</h1></body></html>', { 'content-type': 'text/html' }));
    });
    expect(result.status).toBe('fail');
    expect(result.reason).toMatch(
      /link 1 of 3 \(33 %\) sitemap pages; .*1 nested index\(es\) unreadable \(\/zh\/llms\.txt → 200 text\/html\)$/,
    );
  });

  it('off-origin .txt links are not fetched', async () => {
    const result = await coverage((r) => {
      r.set(
        '/llms.txt',
        doc(`${index('Fixture', HOME, GUIDE, GLOSSARY)}\n- [Partner](https://partner.example/llms.txt): elsewhere\n`, TEXT),
      );
    });
    expect(result.status).toBe('pass');
    expect(result.requested.filter((u) => u.includes('partner.example'))).toEqual([]);
    expect(result.reason).toBe('llms.txt links 3 of 3 (100 %) sitemap pages');
  });
});
