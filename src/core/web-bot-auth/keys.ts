/**
 * Ed25519 keys that sign the site's own outbound requests (Web Bot Auth) and its key directory.
 *
 * A key set is a JWKS of private Ed25519 JWKs, newest first, each with `kid` = its RFC 7638 / RFC
 * 8037 §A.3 thumbprint (what the drafts require for `keyid`), `nbf` (when it starts signing) and,
 * once a newer key replaces it, `exp` (when it leaves the directory). `nbf`/`exp` are the members
 * the httpsig-protocol draft's directory example carries.
 *
 * Rotation publishes the new key at once but lets it sign only {@link PREPUBLISH_SECONDS} later,
 * so every receiver's cached copy of the directory (cached for {@link DIRECTORY_MAX_AGE_SECONDS})
 * already lists it; the old key keeps signing until then and stays published
 * {@link RETIREMENT_OVERLAP_SECONDS} longer, so signatures it made while in flight still verify.
 *
 * Production keys come from `WEB_BOT_AUTH_SIGNING_KEYS`; locally a key is generated on first use
 * and kept in Blobs (`keys/web-bot-auth`).
 * @module
 */
import * as v from 'valibot';
import type { Signer } from 'web-bot-auth';
import { helpers, jwkToKeyID } from 'web-bot-auth';
import { signerFromJWK } from 'web-bot-auth/crypto';
import type { Store } from '../kernel/store.ts';

/** A request signature is valid this long: a delivery is signed just before it is sent (each retry anew). */
export const SIGNATURE_LIFETIME_SECONDS = 300;
/** How long receivers may cache the directory (its `Cache-Control: max-age`). */
export const DIRECTORY_MAX_AGE_SECONDS = 3600;
/** A rotated key is in the directory this long before it signs: one directory cache lifetime. */
export const PREPUBLISH_SECONDS = DIRECTORY_MAX_AGE_SECONDS;
/** Allowance for clocks that disagree between us and a receiver. */
export const CLOCK_SKEW_SECONDS = 60;
/** A replaced key stays published this long after its successor starts signing. */
export const RETIREMENT_OVERLAP_SECONDS = SIGNATURE_LIFETIME_SECONDS + CLOCK_SKEW_SECONDS;
/** Blobs record (store `keys`) of the locally generated key set. */
export const KEYS_RECORD = 'web-bot-auth';
/** The environment variable production keys come from. */
export const KEYS_ENV = 'WEB_BOT_AUTH_SIGNING_KEYS';

const base64url = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]+$/, 'expected base64url'));
const epochSeconds = v.pipe(v.number(), v.integer(), v.minValue(0));

/** One private key as kept in the environment or Blobs. */
export const SigningJwkSchema = v.object({
  kty: v.literal('OKP', 'kty must be "OKP"'),
  crv: v.literal('Ed25519', 'crv must be "Ed25519"'),
  x: v.pipe(base64url, v.length(43, 'x must be a 32-byte Ed25519 public key')),
  d: v.pipe(base64url, v.length(43, 'd must be a 32-byte Ed25519 private key')),
  kid: base64url,
  use: v.optional(v.literal('sig')),
  nbf: epochSeconds,
  exp: v.optional(epochSeconds),
});
export type SigningJwk = v.InferOutput<typeof SigningJwkSchema>;

/** The key set: a JWKS, newest first. */
export const SigningJwksSchema = v.object({ keys: v.pipe(v.array(SigningJwkSchema), v.minLength(1, 'keys must hold at least one key')) });

/** A public key as the directory lists it. */
export interface PublicJwk {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  kid: string;
  use: 'sig';
  nbf: number;
  exp?: number;
}

/** What signing and the directory need, ready to use. */
export interface SigningKeySet {
  /** Signs outbound requests now: the newest published key whose `nbf` has passed. */
  active: Signer;
  /** Every published key, newest first (the directory's `keys`). */
  published: PublicJwk[];
  /** One signer per published key (the directory signs its response with each). */
  signers: Signer[];
}

/** The RFC 7638 thumbprint of an Ed25519 JWK (base64url SHA-256 over `crv`, `kty`, `x`): `kid` and `keyid`. */
export function thumbprint(jwk: Pick<SigningJwk, 'kty' | 'crv' | 'x'>): Promise<string> {
  return jwkToKeyID({ kty: jwk.kty, crv: jwk.crv, x: jwk.x }, helpers.WEBCRYPTO_SHA256, helpers.BASE64URL_DECODE);
}

/** A new key that signs from `nbf` on. */
export async function generateSigningKey(nbf: number): Promise<SigningJwk> {
  const pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as CryptoKeyPair;
  const { x, d } = (await crypto.subtle.exportKey('jwk', pair.privateKey)) as { x: string; d: string };
  return { kty: 'OKP', crv: 'Ed25519', x, d, kid: await thumbprint({ kty: 'OKP', crv: 'Ed25519', x }), use: 'sig', nbf };
}

/** Keys still published at `nowSeconds`, newest first. */
export function publishedKeys(keys: readonly SigningJwk[], nowSeconds: number): SigningJwk[] {
  return keys.filter((k) => k.exp === undefined || k.exp > nowSeconds).sort((a, b) => b.nbf - a.nbf);
}

/**
 * Adds a key that signs from `nowSeconds + PREPUBLISH_SECONDS` on; every older key without an
 * expiry gets one: the new key's start plus {@link RETIREMENT_OVERLAP_SECONDS}. Expired keys are dropped.
 */
export async function rotateKeys(keys: readonly SigningJwk[], nowSeconds: number): Promise<SigningJwk[]> {
  const next = await generateSigningKey(keys.length === 0 ? nowSeconds : nowSeconds + PREPUBLISH_SECONDS);
  const retireAt = next.nbf + RETIREMENT_OVERLAP_SECONDS;
  return [next, ...publishedKeys(keys, nowSeconds).map((k) => (k.exp === undefined ? { ...k, exp: retireAt } : k))];
}

/** The public half, as published. */
export function publicJwk(key: SigningJwk): PublicJwk {
  return {
    kty: key.kty,
    crv: key.crv,
    x: key.x,
    kid: key.kid,
    use: 'sig',
    nbf: key.nbf,
    ...(key.exp === undefined ? {} : { exp: key.exp }),
  };
}

/**
 * Parses a key set (the `WEB_BOT_AUTH_SIGNING_KEYS` value, or what `npm run keys` printed).
 * @throws Error naming the problem, so a misconfigured deploy fails loudly.
 */
export function parseSigningKeys(json: string): SigningJwk[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (cause) {
    throw new Error(`${KEYS_ENV} is not JSON`, { cause });
  }
  const result = v.safeParse(SigningJwksSchema, parsed);
  if (!result.success) throw new Error(`${KEYS_ENV}: ${v.getDotPath(result.issues[0]) ?? '(root)'}: ${result.issues[0].message}`);
  return result.output.keys;
}

/** Imported signers by key material: a set is resolved per request, and a WebCrypto import per request would be wasted work. */
const importedSigners = new Map<string, Promise<Signer>>();

function importedSigner(key: SigningJwk): Promise<Signer> {
  const id = `${key.x}.${key.d}`;
  let signer = importedSigners.get(id);
  if (!signer) {
    if (importedSigners.size > 16) importedSigners.clear();
    signer = signerFromJWK({ kty: key.kty, crv: key.crv, x: key.x, d: key.d });
    signer.catch(() => importedSigners.delete(id));
    importedSigners.set(id, signer);
  }
  return signer;
}

/**
 * The key set in force at `nowSeconds` (which key signs, which are published); cheap to call per
 * request, so a handover happens exactly at the new key's `nbf`.
 * @throws Error when a `kid` is not the key's thumbprint (receivers select keys by it) or no key signs now.
 */
export async function signingKeySet(keys: readonly SigningJwk[], nowSeconds: number): Promise<SigningKeySet> {
  const published = publishedKeys(keys, nowSeconds);
  const signers = await Promise.all(
    published.map(async (key) => {
      const expected = await thumbprint(key);
      if (key.kid !== expected) throw new Error(`Web Bot Auth key ${key.kid}: kid must be the key's JWK thumbprint (${expected})`);
      return importedSigner(key);
    }),
  );
  const activeIndex = published.findIndex((k) => k.nbf <= nowSeconds);
  if (activeIndex < 0)
    throw new Error('No Web Bot Auth signing key is valid now: rotate the keys (npm run keys -- --web-bot-auth --rotate)');
  return { active: signers[activeIndex]!, published: published.map(publicJwk), signers };
}

/**
 * The key set: from the environment when set, else from Blobs, generating the first key on first
 * use (create-if-new, so concurrent first requests agree on one key).
 */
export async function loadSigningKeys(options: {
  envKeys: readonly SigningJwk[] | null;
  store: Store;
  nowSeconds: number;
}): Promise<SigningJwk[]> {
  if (options.envKeys) return [...options.envKeys];
  const existing = await options.store.get<{ keys: SigningJwk[] }>(KEYS_RECORD);
  if (existing) return existing.value.keys;
  const created = { keys: [await generateSigningKey(options.nowSeconds)] };
  if ((await options.store.set(KEYS_RECORD, created, { onlyIfNew: true })).modified) return created.keys;
  const winner = await options.store.get<{ keys: SigningJwk[] }>(KEYS_RECORD);
  if (!winner) throw new Error('Web Bot Auth keys vanished during creation');
  return winner.value.keys;
}

/** Rotates the key set kept in Blobs (`npm run keys -- --web-bot-auth --rotate --local`). */
export async function rotateStoredKeys(store: Store, nowSeconds: number): Promise<SigningJwk[]> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const current = await store.get<{ keys: SigningJwk[] }>(KEYS_RECORD);
    const next = { keys: await rotateKeys(current?.value.keys ?? [], nowSeconds) };
    const written = current
      ? await store.set(KEYS_RECORD, next, { onlyIfMatch: current.etag })
      : await store.set(KEYS_RECORD, next, { onlyIfNew: true });
    if (written.modified) return next.keys;
  }
  throw new Error('Could not rotate the Web Bot Auth keys: concurrent writers');
}
