/**
 * The small parsers the checks rely on: robots.txt groups, Content-Signal values, Link headers, the auth.md
 * heading, SKILL.md front matter.
 */
import { describe, expect, it } from 'vitest';
import { frontMatter, manifestDigest } from './checks/agent-skills.ts';
import { hasAuthMdHeading } from './checks/auth-md.ts';
import { isAgentLink, parseLinkHeader } from './checks/link-headers.ts';
import { contentSignalProblem, parseRobots } from './checks/robots.ts';
import { sitemapProblem } from './checks/sitemap.ts';

describe('parseRobots (RFC 9309 groups)', () => {
  it('groups consecutive User-agent lines, keeps Sitemap global, ignores comments and case', () => {
    const parsed = parseRobots(
      '# hi\nContent-Signal: search=yes\nUser-agent: *\nDisallow: /x # private\n\nuser-agent: GPTBot\nUSER-AGENT: CCBot\nAllow: /\nSitemap: https://a.example/s.xml\nUser-agent: Other\r\nDisallow: /\n',
    );
    expect(parsed.groups.map((g) => g.userAgents)).toEqual([['*'], ['gptbot', 'ccbot'], ['other']]);
    expect(parsed.groups[0]!.rules).toEqual([{ name: 'disallow', value: '/x', line: 4 }]);
    expect(parsed.sitemaps).toEqual(['https://a.example/s.xml']);
    expect(parsed.orphanRules).toEqual([{ name: 'content-signal', value: 'search=yes', line: 2 }]);
  });
});

describe('contentSignalProblem', () => {
  it.each([
    ['ai-train=yes, search=yes, ai-input=yes', null],
    ['search=no', null],
    ['AI-Train=No', null],
    ['', 'is empty'],
    ['ai-train', 'has "ai-train" (expected key=yes|no)'],
    ['ai-training=yes', 'has unknown key "ai-training" (known: search, ai-input, ai-train)'],
    ['search=maybe', 'has search=maybe (expected yes or no)'],
    ['search=yes, search=no', 'repeats search'],
  ])('%j → %s', (value, problem) => {
    expect(contentSignalProblem(value)).toBe(problem);
  });
});

describe('parseLinkHeader (RFC 8288)', () => {
  it('splits on commas outside <> and quotes, unquotes values, lower-cases rels, keeps the first of a repeated parameter', () => {
    const { links, invalid } = parseLinkHeader(
      '</a,b>; rel="service-desc"; type="application/json", </c>; rel="Alternate describedby"; title="x, y"; rel=ignored, <https://x.example/d>;rel=api-catalog',
    );
    expect(invalid).toEqual([]);
    expect(links).toEqual([
      { href: '/a,b', rels: ['service-desc'], params: { rel: 'service-desc', type: 'application/json' } },
      { href: '/c', rels: ['alternate', 'describedby'], params: { rel: 'Alternate describedby', title: 'x, y' } },
      { href: 'https://x.example/d', rels: ['api-catalog'], params: { rel: 'api-catalog' } },
    ]);
  });

  it('reports link-values without a <target>', () => {
    expect(parseLinkHeader('/x; rel=service-doc, </y>; rel=service-doc').invalid).toEqual(['/x; rel=service-doc']);
  });

  it('counts alternate only with a text type, and never sitemap', () => {
    const [md, html, sitemap] = parseLinkHeader(
      '</i.md>; rel=alternate; type="text/markdown; charset=utf-8", </fr>; rel=alternate; type=text/html, </s.xml>; rel=sitemap',
    ).links;
    expect([md, html, sitemap].map((l) => isAgentLink(l!))).toEqual([true, false, false]);
  });
});

describe('hasAuthMdHeading', () => {
  it.each([
    ['# auth.md\n', true],
    ['intro\n\n#  Agent access (auth.md)\n', true],
    ['# AUTH.MD', true],
    ['## auth.md\n', false],
    ['auth.md\n=======\n', false],
    ['#auth.md\n', false],
    ['```\n# auth.md\n```\n', false],
    ['~~~~md\n```\n# auth.md\n~~~~\n# Title\n', false],
    ['```\ncode\n```\n# auth.md\n', true],
  ])('%j → %s', (markdown, expected) => {
    expect(hasAuthMdHeading(markdown)).toBe(expected);
  });
});

describe('skills', () => {
  it('reads front matter name and description', () => {
    expect(frontMatter('---\nname: "a-b"\ndescription: Does x.\n---\n# A\n')).toEqual({ name: 'a-b', description: 'Does x.' });
    expect(frontMatter('# no front matter\nname: x\n')).toBeNull();
  });

  it('computes the RFC worked example of the skill-level digest', async () => {
    const digest = await manifestDigest([
      { path: 'scripts/run.sh', hex: 'a8076d3d28d21e02012b20eaf7dbf75409a6277134439025f282e368e3305abf' },
      { path: 'SKILL.md', hex: '90f8ec5669cd34183b9b0fdf8b94f5efb4c3672876330f4aa76088c2b4ad17be' },
    ]);
    expect(digest).toBe('34f7a8c484e9991f3e71a309f31332d6335efc01f544105c4185a7c4ab12eb1e');
  });
});

describe('sitemapProblem', () => {
  it('accepts urlset and sitemapindex in the sitemaps namespace', () => {
    expect(
      sitemapProblem('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/</loc></url></urlset>'),
    ).toEqual({ kind: 'urlset', count: 1 });
    expect(
      sitemapProblem(
        '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://a.example/s1.xml</loc></sitemap><sitemap><loc>https://a.example/s2.xml</loc></sitemap></sitemapindex>',
      ),
    ).toEqual({ kind: 'sitemapindex', count: 2 });
  });

  it.each([
    ['<urlset><url><loc>https://a.example/</loc></url></urlset>', /not in the .* namespace/],
    ['<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>', /lists no entries/],
    ['<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>/relative</loc></url></urlset>', /no absolute <loc>/],
    ['<!doctype html><html></html>', /not well-formed XML/],
  ])('%s fails', (xml, reason) => {
    expect(sitemapProblem(xml)).toMatch(reason);
  });

  it("fails a document nested past the parser's limit (200,000 levels) instead of throwing", () => {
    const deep = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${'<a>'.repeat(200_000)}${'</a>'.repeat(200_000)}</urlset>`;
    expect(sitemapProblem(deep)).toBe('not a sitemap XML parsers read (Maximum nested tags exceeded)');
  });
});
