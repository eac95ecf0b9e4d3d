/** `POST /oauth/register` in-process: what it accepts, what it refuses, and how much one network (and everyone) may store. */
import { describe, expect, it } from 'vitest';
import { EXPIRY_INDEX_PREFIX } from '../../kernel/expiry.ts';
import { fakeClock, memoryStore } from '../../kernel/memory-store.ts';
import { busyText, consumeShared } from '../../kernel/rate-limit.ts';
import { oauthConfig, UNCLAIMED_CLIENT_TTL_SECONDS } from '../config.ts';
import { withOAuthErrors } from '../errors.ts';
import type { ClientRecord } from '../grants/clients.ts';
import { sha256Hex } from '../../kernel/crypto.ts';
import {
  CLAIM_TOKEN_TTL_SECONDS,
  handleRegister,
  REGISTRATION_DAILY_LIMIT,
  REGISTRATION_GLOBAL_DAILY_LIMIT,
  REGISTRATION_RATE_LIMIT,
  type RegisterDeps,
} from './register.ts';

const ORIGIN = 'https://site.example';

function setup(network = 'net-a') {
  const clock = fakeClock(new Date('2027-03-01T00:00:00Z'));
  const deps: RegisterDeps = {
    config: oauthConfig(ORIGIN),
    clients: memoryStore(),
    limits: memoryStore(),
    clientNetworkDigest: network,
    nowSeconds: clock.nowSeconds,
  };
  return { deps, clock };
}

async function register(deps: RegisterDeps, body: unknown, contentType = 'application/json') {
  const req = () =>
    new Request(`${ORIGIN}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': contentType },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const res = await withOAuthErrors(req(), () => handleRegister(req(), deps));
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

const MACHINE = { client_name: 'research agent', grant_types: ['client_credentials'] };

describe('POST /oauth/register', () => {
  it('registers a confidential machine client, stored with its expiry index and a digest of its secret only', async () => {
    const { deps, clock } = setup();
    const answer = await register(deps, MACHINE);
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ token_endpoint_auth_method: 'client_secret_basic', grant_types: ['client_credentials'] });
    const stored = (await deps.clients.get<ClientRecord>(`client/${answer.body.client_id}`))!.value;
    expect(stored.expires_at).toBe(clock.nowSeconds() + UNCLAIMED_CLIENT_TTL_SECONDS);
    expect(JSON.stringify(stored)).not.toContain(String(answer.body.client_secret));
    expect((await deps.clients.list(EXPIRY_INDEX_PREFIX)).length).toBe(2);
  });

  it.each([
    ['not JSON', 'client_name=x', 'application/x-www-form-urlencoded', 'invalid_client_metadata'],
    ['malformed JSON', '{', 'application/json', 'invalid_client_metadata'],
    ['an array', '[]', 'application/json', 'invalid_client_metadata'],
    ['an unknown grant', { grant_types: ['password'] }, 'application/json', 'invalid_client_metadata'],
    [
      'a public client_credentials client',
      { grant_types: ['client_credentials'], token_endpoint_auth_method: 'none' },
      'application/json',
      'invalid_client_metadata',
    ],
    ['authorization_code without redirect_uris', { grant_types: ['authorization_code'] }, 'application/json', 'invalid_redirect_uri'],
    ['a zero-width space in the name', { ...MACHINE, client_name: 'Claude\u200B' }, 'application/json', 'invalid_client_metadata'],
    ['tag characters in the name', { ...MACHINE, client_name: 'agent\u{E0049}\u{E0047}' }, 'application/json', 'invalid_client_metadata'],
    [
      'a paragraph separator in the name',
      { ...MACHINE, client_name: 'agent\u2029approved' },
      'application/json',
      'invalid_client_metadata',
    ],
  ] as const)('refuses %s (400 %s)', async (_name, body, type, error) => {
    const { deps } = setup();
    const answer = await register(deps, body, type);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe(error);
  });

  it('one network: 20 an hour, then 100 a day, each refusal a 429 with Retry-After', async () => {
    const { deps, clock } = setup();
    let accepted = 0;
    for (let hour = 0; hour < 6; hour++) {
      for (let i = 0; i < REGISTRATION_RATE_LIMIT.limit; i++) if ((await register(deps, MACHINE)).status === 201) accepted++;
      const over = await register(deps, MACHINE);
      expect(over.status).toBe(429);
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
      clock.advanceSeconds(3600);
    }
    expect(accepted).toBe(REGISTRATION_DAILY_LIMIT.limit);
    const daily = await register(deps, MACHINE);
    expect(daily).toMatchObject({ status: 429, body: { error: 'rate_limited' } });
    expect(String(daily.body.error_description)).toContain('per day');
    // Another network is not limited by this one.
    expect((await register({ ...deps, clientNetworkDigest: 'net-b' }, MACHINE)).status).toBe(201);
  });

  it('everyone together: past the daily ceiling, 503 with Retry-After; nothing stored', async () => {
    const { deps, clock } = setup();
    // Everyone else has used the day's budget but one registration.
    let used = 0;
    while (used < REGISTRATION_GLOBAL_DAILY_LIMIT.limit - 1) {
      const decision = await consumeShared(deps.limits, 'register-all', REGISTRATION_GLOBAL_DAILY_LIMIT, 16, clock.nowSeconds() * 1000);
      if (decision.allowed) used++;
      else break;
    }
    expect((await register(deps, MACHINE)).status).toBe(201);
    const before = (await deps.clients.list('client/')).length;
    const full = await register({ ...deps, clientNetworkDigest: 'net-c' }, MACHINE);
    expect(full).toMatchObject({ status: 503, body: { error: 'temporarily_unavailable' } });
    expect(Number(full.headers.get('retry-after'))).toBeGreaterThan(3600);
    expect((await deps.clients.list('client/')).length).toBe(before);
  });
});

describe('what registration answers and stores', () => {
  it('a public authorization-code client: no secret, the RFC 7591 defaults echoed, descriptive metadata kept', async () => {
    const { deps, clock } = setup();
    const now = clock.nowSeconds();
    const answer = await register(deps, {
      client_name: '  Research agent  ',
      redirect_uris: ['http://127.0.0.1:3000/cb', 'http://127.0.0.1:3000/cb'],
      token_endpoint_auth_method: 'none',
      application_type: 'native',
      client_uri: 'https://agent.example/',
      logo_uri: 'http://agent.example/logo.png',
      software_id: ' sw-1 ',
      software_version: '2.0',
      contacts: ['ignored@example.com'],
    });
    expect(answer.status).toBe(201);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const clientId = String(answer.body.client_id);
    expect(clientId).toMatch(/^agt_[\w-]{24}$/);
    expect(answer.body).toEqual({
      client_id: clientId,
      client_id_issued_at: now,
      client_name: 'Research agent',
      grant_types: ['authorization_code'],
      response_types: ['code'],
      redirect_uris: ['http://127.0.0.1:3000/cb'],
      token_endpoint_auth_method: 'none',
      scope: 'articles:read content:export',
      application_type: 'native',
      client_uri: 'https://agent.example/',
      logo_uri: 'http://agent.example/logo.png',
      software_id: 'sw-1',
      software_version: '2.0',
      registration_type: 'anonymous',
      claim_token: expect.stringMatching(/^clm_[\w-]{32}$/),
      claim_token_expires: now + CLAIM_TOKEN_TTL_SECONDS,
      claim_url: `${ORIGIN}/oauth/claim`,
      pre_claim_scopes: ['articles:read', 'content:export'],
      post_claim_scopes: ['articles:read', 'content:export'],
    });
    const stored = (await deps.clients.get<ClientRecord>(`client/${clientId}`))!.value;
    expect(stored).toEqual({
      client_id: clientId,
      client_secret_sha256: null,
      client_name: 'Research agent',
      grant_types: ['authorization_code'],
      response_types: ['code'],
      redirect_uris: ['http://127.0.0.1:3000/cb'],
      token_endpoint_auth_method: 'none',
      scope: ['articles:read', 'content:export'],
      application_type: 'native',
      client_uri: 'https://agent.example/',
      logo_uri: 'http://agent.example/logo.png',
      software_id: 'sw-1',
      software_version: '2.0',
      client_id_issued_at: now,
      registration_type: 'anonymous',
      claim: {
        status: 'unclaimed',
        token_sha256: await sha256Hex(String(answer.body.claim_token)),
        token_expires_at: now + CLAIM_TOKEN_TTL_SECONDS,
      },
      expires_at: now + UNCLAIMED_CLIENT_TTL_SECONDS,
      last_used_at: now,
    });
    // The claim-token index points at the client, and lives as long as it.
    expect((await deps.clients.get(`claimtoken/${stored.claim.token_sha256}`))?.value).toEqual({ client_id: clientId });
    expect(await deps.clients.list(EXPIRY_INDEX_PREFIX)).toHaveLength(2);
  });

  it('a confidential client gets a secret once, stored only as its digest; an unnamed one a name', async () => {
    const { deps } = setup();
    const answer = await register(deps, { grant_types: ['client_credentials'], scope: 'content:export admin' });
    expect(answer.body).toMatchObject({
      client_name: 'Unnamed agent',
      token_endpoint_auth_method: 'client_secret_basic',
      client_secret_expires_at: 0,
      response_types: [],
      redirect_uris: [],
      scope: 'content:export',
    });
    const secret = String(answer.body.client_secret);
    expect(secret).toMatch(/^[\w-]{43}$/);
    const stored = (await deps.clients.get<ClientRecord>(`client/${answer.body.client_id}`))!.value;
    expect(stored.client_secret_sha256).toBe(await sha256Hex(secret));
    expect(stored).not.toHaveProperty('application_type');
  });

  it('authorization_code with refresh_token, and client_secret_post', async () => {
    const { deps } = setup();
    const answer = await register(deps, {
      grant_types: ['authorization_code', 'refresh_token', 'refresh_token'],
      response_types: ['code'],
      redirect_uris: ['https://app.example/cb'],
      token_endpoint_auth_method: 'client_secret_post',
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({
      grant_types: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_method: 'client_secret_post',
    });
  });

  it.each([
    ['GET', undefined, 'GET', 405, 'invalid_request', 'Use POST with a JSON body.'],
    [
      'a form',
      'client_name=x',
      'application/x-www-form-urlencoded',
      400,
      'invalid_client_metadata',
      'Send the client metadata as application/json (RFC 7591 §3.1).',
    ],
    // The 413 of every OAuth endpoint's body limit (docs/limits.md), as /oauth/token and /oauth/revoke answer it.
    [
      'a body over 8 KB',
      JSON.stringify({ client_name: 'x'.repeat(9000) }),
      'application/json',
      413,
      'invalid_request',
      'The body must be at most 8192 bytes.',
    ],
    [
      'bytes that are not UTF-8',
      new Blob([new Uint8Array([0x7b, 0xff, 0x7d])]),
      'application/json',
      400,
      'invalid_client_metadata',
      'The body is not valid UTF-8.',
    ],
    ['malformed JSON', '{', 'application/json', 400, 'invalid_client_metadata', 'The body is not valid JSON.'],
    [
      'JSON nested too deep',
      `{"a":${'['.repeat(70)}${']'.repeat(70)}}`,
      'application/json',
      400,
      'invalid_client_metadata',
      'The body is refused: the JSON nests',
    ],
    ['an array', '[]', 'application/json', 400, 'invalid_client_metadata', 'The body must be a JSON object.'],
    ['null', 'null', 'application/json', 400, 'invalid_client_metadata', 'The body must be a JSON object.'],
    ['a number', '7', 'application/json', 400, 'invalid_client_metadata', 'The body must be a JSON object.'],
    [
      'a name that is not a string',
      { client_name: 7 },
      'application/json',
      400,
      'invalid_client_metadata',
      'client_name: client_name must be a string',
    ],
    [
      'a name of 101 characters',
      { client_name: 'n'.repeat(101) },
      'application/json',
      400,
      'invalid_client_metadata',
      'client_name: client_name must be at most 100 characters',
    ],
    [
      'an invisible character in the name',
      { client_name: 'a\u200bb' },
      'application/json',
      400,
      'invalid_client_metadata',
      'client_name: client_name must not contain control, invisible or bidirectional-formatting characters',
    ],
    [
      'empty grant_types',
      { grant_types: [] },
      'application/json',
      400,
      'invalid_client_metadata',
      'grant_types: grant_types must not be empty',
    ],
    [
      'an unknown grant',
      { grant_types: ['password'] },
      'application/json',
      400,
      'invalid_client_metadata',
      'grant_types: "password" is not supported; use client_credentials, authorization_code, refresh_token.',
    ],
    [
      'refresh_token alone',
      { grant_types: ['client_credentials', 'refresh_token'] },
      'application/json',
      400,
      'invalid_client_metadata',
      'grant_types: refresh_token is issued only with authorization_code; client_credentials clients ask for a new token instead.',
    ],
    [
      'an unknown authentication method',
      { grant_types: ['client_credentials'], token_endpoint_auth_method: 'private_key_jwt' },
      'application/json',
      400,
      'invalid_client_metadata',
      'token_endpoint_auth_method "private_key_jwt" is not supported; use client_secret_basic, client_secret_post, none.',
    ],
    [
      'a public client_credentials client',
      { grant_types: ['client_credentials'], token_endpoint_auth_method: 'none' },
      'application/json',
      400,
      'invalid_client_metadata',
      'A public client (token_endpoint_auth_method "none") cannot use client_credentials.',
    ],
    [
      'response_types token',
      { redirect_uris: ['https://app.example/cb'], response_types: ['token'] },
      'application/json',
      400,
      'invalid_client_metadata',
      'response_types must be ["code"] with authorization_code (and empty otherwise).',
    ],
    [
      'authorization_code without the code response type',
      { redirect_uris: ['https://app.example/cb'], response_types: [] },
      'application/json',
      400,
      'invalid_client_metadata',
      'response_types must be ["code"]',
    ],
    [
      'client_credentials with a code response type',
      { grant_types: ['client_credentials'], response_types: ['code', 'token'] },
      'application/json',
      400,
      'invalid_client_metadata',
      'response_types must be ["code"]',
    ],
    [
      'no redirect_uris for authorization_code',
      {},
      'application/json',
      400,
      'invalid_redirect_uri',
      'redirect_uris is required for authorization_code.',
    ],
    [
      'an http redirect URI off loopback',
      { redirect_uris: ['https://app.example/cb', 'http://app.example/cb'] },
      'application/json',
      400,
      'invalid_redirect_uri',
      'redirect_uri "http://app.example/cb" must be https, or http on a loopback address (127.0.0.1, [::1] or localhost).',
    ],
    [
      '11 redirect URIs',
      { redirect_uris: Array.from({ length: 11 }, (_, i) => `https://app.example/${i}`) },
      'application/json',
      400,
      'invalid_client_metadata',
      'redirect_uris: at most 10 redirect_uris',
    ],
    [
      'no known scope',
      { grant_types: ['client_credentials'], scope: 'admin' },
      'application/json',
      400,
      'invalid_client_metadata',
      'scope must name at least one of: articles:read content:export.',
    ],
    [
      'a client_uri that is not a URL',
      { grant_types: ['client_credentials'], client_uri: 'nope' },
      'application/json',
      400,
      'invalid_client_metadata',
      'client_uri: client_uri must be an http(s) URL',
    ],
    [
      'a javascript: logo_uri',
      { grant_types: ['client_credentials'], logo_uri: 'javascript:alert(1)' },
      'application/json',
      400,
      'invalid_client_metadata',
      'logo_uri: logo_uri must be an http(s) URL',
    ],
    [
      'a software_id of 201 characters',
      { grant_types: ['client_credentials'], software_id: 's'.repeat(201) },
      'application/json',
      400,
      'invalid_client_metadata',
      'software_id: software_id must be at most 200 characters',
    ],
  ] as const)('refuses %s: %i %s', async (_name, body, type, status, error, description) => {
    const { deps } = setup();
    const req = () =>
      new Request(`${ORIGIN}/oauth/register`, {
        method: type === 'GET' ? 'GET' : 'POST',
        headers: { 'content-type': type === 'GET' ? 'application/json' : type },
        ...(type === 'GET' ? {} : { body: typeof body === 'string' || body instanceof Blob ? body : JSON.stringify(body) }),
      });
    const res = await withOAuthErrors(req(), () => handleRegister(req(), deps));
    const answer = (await res.json()) as Record<string, unknown>;
    expect(res.status).toBe(status);
    expect(answer.error).toBe(error);
    expect(String(answer.error_description).startsWith(description)).toBe(true);
    if (status === 405) expect(res.headers.get('allow')).toBe('POST, OPTIONS');
    expect(await deps.clients.list('client/')).toEqual([]);
  });

  it('the hourly and daily refusals say which limit, per client network', async () => {
    const { deps } = setup();
    for (let i = 0; i < REGISTRATION_RATE_LIMIT.limit; i++) await register(deps, MACHINE);
    const hourly = await register(deps, MACHINE);
    expect(hourly.body.error_description).toBe(
      'At most 20 registrations per hour per client network (an IPv4 address or an IPv6 /64); retry in 3600 s.',
    );
    expect(hourly.headers.get('retry-after')).toBe('3600');
  });

  it('a registration that loses every write of the shared count is told to retry in a second', async () => {
    const { deps } = setup();
    const limits = deps.limits;
    const busy: RegisterDeps = {
      ...deps,
      limits: {
        ...limits,
        set: async (key, value, condition) => (key.startsWith('register-all') ? { modified: false } : limits.set(key, value, condition)),
      },
    };
    const answer = await register(busy, MACHINE);
    expect(answer).toMatchObject({
      status: 429,
      body: { error: 'rate_limited', error_description: busyText('Registration is') },
    });
    expect(answer.headers.get('retry-after')).toBe('1');
    expect(await deps.clients.list('client/')).toEqual([]);
  });

  it('the site-wide refusal says so and when to retry', async () => {
    const { deps, clock } = setup();
    let used = 0;
    while (used < REGISTRATION_GLOBAL_DAILY_LIMIT.limit) {
      const decision = await consumeShared(deps.limits, 'register-all', REGISTRATION_GLOBAL_DAILY_LIMIT, 16, clock.nowSeconds() * 1000);
      if (decision.allowed) used++;
      else break;
    }
    const full = await register(deps, MACHINE);
    expect(String(full.body.error_description)).toMatch(
      /^This site has taken all the anonymous registrations it accepts today \(10000\); retry in \d+ s\. Existing registrations keep working\.$/,
    );
  });
});
