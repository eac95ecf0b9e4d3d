/**
 * Signing keys for access tokens (RS256). The newest key signs; older keys stay published in the
 * JWKS until every token they signed has expired, so rotation never breaks a live token.
 * Production keys come from the `OAUTH_SIGNING_KEYS` environment variable; locally a key is
 * generated on first use and kept in Blobs (`keys/signing`).
 * @module
 */
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import type { Store } from '../../kernel/store.ts';
import { ACCESS_TOKEN_TTL_SECONDS, CLOCK_SKEW_SECONDS } from '../config.ts';

export const SIGNING_ALG = 'RS256';
const KEYS_RECORD = 'signing';
/** A retired key stays published this long after it stopped signing. */
export const RETIRED_KEY_GRACE_SECONDS = ACCESS_TOKEN_TTL_SECONDS + CLOCK_SKEW_SECONDS;

/** A stored key: the private JWK (with kid) and when it started / stopped signing. */
export interface KeyRecord {
  kid: string;
  private_jwk: JWK;
  created_at: number;
  /** Epoch seconds when a newer key took over; absent for the active key. */
  retired_at?: number;
}

export interface KeySet {
  /** The key that signs new tokens. */
  active: { kid: string; key: CryptoKey };
  /** Public JWKs of every key that may still verify a live token. */
  publicJwks: JWK[];
  /** Verification keys by kid. */
  verifiers: Map<string, CryptoKey>;
}

/** Generates a new RS256 key record. */
export async function generateKeyRecord(nowSeconds: number): Promise<KeyRecord> {
  const { privateKey } = await generateKeyPair(SIGNING_ALG, { extractable: true, modulusLength: 2048 });
  const jwk = await exportJWK(privateKey);
  const kid = await calculateJwkThumbprint(jwk);
  return { kid, private_jwk: { ...jwk, kid, alg: SIGNING_ALG, use: 'sig' }, created_at: nowSeconds };
}

/** The public half of a private RSA JWK. */
export function publicJwk(jwk: JWK): JWK {
  const { kty, n, e, kid, alg, use } = jwk;
  return { kty, n, e, kid, alg: alg ?? SIGNING_ALG, use: use ?? 'sig' };
}

/** Records to serve, newest first: drops retired keys whose grace period has passed. */
export function liveRecords(records: readonly KeyRecord[], nowSeconds: number): KeyRecord[] {
  return records
    .filter((r) => r.retired_at === undefined || r.retired_at + RETIRED_KEY_GRACE_SECONDS > nowSeconds)
    .sort((a, b) => b.created_at - a.created_at);
}

/** Adds a new active key and retires the previous one (rotation). */
export async function rotate(records: readonly KeyRecord[], nowSeconds: number): Promise<KeyRecord[]> {
  const next = await generateKeyRecord(nowSeconds);
  return [next, ...records.map((r) => (r.retired_at === undefined ? { ...r, retired_at: nowSeconds } : r))];
}

export async function keySetOf(records: readonly KeyRecord[], nowSeconds: number): Promise<KeySet> {
  const live = liveRecords(records, nowSeconds);
  const activeRecord = live.find((r) => r.retired_at === undefined);
  if (!activeRecord) throw new Error('No active signing key');
  const verifiers = new Map<string, CryptoKey>();
  for (const record of live) verifiers.set(record.kid, (await importJWK(publicJwk(record.private_jwk), SIGNING_ALG)) as CryptoKey);
  return {
    active: { kid: activeRecord.kid, key: (await importJWK(activeRecord.private_jwk, SIGNING_ALG)) as CryptoKey },
    publicJwks: live.map((r) => publicJwk(r.private_jwk)),
    verifiers,
  };
}

/**
 * Parses `OAUTH_SIGNING_KEYS`: a JSON array of key records (as printed by `npm run keys`).
 * @throws Error with the reason, so a misconfigured deploy fails closed.
 */
export function parseKeyRecords(json: string): KeyRecord[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (cause) {
    throw new Error('OAUTH_SIGNING_KEYS is not JSON', { cause });
  }
  if (!Array.isArray(parsed) || parsed.length === 0) throw new Error('OAUTH_SIGNING_KEYS must be a non-empty JSON array of key records');
  for (const record of parsed as KeyRecord[]) {
    if (
      typeof record?.kid !== 'string' ||
      typeof record.private_jwk?.d !== 'string' ||
      record.private_jwk.kty !== 'RSA' ||
      typeof record.created_at !== 'number'
    ) {
      throw new Error('OAUTH_SIGNING_KEYS entries need kid, created_at and an RSA private_jwk');
    }
  }
  return parsed as KeyRecord[];
}

/**
 * The key records: from the environment when set, else from Blobs, generating the first key on
 * first use (create-if-new, so concurrent first requests agree on one key).
 */
export async function loadKeyRecords(options: { envValue?: string | undefined; store: Store; nowSeconds: number }): Promise<KeyRecord[]> {
  if (options.envValue) return parseKeyRecords(options.envValue);
  const existing = await options.store.get<KeyRecord[]>(KEYS_RECORD);
  if (existing) return existing.value;
  const created = [await generateKeyRecord(options.nowSeconds)];
  const written = await options.store.set(KEYS_RECORD, created, { onlyIfNew: true });
  if (written.modified) return created;
  const winner = await options.store.get<KeyRecord[]>(KEYS_RECORD);
  if (!winner) throw new Error('Signing keys vanished during creation');
  return winner.value;
}

/** Rotates the keys kept in Blobs (local and `npm run keys -- --rotate --local`). */
export async function rotateStoredKeys(store: Store, nowSeconds: number): Promise<KeyRecord[]> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const current = await store.get<KeyRecord[]>(KEYS_RECORD);
    const next = await rotate(current?.value ?? [], nowSeconds);
    const written = current
      ? await store.set(KEYS_RECORD, next, { onlyIfMatch: current.etag })
      : await store.set(KEYS_RECORD, next, { onlyIfNew: true });
    if (written.modified) return next;
  }
  throw new Error('Could not rotate the signing keys: concurrent writers');
}
