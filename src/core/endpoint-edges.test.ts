/**
 * Every function endpoint answers OPTIONS at its edge (kernel/handler.ts), as the published OpenAPI
 * promises ("Every endpoint answers OPTIONS with 204 and `Allow`"): 204, `Allow` naming its
 * methods, the CORS preflight where it has a policy, and the handler never runs. The table names
 * the edge each adapter in netlify/functions states, and the adapters are checked to state it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURE_DEPS, FIXTURE_ORIGIN } from '../../tests/support/core-fixtures.ts';
import { a2aEdge } from './a2a/server.ts';
import { OPS_EDGE } from './analytics/ops.ts';
import { CONTACT_EDGE } from './contact/contact.ts';
import { FEEDBACK_EDGE } from './feedback/feedback.ts';
import { HEALTH_EDGE } from './health/health.ts';
import { type EdgeOptions, httpHandler } from './kernel/handler.ts';
import { notFound, problemResponse } from './kernel/problem.ts';
import { MCP_DOCUMENT_EDGE } from './mcp/server-card.ts';
import { mcpEdge } from './mcp/server.ts';
import { AUTHORIZE_EDGE } from './oauth/endpoints/authorize.ts';
import { claimRoutes } from './oauth/endpoints/claim.ts';
import { OAUTH_METADATA_EDGE } from './oauth/endpoints/metadata.ts';
import { OAUTH_ENDPOINT_EDGE } from './oauth/errors.ts';
import { DISCOVERY_EDGE } from './publish/documents.ts';
import { OG_IMAGE_EDGE } from './publish/og-card.ts';
import { SEARCH_EDGE } from './search/api.ts';
import { TWEETS_EDGE } from './tweets/tweets.ts';
import { SIGNATURES_DIRECTORY_EDGE } from './web-bot-auth/directory.ts';

const FUNCTIONS = path.resolve(import.meta.dirname, '../../netlify/functions');
const AGENT = 'https://agent.example';

/** A handler that must not run: OPTIONS is the edge's. */
const unreachable = (): never => {
  throw new Error('the handler ran for OPTIONS');
};

type Cors = 'none' | 'any origin' | 'echoed';
/** adapter, path, the edge it states (its name in the adapter), the edge, Allow, CORS. */
const ENDPOINTS: [string, string, string, EdgeOptions, string, Cors][] = [
  ['api-contact.mts', '/api/contact', 'CONTACT_EDGE', CONTACT_EDGE, 'POST, OPTIONS', 'none'],
  ['api-feedback.mts', '/api/feedback', 'FEEDBACK_EDGE', FEEDBACK_EDGE, 'POST, OPTIONS', 'none'],
  ['api-search.mts', '/api/search', 'SEARCH_EDGE', SEARCH_EDGE, 'GET, HEAD, OPTIONS', 'any origin'],
  ['api-tweets.mts', '/api/tweets', 'TWEETS_EDGE', TWEETS_EDGE, 'GET, HEAD, OPTIONS', 'any origin'],
  ['health.mts', '/health', 'HEALTH_EDGE', HEALTH_EDGE, 'GET, HEAD, OPTIONS', 'none'],
  ['ops.mts', '/ops/', 'OPS_EDGE', OPS_EDGE, 'GET, HEAD, OPTIONS', 'none'],
  ['og-image.mts', '/og/blog/a.png', 'OG_IMAGE_EDGE', OG_IMAGE_EDGE, 'GET, HEAD, OPTIONS', 'none'],
  ['discovery.mts', '/.well-known/agent-card.json', 'DISCOVERY_EDGE', DISCOVERY_EDGE, 'GET, HEAD, OPTIONS', 'any origin'],
  [
    'http-message-signatures-directory.mts',
    '/.well-known/http-message-signatures-directory',
    'SIGNATURES_DIRECTORY_EDGE',
    SIGNATURES_DIRECTORY_EDGE,
    'GET, HEAD, OPTIONS',
    'any origin',
  ],
  ['mcp-server-card.mts', '/.well-known/mcp/server-card.json', 'MCP_DOCUMENT_EDGE', MCP_DOCUMENT_EDGE, 'GET, HEAD, OPTIONS', 'any origin'],
  ['oauth-metadata.mts', '/oauth/jwks.json', 'OAUTH_METADATA_EDGE', OAUTH_METADATA_EDGE, 'GET, HEAD, OPTIONS', 'any origin'],
  ['oauth-register.mts', '/oauth/register', 'OAUTH_ENDPOINT_EDGE', OAUTH_ENDPOINT_EDGE, 'POST, OPTIONS', 'any origin'],
  ['oauth-token.mts', '/oauth/token', 'OAUTH_ENDPOINT_EDGE', OAUTH_ENDPOINT_EDGE, 'POST, OPTIONS', 'any origin'],
  ['oauth-revoke.mts', '/oauth/revoke', 'OAUTH_ENDPOINT_EDGE', OAUTH_ENDPOINT_EDGE, 'POST, OPTIONS', 'any origin'],
  ['oauth-authorize.mts', '/oauth/authorize', 'AUTHORIZE_EDGE', AUTHORIZE_EDGE, 'GET, HEAD, POST, OPTIONS', 'none'],
  ['mcp.mts', '/mcp', 'mcpEdge', mcpEdge(FIXTURE_DEPS), 'POST, OPTIONS', 'echoed'],
  ['a2a.mts', '/a2a', 'a2aEdge', a2aEdge(FIXTURE_DEPS), 'POST, OPTIONS', 'echoed'],
];

const preflight = (pathname: string) =>
  new Request(`${FIXTURE_ORIGIN}${pathname}`, {
    method: 'OPTIONS',
    headers: { origin: AGENT, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
  });

function expectPreflight(res: Response, allow: string, cors: Cors): void {
  expect(res.status).toBe(204);
  expect(res.headers.get('allow')).toBe(allow);
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  const allowOrigin = res.headers.get('access-control-allow-origin');
  if (cors === 'none') {
    expect(allowOrigin).toBeNull();
    expect(res.headers.get('access-control-allow-methods')).toBeNull();
    return;
  }
  expect(allowOrigin).toBe(cors === 'echoed' ? AGENT : '*');
  expect(res.headers.get('access-control-allow-methods')).toBe(allow);
  expect(res.headers.get('access-control-allow-headers')).toMatch(/Content-Type/);
  expect(res.headers.get('access-control-max-age')).toBe('86400');
}

describe('OPTIONS on every function endpoint', () => {
  it.each(ENDPOINTS)('%s (%s): 204 at the edge it states, %s', async (_adapter, pathname, _name, options, allow, cors) => {
    expectPreflight(await httpHandler(unreachable, options)(preflight(pathname)), allow, cors);
  });

  it.each([
    ['/oauth/claim', 'POST, OPTIONS', 'any origin'],
    ['/oauth/claim/verify', 'GET, HEAD, POST, OPTIONS', 'none'],
  ] as const)('oauth-claim.mts (%s): each route of the claim ceremony at its own edge', async (pathname, allow, cors) => {
    expectPreflight(await httpHandler(claimRoutes(unreachable))(preflight(pathname)), allow, cors);
  });

  it('a JSON-RPC endpoint leaves the preflight of an origin its guard refuses to the guard (403)', async () => {
    const strict = { ...FIXTURE_DEPS, browserOrigins: { kind: 'listed' as const, origins: [] } };
    let reached = 0;
    const res = await httpHandler(() => {
      reached++;
      return new Response(null, { status: 403 });
    }, mcpEdge(strict))(preflight('/mcp'));
    expect(reached).toBe(1);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('a route that is no endpoint (the /api catch-all) answers OPTIONS like any method: its 404', async () => {
    const res = await httpHandler((req: Request) => problemResponse(notFound('No such endpoint.'), new URL(req.url).pathname))(
      preflight('/api/nope'),
    );
    expect(res.status).toBe(404);
  });

  it('every function adapter states the edge of its row (or is the catch-all 404)', () => {
    const adapters = readdirSync(FUNCTIONS).filter(
      (f) => f.endsWith('.mts') && readFileSync(path.join(FUNCTIONS, f), 'utf8').includes('httpHandler('),
    );
    const rows = new Map<string, string[]>([
      ...ENDPOINTS.map(([adapter, , name]) => [adapter, [name]] as [string, string[]]),
      ['oauth-claim.mts', ['claimRoutes']],
    ]);
    expect(adapters.filter((f) => f !== 'api-not-found.mts').sort()).toEqual([...rows.keys()].sort());
    for (const [adapter, names] of rows) {
      const source = readFileSync(path.join(FUNCTIONS, adapter), 'utf8');
      for (const name of names) expect(source, adapter).toMatch(new RegExp(`\\b${name}\\b`));
    }
  });
});
