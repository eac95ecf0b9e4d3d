/**
 * Byte codecs for the search index: base64 over `Uint8Array`, unsigned LEB128 varints and
 * little-endian Uint32 arrays. Hand-written so the same code runs in Node, Deno and browsers.
 * @module
 */

const BASE64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const BASE64_PAD = 61; // '='
const ASCII = new TextDecoder();

/** Base64 digit value per char code; 255 marks a character outside the alphabet. */
const BASE64_VALUE = new Uint8Array(128).fill(255);
for (let i = 0; i < BASE64_ALPHABET.length; i++) BASE64_VALUE[BASE64_ALPHABET.charCodeAt(i)] = i;

/** Encodes bytes as standard base64 (RFC 4648 §4, with `=` padding). */
export function encodeBase64(bytes: Uint8Array): string {
  const out = new Uint8Array(Math.ceil(bytes.length / 3) * 4);
  let o = 0;
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out[o++] = BASE64_ALPHABET.charCodeAt(n >>> 18);
    out[o++] = BASE64_ALPHABET.charCodeAt((n >>> 12) & 63);
    out[o++] = BASE64_ALPHABET.charCodeAt((n >>> 6) & 63);
    out[o++] = BASE64_ALPHABET.charCodeAt(n & 63);
  }
  const rest = bytes.length - i;
  if (rest > 0) {
    const n = (bytes[i]! << 16) | (rest === 2 ? bytes[i + 1]! << 8 : 0);
    out[o++] = BASE64_ALPHABET.charCodeAt(n >>> 18);
    out[o++] = BASE64_ALPHABET.charCodeAt((n >>> 12) & 63);
    out[o++] = rest === 2 ? BASE64_ALPHABET.charCodeAt((n >>> 6) & 63) : BASE64_PAD;
    out[o++] = BASE64_PAD;
  }
  return ASCII.decode(out);
}

/**
 * Decodes the bytes `[byteStart, byteEnd)` of the base64 text `text` without decoding the rest
 * (this is what makes lazy per-term postings cheap). Omitting the range decodes everything.
 * Throws on characters outside the base64 alphabet.
 */
export function decodeBase64(text: string, byteStart = 0, byteEnd?: number): Uint8Array {
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  const totalBytes = (text.length / 4) * 3 - padding;
  if (text.length % 4 !== 0) throw new Error('base64 text length is not a multiple of 4');
  const end = Math.min(byteEnd ?? totalBytes, totalBytes);
  const start = Math.max(0, Math.min(byteStart, end));
  const firstGroup = Math.floor(start / 3);
  const endGroup = Math.ceil(end / 3);
  const out = new Uint8Array((endGroup - firstGroup) * 3);
  let o = 0;
  for (let c = firstGroup * 4; c < endGroup * 4; c += 4) {
    const x = text.charCodeAt(c + 2) === BASE64_PAD ? 0 : digit(text, c + 2);
    const y = text.charCodeAt(c + 3) === BASE64_PAD ? 0 : digit(text, c + 3);
    const n = (digit(text, c) << 18) | (digit(text, c + 1) << 12) | (x << 6) | y;
    out[o++] = n >>> 16;
    out[o++] = (n >>> 8) & 255;
    out[o++] = n & 255;
  }
  return out.subarray(start - firstGroup * 3, end - firstGroup * 3);
}

function digit(text: string, index: number): number {
  const value = BASE64_VALUE[text.charCodeAt(index)] ?? 255;
  if (value === 255) throw new Error(`invalid base64 character at ${index}`);
  return value;
}

/** A growable byte buffer with unsigned LEB128 varint writes. */
export class ByteWriter {
  private bytes = new Uint8Array(1 << 16);
  /** Bytes written so far. */
  length = 0;

  /** Appends `value` (an integer in [0, 2^32)) as an unsigned LEB128 varint. */
  writeVarint(value: number): void {
    if (this.length + 5 > this.bytes.length) this.grow();
    let v = value >>> 0;
    while (v >= 0x80) {
      this.bytes[this.length++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    this.bytes[this.length++] = v;
  }

  /** The bytes written so far (a view, not a copy). */
  toBytes(): Uint8Array {
    return this.bytes.subarray(0, this.length);
  }

  private grow(): void {
    const next = new Uint8Array(this.bytes.length * 2);
    next.set(this.bytes);
    this.bytes = next;
  }
}

/** Encodes integers in [0, 2^32) as little-endian Uint32 bytes, then base64. */
export function encodeUint32Base64(values: ArrayLike<number>): string {
  const bytes = new Uint8Array(values.length * 4);
  for (let i = 0; i < values.length; i++) {
    const v = values[i]! >>> 0;
    bytes[i * 4] = v & 255;
    bytes[i * 4 + 1] = (v >>> 8) & 255;
    bytes[i * 4 + 2] = (v >>> 16) & 255;
    bytes[i * 4 + 3] = v >>> 24;
  }
  return encodeBase64(bytes);
}

/** Inverse of {@link encodeUint32Base64}. Throws if the byte count is not a multiple of 4. */
export function decodeUint32Base64(text: string): Uint32Array {
  const bytes = decodeBase64(text);
  if (bytes.length % 4 !== 0) throw new Error('Uint32 array byte length is not a multiple of 4');
  const values = new Uint32Array(bytes.length / 4);
  for (let i = 0; i < values.length; i++) {
    const b = i * 4;
    values[i] = (bytes[b]! | (bytes[b + 1]! << 8) | (bytes[b + 2]! << 16) | (bytes[b + 3]! << 24)) >>> 0;
  }
  return values;
}
