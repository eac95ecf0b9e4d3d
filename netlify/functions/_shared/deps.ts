/**
 * The one place that wires Netlify (environment, client IP, Blobs, build artefacts) to the core.
 * Small build artefacts are imported as JSON, so Netlify's bundler inlines them into each function;
 * the large ones (the sharded search index and catalogue) are files shipped beside the function
 * (netlify.toml `included_files`) and read as an answer needs them; article bodies are in the
 * deploy's Blobs store (BENCHMARKS.md, "Production at scale").
 */
import { readFileSync } from 'node:fs';
import type { Context } from '@netlify/functions';
import { getDeployStore } from '@netlify/blobs';
import buildInfo from '../../../generated/build-info.json' with { type: 'json' };
import siteProfileData from '../../../generated/data/site-profile.json' with { type: 'json' };
import snapshotData from '../../../generated/data/tweets-snapshot.json' with { type: 'json' };
import { parseTweetFeed, type TweetFeed } from '../../../src/core/tweets/tweets.ts';
import { bodyKey, type BodySource, type SiteProfile } from '../../../src/core/content/catalog.ts';
import { loadShardedCatalog, type CatalogReader } from '../../../src/core/content/catalog-reader.ts';
import { parseRuntimeConfig, type RuntimeConfig } from '../../../src/core/config.ts';
import { ipDigest, loadIpDigestSecret } from '../../../src/core/kernel/ip-digest.ts';
import { clientNetwork } from '../../../src/core/kernel/ip-ranges.ts';
import { siteUserAgent } from '../../../src/core/kernel/user-agent.ts';
import type { StoreFactory } from '../../../src/core/kernel/store.ts';
import { blobsStores } from './blobs-store.ts';

declare const Netlify: { env: { toObject(): Record<string, string> } } | undefined;

function environment(): Record<string, string | undefined> {
  return typeof Netlify !== 'undefined' ? Netlify.env.toObject() : process.env;
}

/** Build facts (origin, version, commit, time) written by the build. */
export const build = buildInfo as { origin: string; version: string; commit: string; built_at: string };
/** The User-Agent of every outbound request of this site: signed fetches and webhooks, metadata documents, key directories. */
export const SITE_USER_AGENT = siteUserAgent(build.origin);
/**
 * The catalogue without bodies, sharded (generated/data/catalog/, written by the build): its head
 * is read on the first call, each other file when an answer first needs it, all kept for the
 * instance. Entries name the folder relative to their own URL (`new URL('../../generated/data/catalog/',
 * import.meta.url)`): the repository and Netlify's function archive have the same layout (the
 * bundle at netlify/functions/<name>.mjs, included files at their path from the repository root;
 * `npm run deploy:check` runs a function from its archive to prove it).
 */
export function catalogAt(dir: URL): () => CatalogReader {
  let catalog: CatalogReader | undefined;
  return () => (catalog ??= loadShardedCatalog((file) => readFileSync(new URL(file, dir))));
}

/** Article and solution bodies from the deploy's Blobs store, where the build put them (src/astro/integrations/site-data.ts). */
export const deployBodies: BodySource = async (slug) => (await getDeployStore().get(bodyKey(slug), { type: 'text' })) ?? undefined;
/** Company, categories, products: all any other function needs; small however many articles there are. */
export const site = siteProfileData as unknown as SiteProfile;
export const tweetSnapshot: TweetFeed = parseTweetFeed(snapshotData);

let config: RuntimeConfig | undefined;
/** Runtime configuration, parsed on first use (a bad variable fails the request loudly, not the deploy). */
export function runtimeConfig(): RuntimeConfig {
  config ??= parseRuntimeConfig(environment());
  return config;
}

export const stores: StoreFactory = blobsStores;

/** The client's IP as Netlify reports it. */
export function clientIp(context: Pick<Context, 'ip'>): string {
  return context.ip || '0.0.0.0';
}

let ipSecret: Promise<string> | undefined;
/**
 * The keyed digest of the client's network (its IPv4 address or IPv6 /64, src/core/kernel/ip-ranges.ts
 * `clientNetwork`): what rate limits and enquiry records use instead of the address.
 */
export function clientNetworkDigest(context: Pick<Context, 'ip'>): Promise<string> {
  return networkDigest(clientNetwork(clientIp(context)));
}

/** The keyed digest of a client network (kernel/ip-ranges.ts clientNetwork). */
export async function networkDigest(network: string): Promise<string> {
  ipSecret ??= loadIpDigestSecret({ envValue: runtimeConfig().ipDigestSecret, store: stores('keys') });
  ipSecret.catch(() => (ipSecret = undefined));
  return ipDigest(await ipSecret, network);
}

export const now = (): number => Date.now();
export const newId = (): string => crypto.randomUUID();
