import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import {
  handleMcpDocument,
  handleServerJson,
  REGISTRY_SCHEMA_URL,
  registryServerJson,
  reverseDnsOf,
  SERVER_JSON_PATH,
} from './registry-server.ts';
import { serverCard } from './server-card.ts';

const ORIGIN = 'https://acme-ai.example';
const SITE_NAME = 'Example AI';
const schema = JSON.parse(readFileSync(new URL('../../../tests/fixtures/server-json.schema.json', import.meta.url), 'utf8'));
// Formats are checked with URL parsing below (ajv-formats is not a dependency).
const validate = new Ajv({ strict: true, validateFormats: false, allErrors: true }).compile(schema);

describe('registryServerJson', () => {
  const doc = registryServerJson(ORIGIN, '1.2.3', SITE_NAME);

  it('is valid against the 2025-12-11 subset schema (mcp-publisher is not on npm, so this is the offline check)', () => {
    expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
    expect(doc.$schema).toBe(REGISTRY_SCHEMA_URL);
    expect(() => new URL(doc.websiteUrl)).not.toThrow();
  });

  it('says what the server card says, under the namespace of the site domain', () => {
    const card = serverCard(ORIGIN, '1.2.3', SITE_NAME);
    expect(doc).toMatchObject({ title: card.title, description: card.description, version: card.version, websiteUrl: card.websiteUrl });
    expect(doc.name).toBe('example.acme-ai/site');
    expect(doc.remotes).toEqual([{ type: 'streamable-http', url: `${ORIGIN}/mcp` }]);
  });

  it.each([
    ['https://www.acme-ai.example', 'example.acme-ai.www'],
    ['http://localhost:8899', 'localhost'],
  ])('reverse DNS of %s is %s', (origin, reversed) => {
    expect(reverseDnsOf(origin)).toBe(reversed);
  });

  it('the subset schema refuses a version range and an unknown field', () => {
    expect(validate({ ...doc, version: '^1.2.3' })).toBe(false);
    expect(validate({ ...doc, extra: 1 })).toBe(false);
  });
});

describe('handleServerJson', () => {
  it(`GET ${SERVER_JSON_PATH} -> the document, cacheable, with an ETag that answers 304`, async () => {
    const deps = { origin: ORIGIN, version: '1.2.3', siteName: SITE_NAME };
    const res = await handleServerJson(new Request(`${ORIGIN}${SERVER_JSON_PATH}`), deps);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(await res.json()).toEqual(registryServerJson(ORIGIN, '1.2.3', SITE_NAME));
    const etag = res.headers.get('etag')!;
    const again = await handleServerJson(new Request(`${ORIGIN}${SERVER_JSON_PATH}`, { headers: { 'if-none-match': etag } }), deps);
    expect(again.status).toBe(304);
    expect((await handleServerJson(new Request(`${ORIGIN}${SERVER_JSON_PATH}`, { method: 'POST' }), deps)).status).toBe(405);
  });
});

describe('handleMcpDocument (the routes of mcp-server-card.mts)', () => {
  const deps = { origin: ORIGIN, version: '1.2.3', siteName: SITE_NAME };
  it.each([
    [SERVER_JSON_PATH, REGISTRY_SCHEMA_URL],
    ['/.well-known/mcp/server-card.json', undefined],
    ['/mcp/server-card', undefined],
  ])('%s', async (pathname, schemaUrl) => {
    const res = await handleMcpDocument(new Request(`${ORIGIN}${pathname}`), deps);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as Record<string, unknown>;
    if (schemaUrl) expect(doc.$schema).toBe(schemaUrl);
    else expect(doc).toEqual(serverCard(ORIGIN, '1.2.3', SITE_NAME));
  });
});
