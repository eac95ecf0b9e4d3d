/**
 * Registered clients (RFC 7591) as stored in Blobs: `client/<client_id>`. Secrets and claim tokens
 * are kept only as SHA-256 digests.
 * @module
 */
import type { Store } from '../../kernel/store.ts';
import { hasInvisibleCharacters, withoutInvisibleCharacters } from '../../kernel/visible-text.ts';
import { CLAIMED_CLIENT_TTL_SECONDS, type Scope, UNCLAIMED_CLIENT_TTL_SECONDS } from '../config.ts';

export const GRANT_TYPES = ['client_credentials', 'authorization_code', 'refresh_token'] as const;
export type GrantType = (typeof GRANT_TYPES)[number];
export const AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'none'] as const;
export type AuthMethod = (typeof AUTH_METHODS)[number];

/** RFC 7591 §2 metadata kept only to be echoed back (never shown as verified, never fetched). */
export interface DescriptiveMetadata {
  application_type?: 'web' | 'native';
  client_uri?: string;
  logo_uri?: string;
  software_id?: string;
  software_version?: string;
}

export interface ClientRecord extends DescriptiveMetadata {
  client_id: string;
  client_secret_sha256: string | null;
  client_name: string;
  grant_types: GrantType[];
  response_types: 'code'[];
  redirect_uris: string[];
  /**
   * What the client registered (or the RFC 7591 default, client_secret_basic). A confidential
   * client may send its secret either way (see client-auth.ts); `none` means a public client.
   */
  token_endpoint_auth_method: AuthMethod;
  scope: Scope[];
  client_id_issued_at: number;
  /** `metadata_document`: a Client ID Metadata Document client, built from its document on each use, never stored. */
  registration_type: 'anonymous' | 'metadata_document';
  claim: {
    status: 'unclaimed' | 'claimed';
    /** Digest of the claim token; null once spent. */
    token_sha256: string | null;
    token_expires_at: number;
    /** Digest of the live claim attempt (the newest one started). */
    attempt_sha256?: string | null;
    claimed_at?: number;
  };
  /**
   * Epoch seconds; pushed forward on use (30 days unclaimed, a year claimed). The client expires
   * when it passes. Null only in records claimed before claimed clients expired (see expiresAt).
   */
  expires_at: number | null;
  last_used_at: number;
}

/**
 * A client name for a page: invisible and control characters dropped (names registered before they
 * were refused; src/core/kernel/visible-text.ts), HTML-escaped and isolated in `<bdi>`, so
 * right-to-left text cannot reorder what follows it.
 */
export function clientNameHtml(name: string, escapeHtml: (text: string) => string): string {
  return `<bdi>${escapeHtml(plainClientName(name))}</bdi>`;
}

/** A client name with invisible and control characters dropped (for a page title, where no markup is possible). */
export function plainClientName(name: string): string {
  return withoutInvisibleCharacters(name);
}

/**
 * Why a client name cannot be shown, or null: it must read the same to a person on the consent page
 * and to a model reading the page (no control, bidirectional, zero-width or tag characters).
 */
export function clientNameProblem(name: string): string | null {
  return hasInvisibleCharacters(name)
    ? 'client_name must not contain control, invisible or bidirectional-formatting characters (zero-width, tag or separator characters included)'
    : null;
}

export const clientKey = (clientId: string): string => `client/${clientId}`;

export async function getClient(store: Store, clientId: string): Promise<ClientRecord | null> {
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(clientId)) return null;
  const found = await store.get<ClientRecord>(clientKey(clientId));
  return found?.value ?? null;
}

/** When a registration expires: its `expires_at`, or a year after last use for records claimed before claims expired. */
export function expiresAt(client: ClientRecord): number {
  return client.expires_at ?? client.last_used_at + CLAIMED_CLIENT_TTL_SECONDS;
}

/** Idle lifetime after a use: a year once claimed, 30 days before. */
export function idleLifetimeSeconds(client: Pick<ClientRecord, 'claim'>): number {
  return client.claim.status === 'claimed' ? CLAIMED_CLIENT_TTL_SECONDS : UNCLAIMED_CLIENT_TTL_SECONDS;
}

/** Whether a registration has expired. */
export function isExpired(client: ClientRecord, nowSeconds: number): boolean {
  return expiresAt(client) <= nowSeconds;
}
