/**
 * Daily clean-up of the `oauth` store: removes every record whose purpose has passed, so the store
 * does not grow with abandoned anonymous registrations. Each record kind carries its own expiry;
 * registrations, claimed ones included, expire after their idle lifetime (clients.ts).
 * @module
 */
import type { Store } from '../../kernel/store.ts';
import type { ClaimAttemptRecord } from '../endpoints/claim.ts';
import { isExpired, type ClientRecord } from './clients.ts';
import type { CodeRecord, CodeUseRecord } from './codes.ts';
import type { TicketAnswerRecord } from '../endpoints/interaction.ts';
import { grantKeepUntil, type GrantRecord, type RefreshTokenRecord } from './grants.ts';

export interface SweepCounts {
  clients: number;
  claimTokens: number;
  codes: number;
  codeUses: number;
  claimAttempts: number;
  userCodes: number;
  revocations: number;
  grants: number;
  refreshTokens: number;
  answeredTickets: number;
}

/** Records without their own expiry field keep this long after the one they depend on. */
const ORPHAN_GRACE_SECONDS = 3600;

/** Deletes expired records; returns how many of each kind went. */
export async function sweepOAuthStore(store: Store, nowSeconds: number): Promise<SweepCounts> {
  const counts: SweepCounts = {
    clients: 0,
    claimTokens: 0,
    codes: 0,
    codeUses: 0,
    claimAttempts: 0,
    userCodes: 0,
    revocations: 0,
    grants: 0,
    refreshTokens: 0,
    answeredTickets: 0,
  };
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
      // Replay flags of an earlier version: same lifetime as the use marker.
      if (await expiredAt<{ expires_at: number }>(key, (r) => r.expires_at)) counts.codeUses++;
    } else if (key.startsWith('grant/')) {
      if (await expiredAt<GrantRecord>(key, grantKeepUntil)) counts.grants++;
    } else if (key.startsWith('answered/')) {
      if (await expiredAt<TicketAnswerRecord>(key, (r) => r.expires_at)) counts.answeredTickets++;
    } else if (key.startsWith('refresh/')) {
      if (await expiredAt<RefreshTokenRecord>(key, (r) => r.expires_at)) counts.refreshTokens++;
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
