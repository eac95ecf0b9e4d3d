/** What every authorization-server endpoint is given by its adapter. @module */
import type { Usage } from '../kernel/metrics.ts';
import type { Store } from '../kernel/store.ts';
import type { ResolveClientMetadata } from './grants/client-lookup.ts';
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
  clientMetadata?: ResolveClientMetadata | undefined;
  /** Lifetime of new access tokens: ACCESS_TOKEN_TTL_SECONDS unless the operator set another. */
  accessTokenTtlSeconds?: number;
  /** What this request counts (kernel/metrics.ts): registrations by kind, tokens by grant. */
  usage?: Pick<Usage, 'count'>;
}
