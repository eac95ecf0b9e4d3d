/**
 * RS256 JWT access tokens (RFC 9068): minting, and the resource server's validation including the
 * revocation list in Blobs.
 * @module
 */
import { decodeProtectedHeader, errors, jwtVerify, SignJWT } from 'jose';
import type { Store } from '../../kernel/store.ts';
import { setExpiring } from '../../kernel/expiry.ts';
import { ACCESS_TOKEN_TTL_SECONDS, CLOCK_SKEW_SECONDS } from '../config.ts';
import { SIGNING_ALG, type KeySet } from './keys.ts';
import { randomSecret } from '../../kernel/crypto.ts';

export interface AccessTokenClaims {
  iss: string;
  aud: string;
  sub: string;
  client_id: string;
  scope: string;
  jti: string;
  iat: number;
  exp: number;
}

/** Mints a token; returns it with its claims. */
export async function mintAccessToken(
  keys: KeySet,
  input: {
    issuer: string;
    audience: string;
    clientId: string;
    subject: string;
    scope: string;
    nowSeconds: number;
    ttlSeconds?: number | undefined;
  },
): Promise<{ token: string; claims: AccessTokenClaims }> {
  const claims: AccessTokenClaims = {
    iss: input.issuer,
    aud: input.audience,
    sub: input.subject,
    client_id: input.clientId,
    scope: input.scope,
    jti: randomSecret(16),
    iat: input.nowSeconds,
    exp: input.nowSeconds + (input.ttlSeconds ?? ACCESS_TOKEN_TTL_SECONDS),
  };
  const token = await new SignJWT({ client_id: claims.client_id, scope: claims.scope })
    .setProtectedHeader({ alg: SIGNING_ALG, kid: keys.active.kid, typ: 'at+jwt' })
    .setIssuer(claims.iss)
    .setAudience(claims.aud)
    .setSubject(claims.sub)
    .setJti(claims.jti)
    .setIssuedAt(claims.iat)
    .setExpirationTime(claims.exp)
    .sign(keys.active.key);
  return { token, claims };
}

/** Why a token was refused (logged; the wire says `invalid_token`). */
export type TokenRejection =
  | 'malformed'
  | 'unknown_key'
  | 'bad_signature'
  | 'expired'
  | 'issued_in_future'
  | 'wrong_issuer'
  | 'wrong_audience'
  | 'wrong_type'
  | 'missing_claims'
  | 'revoked';

export type TokenCheck = { ok: true; claims: AccessTokenClaims } | { ok: false; reason: TokenRejection };

const revokedKey = (jti: string): string => `revoked/${jti}`;

/** Adds a token id to the revocation list until the token would have expired anyway. */
export async function revokeJti(store: Store, jti: string, exp: number): Promise<void> {
  await setExpiring(store, revokedKey(jti), { jti, exp }, exp);
}

export async function isRevoked(store: Store, jti: string): Promise<boolean> {
  return (await store.get(revokedKey(jti))) !== null;
}

/**
 * Verifies signature (our own keys only, RS256 only), `typ: at+jwt`, issuer, audience, time
 * claims, required claims; then the revocation list (skipped when `revocations` is null, e.g. for
 * the revocation endpoint's ownership check).
 */
export async function verifyAccessToken(
  token: string,
  options: { keys: KeySet; issuer: string; audience?: string; nowSeconds: number; revocations: Store | null; ignoreExpiry?: boolean },
): Promise<TokenCheck> {
  let kid: string | undefined;
  try {
    const header = decodeProtectedHeader(token);
    kid = header.kid;
    if (header.typ !== 'at+jwt') return { ok: false, reason: 'wrong_type' };
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  const key = kid ? options.keys.verifiers.get(kid) : undefined;
  if (!key) return { ok: false, reason: 'unknown_key' };
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(token, key, {
      algorithms: [SIGNING_ALG],
      typ: 'at+jwt',
      issuer: options.issuer,
      ...(options.audience ? { audience: options.audience } : {}),
      clockTolerance: options.ignoreExpiry ? Number.MAX_SAFE_INTEGER : CLOCK_SKEW_SECONDS,
      currentDate: new Date(options.nowSeconds * 1000),
      requiredClaims: ['exp', 'iat', 'jti', 'sub', 'client_id', 'scope', 'aud', 'iss'],
    }));
  } catch (error) {
    if (error instanceof errors.JWTExpired) return { ok: false, reason: 'expired' };
    if (error instanceof errors.JWSSignatureVerificationFailed) return { ok: false, reason: 'bad_signature' };
    if (error instanceof errors.JWTClaimValidationFailed) {
      if (error.claim === 'iss') return { ok: false, reason: 'wrong_issuer' };
      if (error.claim === 'aud') return { ok: false, reason: 'wrong_audience' };
      return { ok: false, reason: 'missing_claims' };
    }
    return { ok: false, reason: 'malformed' };
  }
  if (
    typeof payload.client_id !== 'string' ||
    typeof payload.scope !== 'string' ||
    typeof payload.jti !== 'string' ||
    typeof payload.sub !== 'string'
  ) {
    return { ok: false, reason: 'missing_claims' };
  }
  // jose checks `iat` only for age limits; a token dated ahead of our clock was not minted by this server's clock.
  if (typeof payload.iat !== 'number' || payload.iat > options.nowSeconds + CLOCK_SKEW_SECONDS)
    return { ok: false, reason: 'issued_in_future' };
  const aud = Array.isArray(payload.aud) ? String(payload.aud[0]) : String(payload.aud);
  const claims: AccessTokenClaims = {
    iss: String(payload.iss),
    aud,
    sub: payload.sub,
    client_id: payload.client_id,
    scope: payload.scope,
    jti: payload.jti,
    iat: Number(payload.iat),
    exp: Number(payload.exp),
  };
  if (options.revocations && (await isRevoked(options.revocations, claims.jti))) return { ok: false, reason: 'revoked' };
  return { ok: true, claims };
}
