/**
 * RFC 9530 `Content-Digest` with `sha-256`, which the signatures cover so they bind the body too.
 * Hand-written: it is one WebCrypto digest in a Structured Field Byte Sequence, and no maintained
 * npm package implements RFC 9530 (Cloudflare's web-bot-auth and http-message-sig leave it out).
 * @module
 */
import { base64, sha256 } from '../kernel/crypto.ts';

/** `sha-256=:<base64>:` of the bytes. */
export async function contentDigest(body: ArrayBuffer | Uint8Array<ArrayBuffer> | string): Promise<string> {
  return `sha-256=:${base64(await sha256(body))}:`;
}

/**
 * Whether a `Content-Digest` field names the `sha-256` digest of `body` (other algorithms are not
 * accepted: receivers should insist on the one we send).
 */
export async function contentDigestMatches(field: string | null, body: ArrayBuffer | Uint8Array<ArrayBuffer> | string): Promise<boolean> {
  if (!field) return false;
  const expected = await contentDigest(body);
  return field.split(',').some((member) => member.trim() === expected);
}
