/** Web Bot Auth wiring: the signing keys (environment or Blobs, cached briefly) and the signing fetch. */
import { loadSigningKeys, type SigningJwk, type SigningKeySet, signingKeySet } from '../../../src/core/web-bot-auth/keys.ts';
import { signingFetch } from '../../../src/core/web-bot-auth/sign.ts';
import { build, now, runtimeConfig, SITE_USER_AGENT, stores } from './deps.ts';

/** Keys are re-read at most this often, so a local rotation (Blobs) reaches every instance within a minute. */
const KEY_CACHE_SECONDS = 60;
let cached: { at: number; keys: Promise<SigningJwk[]> } | undefined;

/** The key set in force now (the keys are read at most once a minute; which one signs is decided per call). */
export async function webBotAuthKeys(): Promise<SigningKeySet> {
  const nowSeconds = Math.floor(now() / 1000);
  if (!cached || nowSeconds - cached.at > KEY_CACHE_SECONDS) {
    const keys = loadSigningKeys({ envKeys: runtimeConfig().webBotAuthKeys, store: stores('keys'), nowSeconds });
    keys.catch(() => (cached = undefined));
    cached = { at: nowSeconds, keys };
  }
  return signingKeySet(await cached.keys, nowSeconds);
}

/** `fetch` for the site's own outbound requests: each one signed with the active key, naming this origin. */
export const signedFetch: typeof fetch = signingFetch(fetch, async () => ({
  signer: (await webBotAuthKeys()).active,
  agentOrigin: build.origin,
  userAgent: SITE_USER_AGENT,
  now,
}));
