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
  isClientIdUrl,
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
    // The reference is a random UUID (it may hold "22-"): judge the message without it.
    expect(message.replace(/reference [0-9a-f-]{36}/, 'reference')).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|22\b(?!\/x)/);
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

  it('concurrent requests for one uncached document share one fetch, which counts against the first network only', async () => {
    // s10a: 5 concurrent authorizations naming one slow document made 5 fetches of 3 s each.
    let fetches = 0;
    const releases: (() => void)[] = [];
    const resolver = resolverWith(async (url) => {
      fetches++;
      await new Promise<void>((resolve) => releases.push(resolve));
      return doc({ client_id: url });
    });
    const networks = ['net-first', 'net-2', 'net-3', 'net-4', 'net-5'];
    const answers = networks.map((n) => resolver.resolve(URL_ID, T0, requester({ network: async () => n })));
    await new Promise((resolve) => setTimeout(resolve, 10));
    for (const release of releases) release();
    for (const client of await Promise.all(answers)) expect(client.client_id).toBe(URL_ID);
    expect(fetches).toBe(1);
    const counted = (await limits.list('cimd-network/')).map((key) => key.split('/')[1]);
    expect(new Set(counted)).toEqual(new Set(['net-first']));
  });

  it('a request waiting for a fetch whose starter its own network refused fetches by itself; failures are shared', async () => {
    let fetches = 0;
    const resolver = resolverWith(
      async (url) => {
        fetches++;
        await new Promise((resolve) => setTimeout(resolve, 5));
        if (url.endsWith('broken.json')) throw new Error('connect ECONNREFUSED');
        return doc({ client_id: url });
      },
      { log: () => {} },
    );
    // The first network has used its budget.
    for (let i = 0; i < CLIENT_METADATA_FETCHES_PER_NETWORK.limit; i++)
      await resolver.resolve(`https://app.example/c/${i}.json`, T0, requester({ network: async () => 'spent' }));
    const [refused, served] = await Promise.allSettled([
      resolver.resolve(URL_ID, T0, requester({ network: async () => 'spent' })),
      resolver.resolve(URL_ID, T0, requester({ network: async () => 'fresh' })),
    ]);
    expect(refused).toMatchObject({ status: 'rejected', reason: { code: 'rate_limited' } });
    expect(served).toMatchObject({ status: 'fulfilled', value: { client_id: URL_ID } });
    // A failed fetch is one answer for everyone waiting for it.
    const broken = 'https://app.example/broken.json';
    const before = fetches;
    const failures = await Promise.allSettled(
      [1, 2, 3].map((i) => resolver.resolve(broken, T0, requester({ network: async () => `n${i}` }))),
    );
    expect(fetches).toBe(before + 1);
    expect(new Set(failures.map((f) => (f.status === 'rejected' ? (f.reason as Error).message : 'served'))).size).toBe(1);
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

describe('isClientIdUrl', () => {
  it.each([
    ['https://app.example/c.json', true],
    ['HTTP://127.0.0.1/c.json', true],
    ['http://localhost:9000/c.json', true],
    ['agt_abc', false],
    ['xhttps://app.example/c.json', false],
    ['ftp://app.example/c.json', false],
  ])('%s: %s', (id, url) => expect(isClientIdUrl(id)).toBe(url));
});

describe('clientIdUrlProblem, in words', () => {
  it.each([
    ['https://', 'https://site.example', 'is not a URL'],
    ['ftp://localhost/c.json', 'http://localhost:8899', 'must be an https URL'],
    ['http://app.example/c.json', 'https://site.example', 'must be an https URL'],
    ['https://app.example/', 'https://site.example', 'must have a path (draft-ietf-oauth-client-id-metadata-document §3)'],
    ['https://app.example/c.json#f', 'https://site.example', 'must not have a fragment or userinfo'],
    ['https://u:p@app.example/c.json', 'https://site.example', 'must not have a fragment or userinfo'],
    ['https://APP.example/c.json', 'https://site.example', 'must be written in canonical form'],
  ])('%s', (id, issuer, problem) => expect(clientIdUrlProblem(id, issuer)).toBe(problem));
});

describe('cacheLifetimeSeconds, more directives', () => {
  it.each([
    ['private, MAX-AGE=60', 60],
    ['max-age=0', 0],
    ['public', CLIENT_METADATA_DEFAULT_CACHE_SECONDS],
    ['xmax-age=60', CLIENT_METADATA_DEFAULT_CACHE_SECONDS],
    ['max-age=60x', CLIENT_METADATA_DEFAULT_CACHE_SECONDS],
    ['max-age=60, max-age=10', 60],
    ['s-maxage=5, max-age=7', 7],
  ])('%s: %i', (header, seconds) => expect(cacheLifetimeSeconds(header)).toBe(seconds));
});

describe('clientFromDocument, field by field', () => {
  const body = (fields: Record<string, unknown>, over: Partial<FetchedDocument> = {}): FetchedDocument => ({
    status: 200,
    contentType: 'application/json',
    cacheControl: null,
    body: JSON.stringify({ client_id: URL_ID, redirect_uris: ['https://app.example/cb'], ...fields }),
    ...over,
  });

  it('fills what the document leaves out: authorization_code, the host as the name, every scope; deduplicates lists', () => {
    const client = clientFromDocument(
      URL_ID,
      body({ redirect_uris: ['https://app.example/cb', 'https://app.example/cb'], grant_types: undefined }),
      T0,
    );
    expect(client).toEqual({
      client_id: URL_ID,
      client_secret_sha256: null,
      client_name: 'app.example',
      grant_types: ['authorization_code'],
      response_types: ['code'],
      redirect_uris: ['https://app.example/cb'],
      token_endpoint_auth_method: 'none',
      scope: ['articles:read', 'content:export'],
      client_id_issued_at: T0,
      registration_type: 'metadata_document',
      claim: { status: 'unclaimed', token_sha256: null, token_expires_at: T0 },
      expires_at: null,
      last_used_at: T0,
    });
    expect(clientFromDocument(URL_ID, body({ grant_types: ['authorization_code', 'authorization_code'] }), T0).grant_types).toEqual([
      'authorization_code',
    ]);
  });

  it.each([
    ['a trimmed name', { client_name: '  Example  ' }, 'Example'],
    ['a blank name', { client_name: '   ' }, 'app.example'],
    ['a name that is not text', { client_name: 42 }, 'app.example'],
    ['a long name', { client_name: `${'n'.repeat(150)}` }, 'n'.repeat(100)],
  ])('%s', (_name, fields, name) => expect(clientFromDocument(URL_ID, body(fields), T0).client_name).toBe(name));

  it.each([
    ['a known scope', { scope: 'content:export' }, ['content:export']],
    ['only unknown scopes', { scope: 'admin' }, ['articles:read', 'content:export']],
    ['a scope that is not text', { scope: ['content:export'] }, ['articles:read', 'content:export']],
  ])('%s', (_name, fields, scope) => expect(clientFromDocument(URL_ID, body(fields), T0).scope).toEqual(scope));

  it.each([
    ['application/ld+json', true],
    ['application/+json', true],
    ['Application/JSON; charset=utf-8', true],
    ['text/json', false],
    [' application/json', false],
    ['xapplication/json', false],
    ['application/jsonx', false],
    [null, false],
  ])('Content-Type %j accepted: %s', (contentType, accepted) => {
    const run = () => clientFromDocument(URL_ID, body({}, { contentType }), T0);
    if (accepted) expect(run().client_id).toBe(URL_ID);
    else expect(run).toThrow(expect.objectContaining({ publicReason: 'it is not a JSON document' }));
  });

  it.each([
    ['HTTP 404', body({}, { status: 404 }), 'it could not be fetched', 'it answered HTTP 404'],
    ['no Content-Type', body({}, { contentType: null }), 'it is not a JSON document', 'its Content-Type is missing'],
    ['HTML', body({}, { contentType: 'text/html' }), 'it is not a JSON document', 'its Content-Type is text/html'],
    ['null', body({}, { body: 'null' }), 'it is not a JSON document', 'the body is not a JSON object'],
    ['a string', body({}, { body: '"x"' }), 'it is not a JSON document', 'the body is not a JSON object'],
    ['a number', body({}, { body: '5' }), 'it is not a JSON document', 'the body is not a JSON object'],
    [
      'another client_id',
      body({ client_id: 'https://x.example/c' }),
      'its client_id is not exactly its URL',
      'its client_id is "https://x.example/c"',
    ],
  ])('%s: the public phrase, and the detail for the log', (_name, fetched, publicReason, detail) => {
    const error = (() => {
      try {
        clientFromDocument(URL_ID, fetched, T0);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toMatchObject({ name: 'ClientMetadataFailure', publicReason, message: detail });
  });

  it.each([
    ['client_secret_expires_at', { client_secret_expires_at: 0 }, 'it must not contain client_secret_expires_at'],
    [
      'a secret method',
      { token_endpoint_auth_method: 'client_secret_basic' },
      'token_endpoint_auth_method "client_secret_basic" is not supported here (only "none")',
    ],
    ['grant_types as text', { grant_types: 'authorization_code' }, 'grant_types must be authorization_code, optionally with refresh_token'],
    ['refresh_token alone', { grant_types: ['refresh_token'] }, 'grant_types must be'],
    ['another grant beside it', { grant_types: ['authorization_code', 'client_credentials'] }, 'grant_types must be'],
    ['redirect_uris as text', { redirect_uris: 'https://app.example/cb' }, 'redirect_uris must be a non-empty array of URIs'],
    [
      'a redirect URI that is not text',
      { redirect_uris: ['https://app.example/cb', 7] },
      'redirect_uris must be a non-empty array of URIs',
    ],
  ])('refuses %s, saying which field', (_name, fields, why) => {
    expect(() => clientFromDocument(URL_ID, body(fields), T0)).toThrow(`The client metadata document at ${URL_ID} cannot be used: ${why}`);
  });
});

describe('the resolver, in words and bounds', () => {
  it('refuses a client_id that cannot be a document URL, saying why', async () => {
    const resolver = resolverWith(async () => doc());
    await expect(resolver.resolve('http://app.example/c.json', T0, requester())).rejects.toMatchObject({
      code: 'invalid_client',
      message: 'A URL client_id must be an https URL.',
    });
  });

  it('a cached failure is the same invalid_client answer', async () => {
    const resolver = resolverWith(async () => ({ ...doc(), status: 500 }), { log: () => {} });
    const first = await resolver.resolve(URL_ID, T0, requester()).catch((e: unknown) => e);
    const second = await resolver.resolve(URL_ID, T0 + 1, requester()).catch((e: unknown) => e);
    expect(second).toMatchObject({ code: 'invalid_client', status: 401, message: (first as Error).message });
  });

  it('a request from a metadata fetcher is told why it gets no fetch', async () => {
    await expect(resolverWith(async () => doc()).resolve(URL_ID, T0, requester({ fromMetadataFetcher: true }))).rejects.toThrow(
      'This request was made by a client metadata fetcher; it cannot name another client metadata document.',
    );
  });

  it('the network limit says so, and resets when its window ends (the host limit is admitted per address: tested with the fetcher)', async () => {
    const resolver = resolverWith(async (url) => doc({ client_id: url }));
    for (let i = 0; i < CLIENT_METADATA_FETCHES_PER_NETWORK.limit; i++)
      await resolver.resolve(`https://a${i}.example/c.json`, T0, requester());
    await expect(resolver.resolve('https://b.example/c.json', T0, requester())).rejects.toThrow(
      'Too many client metadata documents fetched for your network (at most 30 per 600 s); retry in 600 s.',
    );
    await expect(resolver.resolve('https://b.example/c.json', T0 + 600, requester())).resolves.toMatchObject({
      client_id: 'https://b.example/c.json',
    });
  });

  it('a loopback site on the default http port is not the same host as https on loopback', async () => {
    let fetches = 0;
    const resolver = new ClientMetadataResolver({
      fetch: async (url) => {
        fetches++;
        return doc({ client_id: url });
      },
      issuer: 'http://localhost',
      limits: () => limits,
    });
    const local = requester({ requestOrigin: 'http://localhost' });
    // Refused (an http document, or the site itself), never fetched.
    await expect(resolver.resolve('http://127.0.0.1/c.json', T0, local)).rejects.toThrow();
    await resolver.resolve('https://127.0.0.1/c.json', T0, local);
    expect(fetches).toBe(1);
  });

  it('keeps many documents at once, and starts again past a thousand', async () => {
    let fetches = 0;
    const resolver = resolverWith(async (url) => {
      fetches++;
      return doc({ client_id: url });
    });
    const id = (i: number) => `https://h${i}.example/c.json`;
    const ask = (i: number) => resolver.resolve(id(i), T0, requester({ network: async () => `n${i}` }));
    await ask(0);
    await ask(1);
    await ask(0);
    expect(fetches).toBe(2);
    for (let i = 2; i <= 1000; i++) await ask(i);
    expect(fetches).toBe(1001);
    await ask(1000);
    expect(fetches).toBe(1001);
    await ask(0);
    expect(fetches).toBe(1002);
  });
});
