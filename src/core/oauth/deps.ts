/** What every authorization-server endpoint is given by its adapter. @module */
import type { Store } from '../kernel/store.ts';
import type { ClientMetadataResolver } from './grants/client-metadata-document.ts';
import type { OAuthConfig } from './config.ts';
import type { KeySet } from './grants/keys.ts';

export interface OAuthDeps {
  config: OAuthConfig;
  /** Registered clients (`client/…`, `claimtoken/…`). */
  clients: Store;
  /** Codes, their use markers, claim attempts and the revocation list. */
  grants: Store;
  keys: () => Promise<KeySet>;
  nowSeconds: () => number;
  /** Resolves https `client_id`s (Client ID Metadata Documents); absent: only registered clients. */
  clientMetadata?: ClientMetadataResolver | undefined;
  /** Lifetime of new access tokens: ACCESS_TOKEN_TTL_SECONDS unless the operator set another. */
  accessTokenTtlSeconds?: number;
}
