/**
 * Daily clean-up of the `oauth` store: removes every record whose purpose has passed, so the store
 * does not grow with abandoned anonymous registrations. Each record kind carries its own expiry.
 * @module
 */
import type { Store } from '../storage/store.ts';
import type { ClaimAttemptRecord } from './claim.ts';
import { isExpired, type ClientRecord } from './clients.ts';
import type { CodeRecord, CodeReplayRecord, CodeUseRecord } from './codes.ts';

export interface SweepCounts {
  clients: number;
  claimTokens: number;
  codes: number;
  codeUses: number;
  claimAttempts: number;
  userCodes: number;
  revocations: number;
}

/** Records without their own expiry field keep this long after the one they depend on. */
const ORPHAN_GRACE_SECONDS = 3600;

/** Deletes expired records; returns how many of each kind went. */
export async function sweepOAuthStore(store: Store, nowSeconds: number): Promise<SweepCounts> {
  const counts: SweepCounts = { clients: 0, claimTokens: 0, codes: 0, codeUses: 0, claimAttempts: 0, userCodes: 0, revocations: 0 };
  const keys = await store.list();
  const liveClients = new Set<string>();
  const expiredAt = async <T>(key: string, expiry: (value: T) => number | null): Promise<boolean> => {
    const record = await store.get<T>(key);
    if (!record) return false;
    const at = expiry(record.value);
    if (at === null || at > nowSeconds) return false;
    await store.delete(key);
    return true;
  };
  for (const key of keys.filter((k) => k.startsWith('client/'))) {
    const record = await store.get<ClientRecord>(key);
    if (!record) continue;
    if (isExpired(record.value, nowSeconds)) {
      await store.delete(key);
      counts.clients++;
    } else {
      liveClients.add(record.value.client_id);
    }
  }
  for (const key of keys) {
    if (key.startsWith('claimtoken/')) {
      const record = await store.get<{ client_id: string }>(key);
      if (record && !liveClients.has(record.value.client_id)) {
        await store.delete(key);
        counts.claimTokens++;
      }
    } else if (key.startsWith('code/')) {
      if (await expiredAt<CodeRecord>(key, (r) => r.expires_at + ORPHAN_GRACE_SECONDS)) counts.codes++;
    } else if (key.startsWith('code-used/')) {
      if (await expiredAt<CodeUseRecord>(key, (r) => r.expires_at)) counts.codeUses++;
    } else if (key.startsWith('code-replayed/')) {
      if (await expiredAt<CodeReplayRecord>(key, (r) => r.expires_at)) counts.codeUses++;
    } else if (key.startsWith('claim/')) {
      if (await expiredAt<ClaimAttemptRecord>(key, (r) => r.expires_at + ORPHAN_GRACE_SECONDS)) counts.claimAttempts++;
    } else if (key.startsWith('usercode/')) {
      if (await expiredAt<{ expires_at: number }>(key, (r) => r.expires_at)) counts.userCodes++;
    } else if (key.startsWith('revoked/')) {
      if (await expiredAt<{ exp: number }>(key, (r) => r.exp)) counts.revocations++;
    }
  }
  return counts;
}
