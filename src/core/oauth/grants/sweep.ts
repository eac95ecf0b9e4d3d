/**
 * Housekeeping of the `oauth` store: what each record kind lives for, for the expiry-index sweep
 * (src/core/kernel/expiry.ts), which removes records in bounded time at any store size. Each record
 * kind carries its own end; registrations, claimed ones included, expire after their idle lifetime
 * (clients.ts), and a claim-token index lives as long as its registration.
 * @module
 */
import type { SweepPolicy } from '../../kernel/expiry.ts';
import { expiresAt as clientExpiresAt, clientKey, type ClientRecord } from './clients.ts';
import { grantKeepUntil, type GrantRecord } from './grants.ts';

/** Records without their own expiry field are kept this long after the one they depend on. */
export const ORPHAN_GRACE_SECONDS = 3600;

type WithExpiry = { expires_at: number };

/** The end of each `oauth` record kind, by key prefix. */
export const OAUTH_SWEEP_POLICY: SweepPolicy = {
  async expiresAt(key, value, store) {
    const kind = key.slice(0, key.indexOf('/') + 1);
    switch (kind) {
      case 'client/':
        return clientExpiresAt(value as ClientRecord);
      case 'claimtoken/': {
        const client = await store.get<ClientRecord>(clientKey((value as { client_id: string }).client_id));
        return client ? clientExpiresAt(client.value) : 0;
      }
      case 'code/':
      case 'claim/':
        return (value as WithExpiry).expires_at + ORPHAN_GRACE_SECONDS;
      // `code-replayed/` flags are from an earlier version: same lifetime as the use marker.
      case 'code-used/':
      case 'code-replayed/':
      case 'refresh/':
      case 'answered/':
      case 'usercode/':
        return (value as WithExpiry).expires_at;
      case 'grant/':
        return grantKeepUntil(value as GrantRecord);
      case 'revoked/':
        return (value as { exp: number }).exp;
      default:
        return null;
    }
  },
  legacyPrefixes: [
    'client/',
    'claimtoken/',
    'code/',
    'code-used/',
    'code-replayed/',
    'grant/',
    'refresh/',
    'answered/',
    'claim/',
    'usercode/',
    'revoked/',
  ],
};
