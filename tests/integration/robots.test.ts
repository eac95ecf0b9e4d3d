/**
 * robots.txt lets agents do what the contract and the discovery documents tell them to: every
 * endpoint those name is allowed for `*` and for each named AI user agent, as robots-parser (the
 * parser agent frameworks use) reads the served file; only the pages a person uses (OAuth consent,
 * claim approval) are disallowed. The endpoints come from the documents themselves, fetched
 * through the real pipeline, so a new one is checked as soon as a document names it.
 */
import robotsParser from 'robots-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { AI_USER_AGENTS } from '../../src/core/publish/feeds.ts';
import { TEST_ORIGIN } from '../support/origin.ts';
import { useRuntime } from '../support/runtime.ts';

const site = useRuntime();

/** The endpoints of the public contract (its §1 and §4), as paths; `{slug}` filled with a real one below. */
const CONTRACT_PATHS = [
  '/api/search?q=agents',
  '/api/tweets',
  '/api/contact',
  '/health',
  '/mcp',
  '/oauth/register',
  '/oauth/token',
  '/oauth/revoke',
  '/oauth/claim',
  '/oauth/jwks.json',
  '/.well-known/oauth-protected-resource',
  '/.well-known/oauth-authorization-server',
  '/.well-known/mcp/server-card.json',
  '/.well-known/api-catalog',
  '/.well-known/ai-catalog.json',
  '/',
  '/blog',
  '/products',
  '/llms.txt',
  '/llms-full.txt',
  '/sitemap.xml',
  '/robots.txt',
  '/openapi.json',
  '/auth.md',
  '/docs/api',
];

/** The discovery documents an agent reads (JSON); every same-origin URL in them is an endpoint it may be sent to. */
const DISCOVERY_DOCUMENTS = [
  '/.well-known/oauth-authorization-server',
  '/.well-known/oauth-protected-resource',
  '/.well-known/oauth-protected-resource/mcp',
  '/.well-known/api-catalog',
  '/.well-known/ai-catalog.json',
  '/.well-known/agent-card.json',
  '/.well-known/agent-skills/index.json',
  '/.well-known/mcp/server-card.json',
  '/mcp/server-card',
  '/.well-known/mcp/server.json',
];

/** The pages only a person uses: a crawler has no business there. */
const HUMAN_PAGES = ['/oauth/authorize', '/oauth/authorize?client_id=agt_x&response_type=code', '/oauth/claim/verify'];

/** Every string in a JSON value. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

/** Same-origin URLs among `texts`, as paths with their query. */
function sameOriginPaths(texts: readonly string[]): string[] {
  return texts.flatMap((text) => {
    if (!text.startsWith(`${TEST_ORIGIN}/`) && text !== TEST_ORIGIN) return [];
    const url = new URL(text);
    return [url.pathname + url.search];
  });
}

let robots: ReturnType<typeof robotsParser>;
const named = new Set<string>();

beforeAll(async () => {
  robots = robotsParser(`${TEST_ORIGIN}/robots.txt`, await (await site.fetchPath('/robots.txt')).text());
  const slug = ((await (await site.fetchPath('/api/search?q=agents')).json()) as { url: string }[])[0]!.url;
  for (const path of [...CONTRACT_PATHS, new URL(slug).pathname]) named.add(path);
  for (const document of DISCOVERY_DOCUMENTS) {
    const res = await site.fetchPath(document);
    expect(res.status, document).toBe(200);
    for (const path of sameOriginPaths(strings(await res.json()))) named.add(path);
  }
  // llms.txt and the OpenAPI description name endpoints too: its links, and the servers' paths.
  const llms = await (await site.fetchPath('/llms.txt')).text();
  for (const path of sameOriginPaths([...llms.matchAll(/\]\((\S+?)\)/g)].map((m) => m[1]!))) named.add(path);
  const openapi = (await (await site.fetchPath('/openapi.json')).json()) as { paths: Record<string, unknown> };
  for (const path of Object.keys(openapi.paths)) named.add(path.replace(/\{[^}]+\}/g, 'x'));
});

const isHumanPage = (path: string): boolean => HUMAN_PAGES.some((page) => path.split('?')[0] === page.split('?')[0]);

describe('robots.txt and the agent endpoints', () => {
  it('finds the endpoints the contract and discovery documents name (a sanity floor)', () => {
    for (const path of ['/oauth/register', '/oauth/token', '/oauth/jwks.json', '/oauth/revoke', '/oauth/claim', '/mcp', '/a2a'])
      expect(named, path).toContain(path);
    expect(named.size).toBeGreaterThan(40);
  });

  it('allows every named endpoint for * and every named AI user agent, and an unnamed agent falls under *', () => {
    const agents = ['*', ...AI_USER_AGENTS, 'SomeFramework/1.0 (+https://agents.example)'];
    const refused: string[] = [];
    for (const path of named) {
      if (isHumanPage(path)) continue;
      for (const agent of agents) if (!robots.isAllowed(`${TEST_ORIGIN}${path}`, agent)) refused.push(`${agent} ${path}`);
    }
    expect(refused).toEqual([]);
  });

  it('keeps crawlers off the consent and claim pages only', () => {
    for (const agent of ['*', ...AI_USER_AGENTS])
      for (const page of HUMAN_PAGES) expect(robots.isDisallowed(`${TEST_ORIGIN}${page}`, agent), `${agent} ${page}`).toBe(true);
    // The discovery documents name the consent page (authorization_endpoint): it is the one they may name that stays closed.
    expect([...named].filter(isHumanPage)).toContain('/oauth/authorize');
  });
});
