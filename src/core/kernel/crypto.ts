/**
 * Random secrets and their hashes. Secrets, codes and tokens are stored only as SHA-256 digests;
 * comparisons of digests run in constant time.
 * @module
 */

/** Standard base64 (with padding). */
export function base64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** base64url without padding (RFC 4648 §5). */
export function base64url(bytes: Uint8Array): string {
  return base64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** SHA-256 of a string (UTF-8) or bytes. */
export async function sha256(input: string | Uint8Array<ArrayBuffer> | ArrayBuffer): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', typeof input === 'string' ? new TextEncoder().encode(input) : input));
}

/** `bytes` random bytes (>= 16, i.e. >= 128 bits) as base64url. */
export function randomSecret(bytes = 32): string {
  return base64url(crypto.getRandomValues(new Uint8Array(bytes)));
}

export async function sha256Hex(text: string): Promise<string> {
  return [...(await sha256(text))].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** base64url(SHA-256(text)): the PKCE S256 transform (RFC 7636 §4.2). */
export async function sha256Base64url(text: string): Promise<string> {
  return base64url(await sha256(text));
}

/** Constant-time equality of two strings of the same alphabet (digests). */
export function timingSafeEqual(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < Math.max(a.length, b.length); i++) diff |= (a.charCodeAt(i) || 0) ^ (b.charCodeAt(i) || 0);
  return diff === 0;
}

/**
 * Whether `presented` is `secret`, in a time that tells nothing of where they differ or how long the
 * secret is: both are digested with HMAC-SHA-256 under a key made for this one comparison, and the
 * two digests (always 32 bytes) compared with {@link timingSafeEqual}. WebCrypto has no
 * constant-time equality of its own, and comparing the strings would stop at the first difference.
 */
export async function secretMatches(presented: string, secret: string): Promise<boolean> {
  const key = await crypto.subtle.generateKey({ name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const digest = async (text: string): Promise<string> =>
    base64(new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(text))));
  const [a, b] = await Promise.all([digest(presented), digest(secret)]);
  return timingSafeEqual(a, b);
}
