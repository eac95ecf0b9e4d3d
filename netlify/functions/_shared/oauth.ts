/** OAuth wiring: config from the build origin, signing keys (env or Blobs, cached briefly), stores. */
import { oauthConfig } from '../../../src/core/oauth/config.ts';
import type { OAuthDeps } from '../../../src/core/oauth/deps.ts';
import { keySetOf, loadKeyRecords, type KeySet } from '../../../src/core/oauth/grants/keys.ts';
import { ClientMetadataResolver } from '../../../src/core/oauth/grants/client-metadata-document.ts';
import { clientMetadataFetcher } from './client-metadata-fetch.ts';
import { build, runtimeConfig, stores } from './deps.ts';

export const oauth = oauthConfig(build.origin);
export const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** Keys are re-read at most this often, so a rotation reaches every instance within a minute. */
const KEY_CACHE_SECONDS = 60;
let cached: { at: number; keys: Promise<KeySet> } | undefined;

export function signingKeys(): Promise<KeySet> {
  const now = nowSeconds();
  if (!cached || now - cached.at > KEY_CACHE_SECONDS) {
    const keys = loadKeyRecords({ envValue: runtimeConfig().oauthSigningKeys ?? undefined, store: stores('keys'), nowSeconds: now }).then(
      (records) => keySetOf(records, now),
    );
    keys.catch(() => (cached = undefined));
    cached = { at: now, keys };
  }
  return cached.keys;
}

/** One per instance: it caches documents as their HTTP caching allows. */
const clientMetadata = new ClientMetadataResolver(clientMetadataFetcher(build.origin), oauth.issuer);

export const clientsStore = (): ReturnType<typeof stores> => stores('oauth');

/** What every authorization-server endpoint needs; clients and grants share the `oauth` store. */
export function oauthDeps(): OAuthDeps {
  const store = clientsStore();
  return {
    config: oauth,
    clients: store,
    grants: store,
    keys: signingKeys,
    nowSeconds,
    clientMetadata,
    accessTokenTtlSeconds: runtimeConfig().accessTokenTtlSeconds,
  };
}
