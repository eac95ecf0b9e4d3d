/** The Link header values every page carries (RFC 8288). */
import { describe, expect, it } from 'vitest';
import { DISCOVERY_LINKS, formatLinks, STATIC_DISCOVERY_PATHS } from './links.ts';

describe('discovery links', () => {
  it('serialise with rel and, when given, type', () => {
    expect(
      formatLinks([
        { href: '/a', rel: 'x' },
        { href: '/b', rel: 'y', type: 'text/plain' },
      ]),
    ).toEqual(['</a>; rel="x"', '</b>; rel="y"; type="text/plain"']);
  });

  it('name the catalogue, the API description and docs, llms.txt, the sitemap and the AI catalog', () => {
    expect(formatLinks(DISCOVERY_LINKS)).toEqual([
      '</.well-known/api-catalog>; rel="api-catalog"; type="application/linkset+json"',
      '</openapi.json>; rel="service-desc"; type="application/json"',
      '</docs/api>; rel="service-doc"; type="text/html"',
      '</llms.txt>; rel="describedby"; type="text/plain"',
      '</sitemap.xml>; rel="sitemap"; type="application/xml"',
      '</.well-known/ai-catalog.json>; rel="ai-catalog"; type="application/json"',
    ]);
    expect(STATIC_DISCOVERY_PATHS).toEqual(['/llms.txt', '/openapi.json', '/auth.md', '/robots.txt', '/sitemap.xml', '/sitemap.md']);
  });
});
