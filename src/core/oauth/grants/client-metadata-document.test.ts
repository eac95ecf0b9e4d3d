import { beforeEach, describe, expect, it } from 'vitest';
import { memoryStore } from '../../kernel/memory-store.ts';
import type { Store } from '../../kernel/store.ts';
import {
  cacheLifetimeSeconds,
  CLIENT_METADATA_FAILURE_CACHE_SECONDS,
  CLIENT_METADATA_FETCHES_PER_HOST,
  CLIENT_METADATA_FETCHES_PER_NETWORK,
  type MetadataRequester,
  CLIENT_METADATA_DEFAULT_CACHE_SECONDS,
  CLIENT_METADATA_MAX_CACHE_SECONDS,
  type ClientMetadataFetcher,
  ClientMetadataResolver,
  clientFromDocument,
  clientIdUrlProblem,
  type FetchedDocument,
} from './client-metadata-document.ts';

const URL_ID = 'https://app.example/oauth/client.json';
let limits: Store;
beforeEach(() => {
  limits = memoryStore();
});
const requester = (over: Partial<MetadataRequester> = {}): MetadataRequester => ({
  network: async () => 'network-digest',
  requestOrigin: 'https://site.example',
  fromMetadataFetcher: false,
  ...over,
});
const resolverWith = (fetch: ClientMetadataFetcher, over: { log?: (line: string) => void } = {}) =>
  new ClientMetadataResolver({ fetch, issuer: 'https://site.example', limits: () => limits, ...over });
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
    ['a secret', { client: doc({ client_secret: 'x' }) }, /client_secret/],
    ['private_key_jwt', { client: doc({ token_endpoint_auth_method: 'private_key_jwt' }) }, /not supported/],
    ['client_credentials', { client: doc({ grant_types: ['client_credentials'] }) }, /grant_types/],
    ['no redirect_uris', { client: doc({ redirect_uris: [] }) }, /redirect_uris/],
    ['a bad redirect URI', { client: doc({ redirect_uris: ['http://evil.example/cb'] }) }, /redirect_uri/],
    ['a bidi override in the name', { client: doc({ client_name: 'App\u202E' }) }, /client_name/],
    ['a zero-width space in the name', { client: doc({ client_name: 'Claude\u200B Code' }) }, /client_name/],
    ['Unicode tag characters in the name', { client: doc({ client_name: 'App\u{E0041}\u{E0042}' }) }, /client_name/],
    ['a line separator in the name', { client: doc({ client_name: 'App\u2028Approved by admin' }) }, /client_name/],
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
    const resolver = resolverWith(async () => {
      fetches++;
      return { ...doc(), cacheControl };
    });
    await resolver.resolve(URL_ID, T0, requester());
    await resolver.resolve(URL_ID, T0 + 59, requester());
    expect(fetches).toBe(1);
    await resolver.resolve(URL_ID, T0 + 60, requester());
    expect(fetches).toBe(2);
    cacheControl = 'no-store';
    await resolver.resolve(URL_ID, T0 + 200, requester());
    await resolver.resolve(URL_ID, T0 + 201, requester());
    expect(fetches).toBe(4);
  });
});

describe('the resolver as a stranger meets it', () => {
  it('a refused fetch says only that the document could not be fetched; the detail is logged under the reference', async () => {
    const logged: string[] = [];
    const resolver = resolverWith(
      async () => {
        throw new Error('connect ECONNREFUSED 127.0.0.1:22');
      },
      { log: (line) => logged.push(line) },
    );
    const error = await resolver.resolve('https://localhost:22/x', T0, requester()).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'invalid_client', status: 401 });
    const message = (error as Error).message;
    expect(message).toMatch(/could not be fetched \(reference [0-9a-f-]{36}\)/);
    expect(message).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|22\b(?!\/x)/);
    const reference = /reference ([0-9a-f-]{36})/.exec(message)![1]!;
    expect(logged).toEqual([expect.stringContaining(reference)]);
    expect(logged[0]).toContain('ECONNREFUSED');
  });

  it.each([
    ['a refused connection', async () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:22')), 'could not be fetched'],
    ['a TLS error', async () => Promise.reject(new Error('wrong version number')), 'could not be fetched'],
    ['a timeout', async () => Promise.reject(new Error('no answer within 3000 ms')), 'could not be fetched'],
    ['an address refused by the fetcher', async () => Promise.reject(new Error('intranet resolves to 10.0.0.1')), 'could not be fetched'],
    ['HTTP 404', async () => ({ ...doc(), status: 404 }), 'could not be fetched'],
    ['HTTP 500', async () => ({ ...doc(), status: 500 }), 'could not be fetched'],
    ['HTML', async () => ({ ...doc(), contentType: 'text/html' }), 'is not a JSON document'],
    ['a JSON array', async () => ({ ...doc(), body: '[1]' }), 'is not a JSON document'],
    ["someone else's JSON", async () => doc({ client_id: 'https://other.example/x' }), 'client_id is not exactly its URL'],
  ] as const)('%s gets a fixed phrase and nothing else', async (_name, fetch, phrase) => {
    const resolver = resolverWith(fetch as () => Promise<FetchedDocument>, { log: () => {} });
    const message = String(
      await resolver.resolve(URL_ID, T0, requester()).then(
        () => 'resolved',
        (e: Error) => e.message,
      ),
    );
    const escaped = URL_ID.replace(/[.?/]/g, '\\$&');
    expect(message).toMatch(
      new RegExp(`^The client metadata document at ${escaped} cannot be used: (?:its? )?${phrase} \\(reference [0-9a-f-]{36}\\)\\.$`),
    );
  });

  it('a document that names itself may be told exactly which field to fix', async () => {
    const resolver = resolverWith(async () => doc({ redirect_uris: ['http://evil.example/cb'] }));
    await expect(resolver.resolve(URL_ID, T0, requester())).rejects.toThrow(/redirect_uri "http:\/\/evil\.example\/cb"/);
  });

  it('failures are cached for a minute: 17 identical requests make one fetch', async () => {
    let fetches = 0;
    const resolver = resolverWith(
      async () => {
        fetches++;
        throw new Error('connect ECONNREFUSED');
      },
      { log: () => {} },
    );
    const answers = new Set<string>();
    for (let i = 0; i < 17; i++) answers.add(String(await resolver.resolve(URL_ID, T0 + i, requester()).catch((e: Error) => e.message)));
    expect(fetches).toBe(1);
    expect(answers.size).toBe(1);
    await resolver.resolve(URL_ID, T0 + CLIENT_METADATA_FAILURE_CACHE_SECONDS, requester()).catch(() => {});
    expect(fetches).toBe(2);
  });

  it.each([
    ['the issuer', 'https://site.example/oauth/authorize?client_id=x', {}],
    ['the issuer on its explicit port', 'https://site.example:443/c.json', {}],
    ['the origin the request came in on', 'https://acme.netlify.app/oauth/authorize', { requestOrigin: 'https://acme.netlify.app' }],
    [
      'a deploy URL of the site',
      'https://deploy-preview-4--acme.netlify.app/c.json',
      { isOwnHost: (h: string) => h.endsWith('--acme.netlify.app') },
    ],
  ])('refuses a URL on %s without fetching', async (_name, clientId, over) => {
    let fetches = 0;
    const resolver = resolverWith(async () => {
      fetches++;
      return doc();
    });
    await expect(resolver.resolve(clientId.replace(':443', ''), T0, requester(over))).rejects.toMatchObject({
      code: 'invalid_client',
      message: 'A URL client_id must not point at this site itself.',
    });
    expect(fetches).toBe(0);
  });

  it('a loopback site, asked from this machine: every loopback name of its port is the site; other ports are fetched', async () => {
    const seen: { url: string; allowLoopback: boolean }[] = [];
    const resolver = new ClientMetadataResolver({
      fetch: async (url, options) => {
        seen.push({ url, allowLoopback: options.allowLoopback });
        await options.admit(new URL(url).hostname === 'vm' ? '127.0.0.1' : '127.0.0.1', Number(new URL(url).port));
        return doc({ client_id: url });
      },
      issuer: 'http://localhost:8899',
      limits: () => limits,
    });
    const local = { requestOrigin: 'http://localhost:8899', fromLoopbackClient: true };
    for (const id of ['http://127.0.0.1:8899/oauth/authorize', 'http://[::1]:8899/c.json', 'http://localhost:8899/c.json'])
      await expect(resolver.resolve(id, T0, requester(local))).rejects.toThrow('this site itself');
    expect(seen).toEqual([]);
    // Another name that resolves to this machine, on the site's port: refused once resolved, before connecting.
    await expect(resolver.resolve('https://vm:8899/c.json', T0, requester(local))).rejects.toThrow('this site itself');
    await resolver.resolve('http://127.0.0.1:9000/c.json', T0, requester(local));
    expect(seen.map((s) => s.allowLoopback)).toEqual([true, true]);
  });

  it('a loopback site asked from elsewhere fetches public addresses only: no http, no loopback', async () => {
    const seen: boolean[] = [];
    const resolver = new ClientMetadataResolver({
      fetch: async (url, options) => {
        seen.push(options.allowLoopback);
        return doc({ client_id: url });
      },
      issuer: 'http://localhost:8899',
      limits: () => limits,
    });
    const stranger = { requestOrigin: 'http://localhost:8899', fromLoopbackClient: false };
    await expect(resolver.resolve('http://127.0.0.1:9448/json', T0, requester(stranger))).rejects.toThrow('must be an https URL');
    expect(seen).toEqual([]);
    await resolver.resolve('https://app.example/c.json', T0, requester(stranger));
    expect(seen).toEqual([false]);
  });

  it('a request made by a metadata fetcher (a loop through another name of the site) causes no fetch', async () => {
    let fetches = 0;
    const resolver = resolverWith(async () => {
      fetches++;
      return doc();
    });
    await expect(resolver.resolve(URL_ID, T0, requester({ fromMetadataFetcher: true }))).rejects.toMatchObject({ code: 'invalid_client' });
    expect(fetches).toBe(0);
  });

  it('limits fetches per client network, then per target host (its address, whatever name or port), 429 with Retry-After', async () => {
    let fetches = 0;
    // Every name below resolves to one address, as vm, runsc and 127.0.0.2 did on the stranger's machine.
    const resolver = resolverWith(async (url, options) => {
      await options.admit(new URL(url).hostname === 'other.example' ? '198.51.100.9' : '203.0.113.5', Number(new URL(url).port || 443));
      fetches++;
      return doc({ client_id: url });
    });
    const id = (i: number, host = 'app.example') => `https://${host}/c/${i}.json`;
    for (let i = 0; i < CLIENT_METADATA_FETCHES_PER_NETWORK.limit; i++) await resolver.resolve(id(i), T0, requester());
    const limited = await resolver.resolve(id(999), T0, requester()).catch((e: unknown) => e);
    expect(limited).toMatchObject({ code: 'rate_limited', status: 429, headers: { 'retry-after': expect.stringMatching(/^\d+$/) } });
    expect(fetches).toBe(CLIENT_METADATA_FETCHES_PER_NETWORK.limit);
    // Another network is not limited by the first one's use, but every network shares the per-host budget.
    let network = 0;
    const hosts = ['app.example', 'alias.example', 'app.example:8443', 'www.app.example'];
    for (let i = fetches; i < CLIENT_METADATA_FETCHES_PER_HOST.limit; i++)
      await resolver.resolve(id(1000 + i, hosts[i % hosts.length]), T0, requester({ network: async () => `net-${network++}` }));
    for (const host of hosts) {
      const refused = await resolver.resolve(id(5000, host), T0, requester({ network: async () => 'fresh' })).catch((e: unknown) => e);
      expect(refused).toMatchObject({ code: 'rate_limited' });
      // The answer does not say what the name resolved to.
      expect((refused as Error).message).not.toContain('203.0.113.5');
    }
    // A limit is not remembered as the document's failure: the same URL is tried again later.
    await expect(resolver.resolve(id(1, 'other.example'), T0, requester({ network: async () => 'fresh' }))).resolves.toBeTruthy();
  });
});
