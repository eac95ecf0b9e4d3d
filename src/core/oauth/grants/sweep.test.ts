import { describe, expect, it } from 'vitest';
import { useBlobs } from '../../../../tests/support/blobs.ts';
import type { ClientRecord } from './clients.ts';
import { CLAIMED_CLIENT_TTL_SECONDS, UNCLAIMED_CLIENT_TTL_SECONDS } from '../config.ts';
import { sweepOAuthStore } from './sweep.ts';

const blobs = useBlobs();
const NOW = 1_800_000_000;

const client = (
  id: string,
  expiresAt: number | null,
  status: 'unclaimed' | 'claimed',
  lastUsedAt = NOW - UNCLAIMED_CLIENT_TTL_SECONDS - 100,
): ClientRecord => ({
  client_id: id,
  client_secret_sha256: 'x',
  client_name: id,
  grant_types: ['client_credentials'],
  response_types: [],
  redirect_uris: [],
  token_endpoint_auth_method: 'client_secret_basic',
  scope: ['articles:read'],
  client_id_issued_at: NOW - UNCLAIMED_CLIENT_TTL_SECONDS - 100,
  registration_type: 'anonymous',
  claim: { status, token_sha256: status === 'claimed' ? null : 'd', token_expires_at: NOW },
  expires_at: expiresAt,
  last_used_at: lastUsedAt,
});
const grant = (id: string, endsAt: number) => ({
  grant_id: id,
  client_id: 'agt_live',
  subject: 's',
  scope: 'content:export',
  resource: 'r',
  created_at: 0,
  ends_at: endsAt,
  revoked_at: null,
  access_tokens: [],
});

describe('sweepOAuthStore', () => {
  it('removes what has expired and keeps everything live; claimed clients expire after a year idle', async () => {
    const store = blobs.store('oauth');
    const records: Record<string, unknown> = {
      'client/agt_stale': client('agt_stale', NOW - 1, 'unclaimed'),
      'client/agt_live': client('agt_live', NOW + 100, 'unclaimed'),
      'client/agt_claimed': client('agt_claimed', NOW + 100, 'claimed'),
      'client/agt_claimed_idle': client('agt_claimed_idle', NOW - 1, 'claimed'),
      // Claimed before claimed clients expired (expires_at null): a year after last use.
      'client/agt_claimed_legacy': client('agt_claimed_legacy', null, 'claimed', NOW - CLAIMED_CLIENT_TTL_SECONDS - 1),
      'client/agt_claimed_legacy_live': client('agt_claimed_legacy_live', null, 'claimed', NOW - 10),
      'claimtoken/aa': { client_id: 'agt_stale' },
      'claimtoken/bb': { client_id: 'agt_live' },
      'code/old': { expires_at: NOW - 4000 },
      'code/new': { expires_at: NOW - 10 },
      'code-used/old': { tokens: [], expires_at: NOW - 1 },
      'code-used/new': { tokens: [], expires_at: NOW + 3000 },
      'code-replayed/old': { expires_at: NOW - 1 },
      'claim/old': { expires_at: NOW - 4000 },
      'usercode/old': { expires_at: NOW - 1 },
      'usercode/new': { expires_at: NOW + 60 },
      'revoked/old': { jti: 'old', exp: NOW - 1 },
      'revoked/new': { jti: 'new', exp: NOW + 60 },
      // A grant is kept until it ended and its last access token expired.
      'grant/old': grant('old', NOW - 3600 - 31),
      'grant/new': grant('new', NOW - 3600 + 60),
      'refresh/old': { grant_id: 'old', client_id: 'agt_live', issued_at: 0, expires_at: NOW - 1, used_at: null },
      'refresh/new': { grant_id: 'new', client_id: 'agt_live', issued_at: 0, expires_at: NOW + 60, used_at: null },
      'answered/old': { expires_at: NOW - 1 },
      'answered/new': { expires_at: NOW + 60 },
    };
    for (const [key, value] of Object.entries(records)) await store.set(key, value);
    const counts = await sweepOAuthStore(store, NOW);
    expect(counts).toEqual({
      clients: 3,
      claimTokens: 1,
      codes: 1,
      codeUses: 2,
      claimAttempts: 1,
      userCodes: 1,
      revocations: 1,
      grants: 1,
      refreshTokens: 1,
      answeredTickets: 1,
    });
    expect((await store.list()).sort()).toEqual([
      'answered/new',
      'claimtoken/bb',
      'client/agt_claimed',
      'client/agt_claimed_legacy_live',
      'client/agt_live',
      'code-used/new',
      'code/new',
      'grant/new',
      'refresh/new',
      'revoked/new',
      'usercode/new',
    ]);
    // A second run finds nothing more to do.
    expect(Object.values(await sweepOAuthStore(store, NOW)).every((n) => n === 0)).toBe(true);
  });
});
