import { describe, expect, it } from 'vitest';
import { useBlobs } from '../../../../tests/support/blobs.ts';
import { authenticateClient, CLIENT_TOUCH_INTERVAL_SECONDS, readOAuthForm, touchClient } from './client-auth.ts';
import { clientKey, type ClientRecord } from './clients.ts';
import { CLAIMED_CLIENT_TTL_SECONDS, UNCLAIMED_CLIENT_TTL_SECONDS } from '../config.ts';
import { sha256Hex } from '../../kernel/crypto.ts';
import { memoryStore } from '../../kernel/memory-store.ts';
import type { Store } from '../../kernel/store.ts';

const blobs = useBlobs();
const T0 = 1_800_000_000;

async function stored(id: string, status: 'unclaimed' | 'claimed'): Promise<ClientRecord> {
  const record: ClientRecord = {
    client_id: id,
    client_secret_sha256: await sha256Hex('s3cret'),
    client_name: id,
    grant_types: ['client_credentials'],
    response_types: [],
    redirect_uris: [],
    token_endpoint_auth_method: 'client_secret_post',
    scope: ['articles:read'],
    client_id_issued_at: T0,
    registration_type: 'anonymous',
    claim: { status, token_sha256: null, token_expires_at: T0 },
    expires_at: status === 'claimed' ? null : T0 + UNCLAIMED_CLIENT_TTL_SECONDS,
    last_used_at: T0,
  };
  await blobs.store('oauth').set(clientKey(id), record);
  return record;
}
const auth = (id: string, now: number) =>
  authenticateClient(
    new Request('https://site.example/oauth/token', { method: 'POST' }),
    new Map([
      ['client_id', id],
      ['client_secret', 's3cret'],
    ]),
    { clients: blobs.store('oauth'), nowSeconds: now },
  );

describe('registration expiry', () => {
  it('an unclaimed client stops working 30 days after its last use; use extends it', async () => {
    const record = await stored('agt_unclaimed', 'unclaimed');
    await expect(auth('agt_unclaimed', T0 + UNCLAIMED_CLIENT_TTL_SECONDS - 1)).resolves.toMatchObject({ client_id: 'agt_unclaimed' });
    await expect(auth('agt_unclaimed', T0 + UNCLAIMED_CLIENT_TTL_SECONDS)).rejects.toMatchObject({ code: 'invalid_client' });
    await touchClient(blobs.store('oauth'), record, T0 + 10 * 86400);
    await expect(auth('agt_unclaimed', T0 + UNCLAIMED_CLIENT_TTL_SECONDS + 86400)).resolves.toMatchObject({ client_id: 'agt_unclaimed' });
  });

  it('a claimed client does not expire', async () => {
    await stored('agt_claimed', 'claimed');
    await expect(auth('agt_claimed', T0 + 10 * UNCLAIMED_CLIENT_TTL_SECONDS)).resolves.toMatchObject({ client_id: 'agt_claimed' });
  });
});

describe('readOAuthForm', () => {
  const form = (body: BodyInit, contentType = 'application/x-www-form-urlencoded') =>
    readOAuthForm(new Request('https://site.example/oauth/token', { method: 'POST', headers: { 'content-type': contentType }, body }), 64);

  it('reads each parameter once', async () => {
    expect([...(await form('a=1&b=x+y&c=%C3%A9'))]).toEqual([
      ['a', '1'],
      ['b', 'x y'],
      ['c', 'é'],
    ]);
    expect(
      await readOAuthForm(
        new Request('https://site.example/', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
          body: 'a=1',
        }),
      ),
    ).toEqual(new Map([['a', '1']]));
  });

  it.each([
    ['JSON', () => form('{}', 'application/json'), 400, 'Send the parameters as application/x-www-form-urlencoded.'],
    ['a body over the limit', () => form('a='.padEnd(65, 'x')), 413, 'The body must be at most 64 bytes.'],
    ['bytes that are not UTF-8', () => form(new Uint8Array([0x61, 0x3d, 0xff])), 400, 'The body is not valid UTF-8.'],
    ['a parameter twice', () => form('a=1&a=1'), 400, 'Parameter a appears more than once.'],
  ])('refuses %s', async (_name, read, status, message) => {
    await expect(read()).rejects.toMatchObject({ code: 'invalid_request', status, message });
  });

  it('takes exactly the limit', async () => {
    expect((await form('a='.padEnd(64, 'x'))).get('a')).toHaveLength(62);
  });
});

describe('authenticateClient', () => {
  const T = 1_800_000_000;
  const BASIC = 'Basic realm="oauth", charset="UTF-8"';

  async function clients(): Promise<Store> {
    const store = memoryStore();
    const base = {
      client_name: 'x',
      grant_types: ['client_credentials'] as ClientRecord['grant_types'],
      response_types: [] as ClientRecord['response_types'],
      redirect_uris: [],
      scope: ['articles:read'] as ClientRecord['scope'],
      client_id_issued_at: T,
      registration_type: 'anonymous' as const,
      claim: { status: 'unclaimed' as const, token_sha256: null, token_expires_at: T },
      expires_at: T + 100,
      last_used_at: T,
    };
    await store.set(clientKey('agt_conf'), {
      ...base,
      client_id: 'agt_conf',
      client_secret_sha256: await sha256Hex('s:3 cret'),
      token_endpoint_auth_method: 'client_secret_basic',
    });
    await store.set(clientKey('agt_pub'), {
      ...base,
      client_id: 'agt_pub',
      client_secret_sha256: null,
      token_endpoint_auth_method: 'none',
    });
    await store.set(clientKey('agt_nosecret'), {
      ...base,
      client_id: 'agt_nosecret',
      client_secret_sha256: null,
      token_endpoint_auth_method: 'client_secret_post',
    });
    return store;
  }

  const basic = (id: string, secret: string) => `Basic ${btoa(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`)}`;

  async function authenticate(params: Record<string, string>, authorization?: string, now = T) {
    const req = new Request('https://site.example/oauth/token', { method: 'POST', headers: authorization ? { authorization } : {} });
    return authenticateClient(req, new Map(Object.entries(params)), { clients: await clients(), nowSeconds: now });
  }

  it.each([
    ['HTTP Basic', {}, basic('agt_conf', 's:3 cret')],
    ['HTTP Basic with form-encoded spaces', {}, `Basic ${btoa('agt_conf:s%3A3+cret')}`],
    ['HTTP Basic and the same client_id in the form', { client_id: 'agt_conf' }, basic('agt_conf', 's:3 cret')],
    ['basic in lower case', {}, basic('agt_conf', 's:3 cret').replace('Basic', 'basic')],
    ['Basic with two spaces and a trailing one', {}, `${basic('agt_conf', 's:3 cret').replace(' ', '  ')} `],
    ['the secret in the form', { client_id: 'agt_conf', client_secret: 's:3 cret' }, undefined],
  ])('a confidential client with %s', async (_name, params, authorization) => {
    expect((await authenticate(params, authorization)).client_id).toBe('agt_conf');
  });

  it('a public client with its client_id alone', async () => {
    expect((await authenticate({ client_id: 'agt_pub' })).client_id).toBe('agt_pub');
  });

  it.each([
    ['a Bearer header', {}, 'Bearer abc', 'The Authorization header is not valid HTTP Basic.', true],
    ['Basic that is not base64', {}, 'Basic !!!', 'The Authorization header is not valid HTTP Basic.', true],
    ['Basic with base64 of the wrong length', {}, 'Basic YWJjZ', 'The Authorization header is not valid HTTP Basic.', true],
    ['Basic without a colon', {}, `Basic ${btoa('agt_conf')}`, 'The Authorization header is not valid HTTP Basic.', true],
    ['Basic after other text', {}, `x${basic('agt_conf', 's:3 cret')}`, 'The Authorization header is not valid HTTP Basic.', true],
    ['Basic followed by other text', {}, `${basic('agt_conf', 's:3 cret')}!`, 'The Authorization header is not valid HTTP Basic.', true],
    [
      'Basic with an empty id',
      {},
      `Basic ${btoa(':s')}`,
      'Client authentication is required (HTTP Basic, or client_id with client_secret).',
      true,
    ],
    ['Basic with a bad escape', {}, `Basic ${btoa('agt_conf:%E0%A4%A')}`, 'The Authorization header is not valid HTTP Basic.', true],
    ['no client at all', {}, undefined, 'Client authentication is required (HTTP Basic, or client_id with client_secret).', false],
    ['an unknown client', { client_id: 'agt_nobody', client_secret: 'x' }, undefined, 'Unknown or expired client.', false],
    ['an unknown client with Basic', {}, basic('agt_nobody', 'x'), 'Unknown or expired client.', true],
    ['a wrong secret', { client_id: 'agt_conf', client_secret: 'wrong' }, undefined, 'Client authentication failed.', false],
    ['a wrong secret with Basic', {}, basic('agt_conf', 'wrong'), 'Client authentication failed.', true],
    [
      'a confidential client without its secret',
      { client_id: 'agt_conf' },
      undefined,
      'This client must authenticate with its client_secret (HTTP Basic, or client_secret in the form body).',
      false,
    ],
    [
      'a public client with a secret',
      { client_id: 'agt_pub', client_secret: 'x' },
      undefined,
      'This is a public client (token_endpoint_auth_method "none"): send client_id alone, without a secret.',
      false,
    ],
    ['a client with no stored secret', { client_id: 'agt_nosecret', client_secret: '' }, undefined, 'Client authentication failed.', false],
  ])('%s: 401 invalid_client', async (_name, params, authorization, message, challenged) => {
    const refused = await authenticate(params, authorization).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'invalid_client', status: 401, message });
    expect((refused as { headers: Record<string, string> }).headers['www-authenticate']).toBe(challenged ? BASIC : undefined);
  });

  it.each([
    ['Basic and a secret in the form', { client_secret: 's:3 cret' }],
    ['Basic and another client_id in the form', { client_id: 'agt_pub' }],
  ])('%s: invalid_request (one method per request)', async (_name, params) => {
    await expect(authenticate(params, basic('agt_conf', 's:3 cret'))).rejects.toMatchObject({
      code: 'invalid_request',
      message: 'Use one client authentication method per request.',
    });
  });

  it('an expired registration is unknown, one second before it is not', async () => {
    expect((await authenticate({ client_id: 'agt_pub' }, undefined, T + 99)).client_id).toBe('agt_pub');
    await expect(authenticate({ client_id: 'agt_pub' }, undefined, T + 100)).rejects.toMatchObject({
      message: 'Unknown or expired client.',
    });
  });
});

describe('touchClient', () => {
  const T = 1_800_000_000;
  async function storedClient(overrides: Partial<ClientRecord> = {}) {
    const store = memoryStore();
    const client: ClientRecord = {
      client_id: 'agt_touch',
      client_secret_sha256: null,
      client_name: 'x',
      grant_types: ['authorization_code'],
      response_types: ['code'],
      redirect_uris: [],
      token_endpoint_auth_method: 'none',
      scope: ['articles:read'],
      client_id_issued_at: T,
      registration_type: 'anonymous',
      claim: { status: 'unclaimed', token_sha256: null, token_expires_at: T },
      expires_at: T + UNCLAIMED_CLIENT_TTL_SECONDS,
      last_used_at: T,
      ...overrides,
    };
    await store.set(clientKey(client.client_id), client);
    return { store, client };
  }
  const read = async (store: Store) => (await store.get<ClientRecord>(clientKey('agt_touch')))!.value;

  it('records a use an hour after the last one, by the lifetime the record has now', async () => {
    const { store, client } = await storedClient();
    await touchClient(store, client, T + CLIENT_TOUCH_INTERVAL_SECONDS - 1);
    expect(await read(store)).toEqual(client);
    await touchClient(store, client, T + CLIENT_TOUCH_INTERVAL_SECONDS);
    expect(await read(store)).toMatchObject({
      last_used_at: T + CLIENT_TOUCH_INTERVAL_SECONDS,
      expires_at: T + CLIENT_TOUCH_INTERVAL_SECONDS + UNCLAIMED_CLIENT_TTL_SECONDS,
    });
    const claimed = await storedClient({ claim: { status: 'claimed', token_sha256: null, token_expires_at: T } });
    await touchClient(claimed.store, claimed.client, T + 7200);
    expect((await read(claimed.store)).expires_at).toBe(T + 7200 + CLAIMED_CLIENT_TTL_SECONDS);
  });

  it('leaves alone a metadata-document client, a record touched since it was read, an expired or deleted one', async () => {
    const document = await storedClient({ registration_type: 'metadata_document' });
    await touchClient(document.store, document.client, T + 7200);
    expect((await read(document.store)).last_used_at).toBe(T);

    const { store, client } = await storedClient();
    await store.set(clientKey('agt_touch'), { ...client, last_used_at: T + 7000 });
    await touchClient(store, client, T + 7200);
    expect((await read(store)).last_used_at).toBe(T + 7000);

    const expired = await storedClient({ expires_at: T + 7200 });
    await touchClient(expired.store, expired.client, T + 7200);
    expect((await read(expired.store)).expires_at).toBe(T + 7200);

    const gone = memoryStore();
    await touchClient(gone, client, T + 7200);
    expect(await gone.list()).toEqual([]);
  });

  it('a claim landing between the touch’s read and write is kept (the write is conditional)', async () => {
    const { store, client } = await storedClient();
    let reads = 0;
    const racing: Store = {
      ...store,
      get: async <T>(key: string) => {
        const found = await store.get<T>(key);
        if (++reads === 1) {
          const current = (await store.get<ClientRecord>(key))!.value;
          await store.set(key, { ...current, claim: { ...current.claim, status: 'claimed' } });
        }
        return found;
      },
    };
    await touchClient(racing, client, T + 7200);
    const after = await read(store);
    expect(after.claim.status).toBe('claimed');
    expect(after.expires_at).toBe(T + 7200 + CLAIMED_CLIENT_TTL_SECONDS);
  });

  it('gives up quietly after losing every compare-and-set', async () => {
    const { store, client } = await storedClient();
    let writes = 0;
    const busy: Store = {
      ...store,
      set: async () => {
        writes++;
        return { modified: false };
      },
    };
    await touchClient(busy, client, T + 7200);
    expect(writes).toBe(4);
  });
});
