/** `POST /oauth/register` in-process: what it accepts, what it refuses, and how much one network (and everyone) may store. */
import { describe, expect, it } from 'vitest';
import { EXPIRY_INDEX_PREFIX } from '../../kernel/expiry.ts';
import { fakeClock, memoryStore } from '../../kernel/memory-store.ts';
import { consumeShared } from '../../kernel/rate-limit.ts';
import { oauthConfig, UNCLAIMED_CLIENT_TTL_SECONDS } from '../config.ts';
import { withOAuthErrors } from '../errors.ts';
import type { ClientRecord } from '../grants/clients.ts';
import {
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
