/**
 * Client IP addresses are never stored: rate-limit keys and enquiry records hold a keyed digest,
 * HMAC-SHA-256 with a server secret. A plain SHA-256 of an IPv4 address is reversed by hashing all
 * 2^32 addresses; without the secret the digest reveals nothing, while the same address still maps
 * to the same key, so limits keep working.
 *
 * The secret comes from `IP_DIGEST_SECRET` when the operator sets one; otherwise it is generated
 * once and kept in the `keys` store (create-only, so concurrent first requests agree on one).
 * @module
 */
import type { Store } from './store.ts';

/** Shortest accepted secret (256 bits of base64url text). */
export const IP_DIGEST_SECRET_MIN_LENGTH = 32;
const GENERATED_SECRET_KEY = 'ip-digest-secret';

function hex(bytes: ArrayBuffer): string {
  return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** The imported key of the secret last used (an instance has one secret; importing per request is waste). */
let cachedKey: { secret: string; key: Promise<CryptoKey> } | undefined;

/** HMAC-SHA-256 of `ip` under `secret`, as hex. */
export async function ipDigest(secret: string, ip: string): Promise<string> {
  if (cachedKey?.secret !== secret) {
    cachedKey = {
      secret,
      key: crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']),
    };
  }
  return hex(await crypto.subtle.sign('HMAC', await cachedKey.key, new TextEncoder().encode(ip)));
}

/** The operator's secret, or the one generated and stored on first use. */
export async function loadIpDigestSecret(input: { envValue: string | undefined | null; store: Store }): Promise<string> {
  if (input.envValue) return input.envValue;
  const found = await input.store.get<{ secret: string }>(GENERATED_SECRET_KEY);
  if (found) return found.value.secret;
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const secret = btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
  await input.store.set(GENERATED_SECRET_KEY, { secret }, { onlyIfNew: true });
  // Another instance may have written first: everyone uses the stored one.
  const stored = await input.store.get<{ secret: string }>(GENERATED_SECRET_KEY);
  if (!stored) throw new Error('The IP digest secret could not be stored');
  return stored.value.secret;
}
