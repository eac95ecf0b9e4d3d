/** The small readers the rubrics share: markdown links and fences, twins, sampling, cache grades, front matter, MCP arguments. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { htmlOf } from './html.ts';
import { type Fetched, USER_AGENT } from './http.ts';
import { sampleArguments } from './protocols/mcp.ts';
import { cacheGrade, normalizeText, unclosedFence } from './rubrics/afdocs.ts';
import { frontMatterKeys, W3C_DATETIME } from './rubrics/agent-readability.ts';
import { ardIssues } from './rubrics/lighthouse.ts';
import { markdownLinks, spread, twinCandidates } from './site.ts';
import { variantFor } from './test/fixture-pages.ts';
import { CHECKER_NAME, CHECKER_VERSION } from './version.ts';

const fetched = (text: string): Fetched => ({
  url: 'https://a.example/',
  status: 200,
  headers: new Headers({ 'content-type': 'text/html' }),
  bytes: new Uint8Array(),
  text,
  ms: 1,
  redirects: [],
});

describe('version', () => {
  it('is the package.json version, on reports, requests and the MCP client', () => {
    const pkg = JSON.parse(readFileSync(path.join(import.meta.dirname, 'package.json'), 'utf8')) as { name: string; version: string };
    expect([CHECKER_NAME, CHECKER_VERSION]).toEqual([pkg.name, pkg.version]);
    expect(USER_AGENT).toBe(`agent-ready-check/${pkg.version} (agent-readiness checker)`);
  });
});

describe('markdownLinks', () => {
  it('finds inline links, resolves them, and skips images and unparsable URLs', () => {
    const text = '[A](/a.md) ![img](/i.png) [B](<https://b.example/b> "title") [C](http://[bad)';
    expect(markdownLinks(text, 'https://a.example/llms.txt').map((l) => l.url)).toEqual(['https://a.example/a.md', 'https://b.example/b']);
  });
});

describe('unclosedFence (CommonMark)', () => {
  it.each([
    ['```sh\ncode\n```\n', null],
    ['~~~\ncode\n~~~~\n', null],
    ['````\n```\nstill code\n````\n', null],
    ['```\ncode\n~~~\n', { line: 1, marker: '```' }],
    ['text\n~~~~\ncode\n~~~\n', { line: 2, marker: '~~~~' }],
    ['```js\nx\n``` trailing\n', { line: 1, marker: '```' }],
    ['inline ```code``` is not a fence\n', null],
  ])('%j → %j', (markdown, open) => {
    expect(unclosedFence(markdown)).toEqual(open);
  });
});

describe('twinCandidates', () => {
  it.each([
    ['https://a.example/', ['https://a.example/index.md']],
    ['https://a.example/docs/a/', ['https://a.example/docs/a.md', 'https://a.example/docs/a/index.md']],
    ['https://a.example/docs/a.html', ['https://a.example/docs/a.md', 'https://a.example/docs/a/index.md']],
  ])('%s', (url, twins) => {
    expect(twinCandidates(url)).toEqual(twins);
  });
});

describe('spread', () => {
  it('keeps short lists and samples long ones evenly from the first item', () => {
    expect(spread([1, 2, 3], 5)).toEqual([1, 2, 3]);
    expect(spread([...Array(10).keys()], 4)).toEqual([0, 2, 5, 7]);
  });
});

describe('cacheGrade (AFDocs cache-header-hygiene)', () => {
  it.each([
    [{ 'cache-control': 'public, max-age=300' }, 'pass'],
    [{ 'cache-control': 'no-store' }, 'pass'],
    [{ 'cache-control': 'max-age=86400, must-revalidate', etag: '"x"' }, 'pass'],
    [{ etag: '"x"' }, 'pass'],
    [{ 'cache-control': 'max-age=7200' }, 'warn'],
    [{ 'cache-control': 'max-age=604800' }, 'fail'],
    [{}, 'fail'],
  ])('%j → %s', (headers, status) => {
    expect(cacheGrade(new Headers(headers)).status).toBe(status);
  });
});

describe('normalizeText', () => {
  it('compares words only: links keep their text, punctuation and case go', () => {
    expect(normalizeText('See the [Glossary](https://x/g.md), **now**!')).toBe('see the glossary now');
  });
});

describe('frontMatterKeys and W3C dates', () => {
  it('reads top-level keys of YAML front matter, and nothing without it', () => {
    expect(frontMatterKeys('---\ntitle: T\ndescription: "D"\nnested:\n  inner: 1\n---\n# T\n')).toEqual(['title', 'description', 'nested']);
    expect(frontMatterKeys('# T\n---\ntitle: T\n---\n')).toBeNull();
  });

  it.each([
    ['2026-11-20', true],
    ['2026-11-20T10:00Z', true],
    ['2026-11-20T10:00:00+01:00', true],
    ['2026', true],
    ['20/11/2026', false],
    ['2026-11-20T10:00', false],
  ])('%s is a W3C Datetime: %s', (value, ok) => {
    expect(W3C_DATETIME.test(value)).toBe(ok);
  });
});

describe('sampleArguments', () => {
  it('fills required inputs from enum, default, examples, then by type', () => {
    expect(
      sampleArguments({
        name: 't',
        inputSchema: {
          type: 'object',
          required: ['a', 'b', 'c', 'd', 'e'],
          properties: {
            a: { enum: ['x'] },
            b: { default: 3 },
            c: { examples: ['ex'] },
            d: { type: 'integer', minimum: 2 },
            e: { type: 'string' },
          },
        },
      }),
    ).toEqual({ a: 'x', b: 3, c: 'ex', d: 2, e: 'agent' });
  });
});

describe('ardIssues (Lighthouse ard-schema)', () => {
  const entry = {
    identifier: 'urn:air:a.example:mcp:site',
    displayName: 'S',
    type: 'application/mcp-server-card+json',
    url: 'https://a.example/c',
    representativeQueries: ['a', 'b'],
  };
  it('passes a conforming catalog and grades the ARD warnings apart from the errors', () => {
    expect(ardIssues({ specVersion: '1.0', host: { displayName: 'A' }, entries: [entry] })).toEqual({ errors: [], warnings: [] });
    expect(ardIssues({ specVersion: '1.1', entries: [{ ...entry, representativeQueries: ['a'] }] })).toEqual({
      errors: [],
      warnings: ['"specVersion" is "1.1", expected "1.0"', 'S: 1 "representativeQueries" (2 to 5 recommended)'],
    });
    expect(ardIssues({ specVersion: '1.0', entries: [{ ...entry, identifier: 'urn:other:x', data: {} }] }).errors).toEqual([
      'S: "identifier" is not urn:air:<publisher>:<namespace>:<name>',
      'S: needs exactly one of "url" and "data"',
    ]);
  });
});

describe('htmlOf', () => {
  it('reads what an agent without a browser sees: no script text, segments of <main>, blocking overlays', () => {
    const html = htmlOf(
      fetched(
        '<html lang="de"><head><title>T</title><meta name="Description" content="d"><script>var x = 1</script></head><body><nav><p>menu</p></nav><main><h1>T</h1><p>One <b>two</b></p><ul><li>three</li></ul></main><dialog open>x</dialog></body></html>',
      ),
    );
    expect(html).toMatchObject({
      lang: 'de',
      title: 'T',
      h1: 'T',
      headings: ['h1'],
      segments: ['T', 'One two', 'three'],
      interstitials: ['<dialog open>'],
    });
    expect(html.meta.get('description')).toBe('d');
    expect(html.text).not.toContain('var x');
  });

  it('joins text across inline elements as a browser does, and sets blocks apart', () => {
    const html = htmlOf(
      fetched(
        '<html><body><main><h1>私有<wbr>化<span class="k">部署</span></h1><p><b>un</b>likely <a href="/x">link</a>s</p><div>a</div><div>b</div>c<br>d</main></body></html>',
      ),
    );
    expect(html.h1).toBe('私有化部署');
    expect(html.segments).toEqual(['私有化部署', 'unlikely links']);
    expect(html.text).toBe('私有化部署 unlikely links a b c d');
  });
});

describe('the fixture negotiates as the site is meant to', () => {
  it.each([
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'html'],
    ['*/*', 'html'],
    ['text/markdown', 'markdown'],
    ['text/markdown, text/html, */*', 'markdown'],
    ['text/markdown, text/plain;q=0.9, */*;q=0.8', 'markdown'],
    ['text/markdown;q=0.5, text/html', 'html'],
    ['text/plain, text/html;q=0.9', 'plain'],
  ])('%s → %s', (accept, variant) => {
    expect(variantFor(accept)).toBe(variant);
  });
});
