/**
 * Registered clients (RFC 7591) as stored in Blobs: `client/<client_id>`. Secrets and claim tokens
 * are kept only as SHA-256 digests.
 * @module
 */
import type { Store } from '../storage/store.ts';
import type { Scope } from './config.ts';

export type GrantType = 'client_credentials' | 'authorization_code';
export type AuthMethod = 'client_secret_basic' | 'client_secret_post' | 'none';

export interface ClientRecord {
  client_id: string;
  client_secret_sha256: string | null;
  client_name: string;
  grant_types: GrantType[];
  response_types: ('code')[];
  redirect_uris: string[];
  token_endpoint_auth_method: AuthMethod;
  scope: Scope[];
  client_id_issued_at: number;
  registration_type: 'anonymous';
  claim: {
    status: 'unclaimed' | 'claimed';
    /** Digest of the claim token; null once spent. */
    token_sha256: string | null;
    token_expires_at: number;
    /** Digest of the live claim attempt (the newest one started). */
    attempt_sha256?: string | null;
    claimed_at?: number;
  };
  /** Epoch seconds; refreshed on use. Unclaimed clients expire when it passes. */
  expires_at: number | null;
  last_used_at: number;
}

export const clientKey = (clientId: string): string => `client/${clientId}`;

export async function getClient(store: Store, clientId: string): Promise<ClientRecord | null> {
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(clientId)) return null;
  const found = await store.get<ClientRecord>(clientKey(clientId));
  return found?.value ?? null;
}

/** Whether an unclaimed registration has expired. */
export function isExpired(client: ClientRecord, nowSeconds: number): boolean {
  return client.expires_at !== null && client.expires_at <= nowSeconds;
}
