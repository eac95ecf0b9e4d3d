/** Registered clients: lookup by a well-formed id, expiry, and client names shown to people. */
import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../../kernel/html.ts';
import { memoryStore } from '../../kernel/memory-store.ts';
import { CLAIMED_CLIENT_TTL_SECONDS, UNCLAIMED_CLIENT_TTL_SECONDS } from '../config.ts';
import {
  clientKey,
  clientNameHtml,
  clientNameProblem,
  type ClientRecord,
  expiresAt,
  getClient,
  idleLifetimeSeconds,
  isExpired,
  plainClientName,
} from './clients.ts';

const T = 1_800_000_000;
const client = (overrides: Partial<ClientRecord> = {}): ClientRecord => ({
  client_id: 'agt_c',
  client_secret_sha256: null,
  client_name: 'c',
  grant_types: ['authorization_code'],
  response_types: ['code'],
  redirect_uris: [],
  token_endpoint_auth_method: 'none',
  scope: ['articles:read'],
  client_id_issued_at: T,
  registration_type: 'anonymous',
  claim: { status: 'unclaimed', token_sha256: null, token_expires_at: T },
  expires_at: T + 100,
  last_used_at: T,
  ...overrides,
});

describe('getClient', () => {
  it('finds a stored client by a well-formed id, and never looks up anything else', async () => {
    const store = memoryStore();
    await store.set(clientKey('agt_c'), client());
    await store.set(clientKey('../x'), client({ client_id: '../x' }));
    expect((await getClient(store, 'agt_c'))?.client_id).toBe('agt_c');
    expect(await getClient(store, 'agt_missing')).toBeNull();
    expect(await getClient(store, '../x')).toBeNull();
    expect(await getClient(store, '')).toBeNull();
    expect(await getClient(store, `a${'b'.repeat(100)}`)).toBeNull();
    await store.set(clientKey('a'.repeat(100)), client());
    expect(await getClient(store, 'a'.repeat(100))).not.toBeNull();
  });
});

describe('expiry', () => {
  it('expires at expires_at; a record from before claimed clients expired, a year after last use', () => {
    expect(expiresAt(client())).toBe(T + 100);
    expect(expiresAt(client({ expires_at: null, last_used_at: T + 5 }))).toBe(T + 5 + CLAIMED_CLIENT_TTL_SECONDS);
    expect(isExpired(client(), T + 99)).toBe(false);
    expect(isExpired(client(), T + 100)).toBe(true);
  });

  it('lives 30 days after a use before it is claimed, a year after', () => {
    expect(idleLifetimeSeconds(client())).toBe(UNCLAIMED_CLIENT_TTL_SECONDS);
    expect(idleLifetimeSeconds(client({ claim: { status: 'claimed', token_sha256: null, token_expires_at: T } }))).toBe(
      CLAIMED_CLIENT_TTL_SECONDS,
    );
  });
});

describe('client names shown to people', () => {
  it('are isolated, escaped and stripped of invisible characters', () => {
    expect(clientNameHtml('A <b>\u200bname\u202e', escapeHtml)).toBe('<bdi>A &lt;b&gt;name</bdi>');
    expect(plainClientName('x\u{E0041}y')).toBe('xy');
  });

  it('that hide characters are refused with a reason', () => {
    expect(clientNameProblem('research agent')).toBeNull();
    expect(clientNameProblem('agent\u200b')).toBe(
      'client_name must not contain control, invisible or bidirectional-formatting characters (zero-width, tag or separator characters included)',
    );
  });
});
