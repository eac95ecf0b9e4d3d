/**
 * The MCP server card through the real runtime (docs/reference/mcp-oauth.md §10 E1; docs/reference/agent-discovery.md §4 items
 * 10–12): one card at three paths, consistent with what `POST /mcp` says about itself.
 */
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { InitializeResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { SERVER_CAPABILITIES } from '../../src/core/mcp/server-info.ts';
import { TEST_ORIGIN } from '../support/origin.ts';
import { useRuntime } from '../support/runtime.ts';

const site = useRuntime();
const WELL_KNOWN = ['/.well-known/mcp/server-card.json', '/.well-known/mcp.json'];
const PATHS = [...WELL_KNOWN, '/mcp/server-card'];
const schema = JSON.parse(readFileSync(new URL('../fixtures/server-card.schema.json', import.meta.url), 'utf8'));
// Formats are checked below with URL parsing (ajv-formats is not a dependency of this project).
const validate = new Ajv2020({ strict: true, validateFormats: false, allErrors: true }).compile(schema);

/** A raw JSON-RPC POST to /mcp; its result is of type T. */
async function rpc<T>(body: unknown, headers: Record<string, string> = {}): Promise<T> {
  const res = await site.fetchPath('/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return (await res.json()).result;
}

describe('MCP server card', () => {
  it('is the same JSON at all three paths, with the media type of each', async () => {
    const texts: string[] = [];
    for (const path of PATHS) {
      const res = await site.fetchPath(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toBe(
        path === '/mcp/server-card' ? 'application/mcp-server-card+json' : 'application/json',
      );
      texts.push(await res.text());
    }
    expect(new Set(texts).size).toBe(1);
    expect(() => JSON.parse(texts[0]!)).not.toThrow();
  });

  it('validates against the v1 card schema and carries the scanner fields', async () => {
    const card = await (await site.fetchPath('/.well-known/mcp/server-card.json')).json();
    expect(validate(card), JSON.stringify(validate.errors)).toBe(true);
    expect(new URL(card.websiteUrl).origin).toBe(TEST_ORIGIN);
    expect(card.remotes[0]).toMatchObject({ type: 'streamable-http', url: `${TEST_ORIGIN}/mcp` });
    expect(card.serverInfo).toMatchObject({ name: card.name, version: card.version });
    expect(card.transport).toEqual({ type: 'streamable-http', endpoint: `${TEST_ORIGIN}/mcp` });
    expect(card.endpoint).toBe(`${TEST_ORIGIN}/mcp`);
    expect(card.capabilities).toEqual(SERVER_CAPABILITIES);
    expect(card.authentication.resourceMetadata).toBe(`${TEST_ORIGIN}/.well-known/oauth-protected-resource/mcp`);
  });

  it('agrees with initialize (legacy) and server/discover (2026-07-28)', async () => {
    const card = await (await site.fetchPath('/mcp/server-card')).json();
    const init = await rpc<InitializeResult>({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    expect(init.serverInfo.name).toBe(card.name);
    expect(init.serverInfo.version).toBe(card.version);
    expect(init.serverInfo).toEqual(card.serverInfo);
    expect(init.capabilities).toEqual(card.capabilities);
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
    const discover = await rpc<{ supportedVersions: string[]; _meta: Record<string, unknown> }>(
      { jsonrpc: '2.0', id: 2, method: 'server/discover', params: { _meta: meta } },
      { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover' },
    );
    expect(card.remotes[0].supportedProtocolVersions).toEqual(discover.supportedVersions);
    expect(discover._meta['io.modelcontextprotocol/serverInfo']).toEqual(card.serverInfo);
  });

  it('CORS, caching, strong ETag and If-None-Match -> 304 on every path', async () => {
    for (const path of PATHS) {
      const res = await site.fetchPath(path);
      const etag = res.headers.get('etag');
      expect(etag, path).toMatch(/^"[^"]+"$/);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-allow-methods')).toBe('GET, HEAD, OPTIONS');
      expect(res.headers.get('access-control-expose-headers')).toBe('ETag, Link');
      expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
      const cached = await site.fetchPath(path, { headers: { 'if-none-match': etag! } });
      expect(cached.status, path).toBe(304);
      expect(await cached.text()).toBe('');
    }
  });

  it('HEAD, OPTIONS and 405 for writes', async () => {
    const head = await site.fetchPath('/mcp/server-card', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('etag')).toBeTruthy();
    const pre = await site.fetchPath('/mcp/server-card', {
      method: 'OPTIONS',
      headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'GET' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
    const post = await site.fetchPath('/.well-known/mcp.json', { method: 'POST', body: '{}' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });

  it('GET /mcp stays 405 (never the card); /mcp/server-card is not the MCP endpoint', async () => {
    const res = await site.fetchPath('/mcp');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    const body = await res.json();
    expect(body.jsonrpc).toBe('2.0');
    expect(body).not.toHaveProperty('$schema');
    const unknown = await site.fetchPath('/mcp/server-cards');
    expect(unknown.status).toBe(404);
  });
});

describe('MCP Registry server.json', () => {
  const validateServerJson = new Ajv({ strict: true, validateFormats: false, allErrors: true }).compile(
    JSON.parse(readFileSync(new URL('../fixtures/server-json.schema.json', import.meta.url), 'utf8')),
  );

  it("is served per deploy, valid, and names the card's remote and version", async () => {
    const res = await site.fetchPath('/.well-known/mcp/server.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.headers.get('etag')).toBeTruthy();
    const doc = await res.json();
    expect(validateServerJson(doc), JSON.stringify(validateServerJson.errors)).toBe(true);
    const card = await (await site.fetchPath('/mcp/server-card')).json();
    expect(doc).toMatchObject({
      version: card.version,
      description: card.description,
      title: card.title,
      remotes: [{ type: 'streamable-http', url: `${TEST_ORIGIN}/mcp` }],
    });
    expect(doc.name).toBe(`localhost/${card.name.split('/')[1]}`);
  });
});
