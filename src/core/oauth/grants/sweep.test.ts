import { describe, expect, it } from 'vitest';
import { useBlobs } from '../../../../tests/support/blobs.ts';
import type { ClientRecord } from './clients.ts';
import { CLAIMED_CLIENT_TTL_SECONDS, UNCLAIMED_CLIENT_TTL_SECONDS } from '../config.ts';
import { OAUTH_SWEEP_POLICY } from './sweep.ts';
import { expiryIndexKey, setExpiring, sweepExpired } from '../../kernel/expiry.ts';
import { memoryStore } from '../../kernel/memory-store.ts';
import type { Store } from '../../kernel/store.ts';

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

/** One sweep run as the hourly function makes it, with time to spare. */
const sweep = (store: Store, now = NOW) =>
  sweepExpired(store, OAUTH_SWEEP_POLICY, { nowSeconds: now, clockMs: Date.now, budgetMs: 60_000 });
const DAY = 86_400;

describe('the oauth sweep', () => {
  it('records from before the expiry index: removes what has expired, keeps everything live; claimed clients expire after a year idle', async () => {
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
    const report = await sweep(store);
    expect(report.deleted).toEqual({
      client: 3,
      claimtoken: 1,
      code: 1,
      'code-used': 1,
      'code-replayed': 1,
      claim: 1,
      usercode: 1,
      revoked: 1,
      grant: 1,
      refresh: 1,
      answered: 1,
    });
    expect(report.done).toBe(true);
    // The live ones are now in the expiry index, under the day each one ends.
    expect((await store.list()).filter((k) => !k.startsWith('expires/') && !k.startsWith('sweep/')).sort()).toEqual([
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
    expect(await store.list('expires/')).toContain(expiryIndexKey('client/agt_live', NOW + 100));
    // A second run finds nothing more to do.
    expect((await sweep(store)).deleted).toEqual({});
  });

  it('records written with their expiry go on the day they end, and not before', async () => {
    const store = memoryStore();
    await setExpiring(store, 'code/a', { expires_at: NOW }, NOW);
    await setExpiring(store, 'revoked/j', { jti: 'j', exp: NOW + 3 * DAY }, NOW + 3 * DAY);
    await sweep(store, NOW);
    expect((await sweep(store, NOW + DAY)).deleted).toEqual({ code: 1 });
    expect(await store.get('revoked/j')).not.toBeNull();
    expect((await sweep(store, NOW + 2 * DAY)).deleted).toEqual({});
    expect((await sweep(store, NOW + 4 * DAY)).deleted).toEqual({ revoked: 1 });
    expect(await store.list('expires/')).toEqual([]);
  });

  it('a registration used again is indexed under its new end; its claim-token index goes with it', async () => {
    const store = memoryStore();
    const record = client('agt_used', NOW + DAY, 'unclaimed');
    await setExpiring(store, 'claimtoken/cc', { client_id: 'agt_used' }, NOW + DAY);
    await setExpiring(store, 'client/agt_used', record, NOW + DAY);
    await sweep(store, NOW);
    // Used again: its end moves 30 days on (touchClient), without a new index entry.
    await store.set('client/agt_used', { ...record, expires_at: NOW + 31 * DAY });
    const moved = await sweep(store, NOW + 2 * DAY);
    expect(moved.deleted).toEqual({});
    expect(moved.reindexed).toBe(2);
    expect((await store.list('expires/')).sort()).toEqual([
      expiryIndexKey('claimtoken/cc', NOW + 31 * DAY),
      expiryIndexKey('client/agt_used', NOW + 31 * DAY),
    ]);
    expect((await sweep(store, NOW + 32 * DAY)).deleted).toEqual({ client: 1, claimtoken: 1 });
  });
});
