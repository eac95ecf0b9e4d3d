import { edge, httpHandler } from '../kernel/handler.ts';
import { describe, expect, it } from 'vitest';
import {
  handleServerCard,
  MCP_DOCUMENT_EDGE,
  SERVER_CARD_MEDIA_TYPE,
  SERVER_CARD_PATHS,
  SERVER_CARD_SCHEMA_URL,
  serverCard,
} from './server-card.ts';
import { SERVER_CAPABILITIES, SUPPORTED_PROTOCOL_VERSIONS } from './server-info.ts';
import { serverIdentity } from '../agent-tools/identity.ts';

const ORIGIN = 'https://acme-ai.example';
const SITE_NAME = 'Example AI';
const SERVER_NAME = serverIdentity(SITE_NAME).name;
const deps = { origin: ORIGIN, version: '1.2.3', siteName: SITE_NAME };
/** A request through the card's edge (OPTIONS and CORS are the edge's: kernel/handler.ts). */
const get = (path: string, init: RequestInit = {}) =>
  edge((req: Request) => handleServerCard(req, deps), MCP_DOCUMENT_EDGE)(new Request(`${ORIGIN}${path}`, init));

describe('serverCard', () => {
  const card = serverCard(ORIGIN, '1.2.3', SITE_NAME);

  it('has the v1 required fields within their limits', () => {
    expect(card.$schema).toBe(SERVER_CARD_SCHEMA_URL);
    expect(card.name).toMatch(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/);
    expect(card.version).toBe('1.2.3');
    expect(card.description.length).toBeGreaterThanOrEqual(1);
    expect(card.description.length).toBeLessThanOrEqual(100);
    expect(card.title.length).toBeLessThanOrEqual(100);
  });

  it('points every transport field at <origin>/mcp and agrees with server-info', () => {
    expect(card.remotes).toEqual([
      { type: 'streamable-http', url: `${ORIGIN}/mcp`, supportedProtocolVersions: [...SUPPORTED_PROTOCOL_VERSIONS] },
    ]);
    expect(card.transport).toEqual({ type: 'streamable-http', endpoint: `${ORIGIN}/mcp` });
    expect(card.endpoint).toBe(`${ORIGIN}/mcp`);
    expect(card.serverInfo).toMatchObject({ name: SERVER_NAME, version: '1.2.3' });
    expect(card.capabilities).toEqual(SERVER_CAPABILITIES);
    expect(card.authentication.resourceMetadata).toBe(`${ORIGIN}/.well-known/oauth-protected-resource/mcp`);
  });
});

describe('handleServerCard', () => {
  it('serves identical bytes at every path; media type by path', async () => {
    const bodies = new Set<string>();
    for (const path of SERVER_CARD_PATHS) {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(path === '/mcp/server-card' ? SERVER_CARD_MEDIA_TYPE : 'application/json');
      bodies.add(await res.text());
    }
    expect(bodies.size).toBe(1);
  });

  it('sends CORS, cache and a strong ETag; If-None-Match (strong, weak, list, *) -> 304', async () => {
    const res = await get('/mcp/server-card');
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, HEAD, OPTIONS');
    expect(res.headers.get('access-control-expose-headers')).toBe('ETag, Link');
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
    for (const inm of [etag, `W/${etag}`, `"nope", ${etag}`, '*']) {
      const cached = await get('/mcp/server-card', { headers: { 'if-none-match': inm } });
      expect(cached.status).toBe(304);
      expect(cached.headers.get('etag')).toBe(etag);
      expect(await cached.text()).toBe('');
    }
    expect((await get('/mcp/server-card', { headers: { 'if-none-match': '"other"' } })).status).toBe(200);
  });

  it('HEAD (through the edge) has the headers of GET; OPTIONS 204; other methods 405 with Allow', async () => {
    const head = await httpHandler(
      (req: Request) => handleServerCard(req, deps),
      MCP_DOCUMENT_EDGE,
    )(new Request(`${ORIGIN}/.well-known/mcp.json`, { method: 'HEAD' }));
    expect(head.status).toBe(200);
    expect(head.headers.get('etag')).toBe((await get('/.well-known/mcp.json')).headers.get('etag'));
    const pre = await get('/mcp/server-card', { method: 'OPTIONS' });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const res = await get('/mcp/server-card', { method });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    }
  });
});

describe('serverIdentity', () => {
  it('derives every brand string from the company name, within the card limits', () => {
    const identity = serverIdentity('Nimbus Systems');
    expect(identity.name).toBe('nimbus-systems/site');
    expect(identity.title).toBe('Nimbus Systems site');
    expect(identity.description).toContain('Nimbus Systems');
    expect(identity.instructions).toContain('Nimbus Systems');
    expect(serverIdentity('艾克米').name).toMatch(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/);
    expect(serverIdentity('X'.repeat(120)).description.length).toBeLessThanOrEqual(100);
  });
});
