/** OAuth wiring: config from the build origin, signing keys (env or Blobs, cached briefly), stores. */
import { oauthConfig } from '../../../src/core/oauth/config.ts';
import type { OAuthDeps } from '../../../src/core/oauth/deps.ts';
import { keySetOf, loadKeyRecords, type KeySet } from '../../../src/core/oauth/grants/keys.ts';
import type { Context } from '@netlify/functions';
import { CLIENT_METADATA_FETCHER_AGENT, ClientMetadataResolver } from '../../../src/core/oauth/grants/client-metadata-document.ts';
import { clientMetadataFetcher } from './client-metadata-fetch.ts';
import { addressKind } from '../../../src/core/kernel/ip-ranges.ts';
import { build, clientIp, clientNetworkDigest, runtimeConfig, SITE_USER_AGENT, stores } from './deps.ts';
import { usageOf } from './usage.ts';
import { isNetlifySiteHost } from './site-hosts.ts';

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

/** One per instance: it caches documents as their HTTP caching allows, and failures for a minute. */
const clientMetadata = new ClientMetadataResolver({
  fetch: clientMetadataFetcher(SITE_USER_AGENT),
  issuer: oauth.issuer,
  limits: () => stores('ratelimit'),
});

/** The request's facts an OAuth endpoint needs: its URL and headers, the client's IP, the site's own names. */
export type OAuthRequestContext = Pick<Context, 'ip' | 'site'>;

export const clientsStore = (): ReturnType<typeof stores> => stores('oauth');

/** What every authorization-server endpoint needs; clients and grants share the `oauth` store. */
export function oauthDeps(req: Request, context: OAuthRequestContext): OAuthDeps {
  const store = clientsStore();
  const usage = usageOf(context);
  const requester = {
    usage,
    network: () => clientNetworkDigest(context),
    requestOrigin: new URL(req.url).origin,
    fromMetadataFetcher: (req.headers.get('user-agent') ?? '').includes(CLIENT_METADATA_FETCHER_AGENT),
    isOwnHost: isNetlifySiteHost(context),
    fromLoopbackClient: addressKind(clientIp(context)) === 'loopback',
  };
  return {
    config: oauth,
    clients: store,
    grants: store,
    keys: signingKeys,
    nowSeconds,
    clientMetadata: (clientId, now) => clientMetadata.resolve(clientId, now, requester),
    accessTokenTtlSeconds: runtimeConfig().accessTokenTtlSeconds,
    usage,
  };
}
