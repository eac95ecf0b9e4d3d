import { describe, expect, it } from 'vitest';
import {
  cacheLifetimeSeconds,
  CLIENT_METADATA_DEFAULT_CACHE_SECONDS,
  CLIENT_METADATA_MAX_CACHE_SECONDS,
  ClientMetadataResolver,
  clientFromDocument,
  clientIdUrlProblem,
  type FetchedDocument,
} from './client-metadata-document.ts';

const URL_ID = 'https://app.example/oauth/client.json';
const T0 = 1_800_000_000;
const doc = (over: Record<string, unknown> = {}): FetchedDocument => ({
  status: 200,
  contentType: 'application/json; charset=utf-8',
  cacheControl: 'max-age=600',
  body: JSON.stringify({
    client_id: URL_ID,
    client_name: 'Example App',
    redirect_uris: ['http://127.0.0.1:33418/cb'],
    grant_types: ['authorization_code', 'refresh_token'],
    ...over,
  }),
});

describe('clientIdUrlProblem', () => {
  it.each([
    ['https://app.example/client.json', 'https://site.example', null],
    ['http://127.0.0.1:9000/client.json', 'http://localhost:8899', null],
    ['http://localhost:9000/client.json', 'http://localhost:8899', null],
    ['https://127.0.0.1:9000/client.json', 'http://localhost:8899', null],
    // Accepted as a URL; the fetcher then refuses the loopback address off a loopback origin.
    ['https://localhost:9000/client.json', 'https://site.example', null],
    ['http://127.0.0.1:9000/client.json', 'https://site.example', /https/],
    ['http://app.example/client.json', 'http://localhost:8899', /https/],
    ['https://app.example/', 'https://site.example', /path/],
    ['https://app.example', 'https://site.example', /canonical/],
    ['https://app.example/c.json#x', 'https://site.example', /fragment/],
    ['https://u@app.example/c.json', 'https://site.example', /userinfo/],
    ['https://app.example/a/../c.json', 'https://site.example', /canonical/],
  ])('%s for a server at %s', (id, issuer, expected) => {
    const problem = clientIdUrlProblem(id, issuer);
    if (expected === null) expect(problem).toBeNull();
    else expect(problem).toMatch(expected);
  });
});

describe('clientFromDocument', () => {
  it('builds a public client whose redirect URIs come from the document', () => {
    const client = clientFromDocument(URL_ID, doc(), T0);
    expect(client).toMatchObject({
      client_id: URL_ID,
      client_name: 'Example App',
      token_endpoint_auth_method: 'none',
      client_secret_sha256: null,
      registration_type: 'metadata_document',
      redirect_uris: ['http://127.0.0.1:33418/cb'],
      grant_types: ['authorization_code', 'refresh_token'],
      scope: ['articles:read', 'content:export'],
    });
  });

  it.each([
    [
      'a client_id other than its URL',
      { client: doc({ client_id: 'https://evil.example/client.json' }) },
      /client_id is not exactly its URL/,
    ],
    ['a secret', { client: doc({ client_secret: 'x' }) }, /client_secret/],
    ['private_key_jwt', { client: doc({ token_endpoint_auth_method: 'private_key_jwt' }) }, /not supported/],
    ['client_credentials', { client: doc({ grant_types: ['client_credentials'] }) }, /grant_types/],
    ['no redirect_uris', { client: doc({ redirect_uris: [] }) }, /redirect_uris/],
    ['a bad redirect URI', { client: doc({ redirect_uris: ['http://evil.example/cb'] }) }, /redirect_uri/],
    ['a bidi override in the name', { client: doc({ client_name: 'App\u202E' }) }, /client_name/],
    ['HTTP 404', { client: { ...doc(), status: 404 } }, /HTTP 404/],
    ['HTML', { client: { ...doc(), contentType: 'text/html' } }, /Content-Type/],
    ['not JSON', { client: { ...doc(), body: '<html>' } }, /JSON object/],
  ])('refuses %s with invalid_client', (_name, { client }, why) => {
    expect(() => clientFromDocument(URL_ID, client, T0)).toThrow(why);
    try {
      clientFromDocument(URL_ID, client, T0);
    } catch (error) {
      expect(error).toMatchObject({ code: 'invalid_client' });
    }
  });
});

describe('caching', () => {
  it('follows Cache-Control, capped, with a default', () => {
    expect(cacheLifetimeSeconds('public, max-age=600')).toBe(600);
    expect(cacheLifetimeSeconds('max-age=99999999')).toBe(CLIENT_METADATA_MAX_CACHE_SECONDS);
    expect(cacheLifetimeSeconds('no-store')).toBe(0);
    expect(cacheLifetimeSeconds('no-cache, max-age=60')).toBe(0);
    expect(cacheLifetimeSeconds(null)).toBe(CLIENT_METADATA_DEFAULT_CACHE_SECONDS);
  });

  it('the resolver reuses a document while its lifetime lasts, then fetches again; no-store is never kept', async () => {
    let fetches = 0;
    let cacheControl = 'max-age=60';
    const resolver = new ClientMetadataResolver(async () => {
      fetches++;
      return { ...doc(), cacheControl };
    }, 'https://site.example');
    await resolver.resolve(URL_ID, T0);
    await resolver.resolve(URL_ID, T0 + 59);
    expect(fetches).toBe(1);
    await resolver.resolve(URL_ID, T0 + 60);
    expect(fetches).toBe(2);
    cacheControl = 'no-store';
    await resolver.resolve(URL_ID, T0 + 200);
    await resolver.resolve(URL_ID, T0 + 201);
    expect(fetches).toBe(4);
  });

  it('a refused fetch is invalid_client naming the reason, and is not cached', async () => {
    let attempts = 0;
    const resolver = new ClientMetadataResolver(async () => {
      attempts++;
      throw new Error('the address 10.0.0.1 is not public');
    }, 'https://site.example');
    await expect(resolver.resolve(URL_ID, T0)).rejects.toMatchObject({
      code: 'invalid_client',
      message: expect.stringContaining('10.0.0.1 is not public'),
    });
    await expect(resolver.resolve(URL_ID, T0)).rejects.toMatchObject({ code: 'invalid_client' });
    expect(attempts).toBe(2);
    await expect(resolver.resolve('http://app.example/c.json', T0)).rejects.toMatchObject({ message: expect.stringContaining('https') });
    expect(attempts).toBe(2);
  });
});
