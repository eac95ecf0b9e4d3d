/**
 * Finding the client a request names: a registered `agt_…` id in the store, or an https URL naming
 * a Client ID Metadata Document (fetched and cached by the resolver, never stored).
 * @module
 */
import type { Store } from '../../kernel/store.ts';
import { isClientIdUrl } from './client-metadata-document.ts';
import { type ClientRecord, getClient } from './clients.ts';

/** A URL client id's client, from its metadata document (throws `invalid_client` or `rate_limited`). */
export type ResolveClientMetadata = (clientId: string, nowSeconds: number) => Promise<ClientRecord>;

export interface ClientLookupDeps {
  clients: Store;
  /**
   * Resolves a URL client id for this request (the adapter binds the per-instance resolver to who is
   * asking: ClientMetadataResolver.resolve). Absent: URL client ids are unknown clients.
   */
  clientMetadata?: ResolveClientMetadata | undefined;
}

/**
 * The client, or null when a registered id is unknown. A URL id whose document cannot be used
 * throws `invalid_client` saying why (so a client developer can fix the document).
 */
export async function findClient(deps: ClientLookupDeps, clientId: string, nowSeconds: number): Promise<ClientRecord | null> {
  if (!isClientIdUrl(clientId)) return getClient(deps.clients, clientId);
  return deps.clientMetadata ? deps.clientMetadata(clientId, nowSeconds) : null;
}
