/**
 * Byte codecs for the search index: base64 over `Uint8Array` (hand-written encoder, `atob`
 * decoder), unsigned LEB128 varints and little-endian Uint32 arrays. Web-platform APIs only, so the
 * same code runs in Node, Deno, browsers and workers.
 * @module
 */

const BASE64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const BASE64_PAD = 61; // '='
const ASCII = new TextDecoder();

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
 * Uses the platform's native `atob` (Node, Deno, browsers, workers): several times faster than a
 * JavaScript loop while the code is still cold, which is the case during an index load.
 * Throws on text that is not base64.
 */
export function decodeBase64(text: string, byteStart = 0, byteEnd?: number): Uint8Array {
  if (text.length % 4 !== 0) throw new Error('base64 text length is not a multiple of 4');
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  const totalBytes = (text.length / 4) * 3 - padding;
  const end = Math.min(byteEnd ?? totalBytes, totalBytes);
  const start = Math.max(0, Math.min(byteStart, end));
  const firstGroup = Math.floor(start / 3);
  const binary = decodeGroups(text, firstGroup, Math.ceil(end / 3));
  const out = new Uint8Array(end - start);
  const skip = start - firstGroup * 3;
  for (let i = 0; i < out.length; i++) out[i] = binary.charCodeAt(skip + i);
  return out;
}

/** `atob` over whole 4-character groups `[firstGroup, endGroup)`: a string of byte values. */
function decodeGroups(text: string, firstGroup: number, endGroup: number): string {
  const chunk = firstGroup === 0 && endGroup * 4 === text.length ? text : text.slice(firstGroup * 4, endGroup * 4);
  if (!BASE64_TEXT.test(chunk)) throw new Error('invalid base64 character');
  return atob(chunk);
}

/** Standard base64 characters with padding only at the end (atob alone would also skip whitespace). */
const BASE64_TEXT = /^[A-Za-z0-9+/]*={0,2}$/;

/** Bytes of the longest varint (a 53-bit safe integer). */
const MAX_VARINT_BYTES = 8;

/** A growable byte buffer with unsigned LEB128 varint writes. */
export class ByteWriter {
  private bytes = new Uint8Array(1 << 16);
  /** Bytes written so far. */
  length = 0;

  /** Appends `value` (a safe integer ≥ 0) as an unsigned LEB128 varint. */
  writeVarint(value: number): void {
    if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`varint out of range: ${value}`);
    if (this.length + MAX_VARINT_BYTES > this.bytes.length) this.grow();
    let v = value;
    while (v >= 0x80) {
      this.bytes[this.length++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
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

/** Reads the unsigned LEB128 varint at `reader.pos` (as ByteWriter writes them) and moves past it. */
export function readVarint(reader: { bytes: Uint8Array; pos: number }): number {
  let value = 0;
  let shift = 0;
  while (reader.pos < reader.bytes.length && shift < 56) {
    const byte = reader.bytes[reader.pos++]!;
    value += (byte & 0x7f) * 2 ** shift;
    if (byte < 0x80) break;
    shift += 7;
  }
  return value;
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
  if (text.length % 4 !== 0) throw new Error('base64 text length is not a multiple of 4');
  const binary = decodeGroups(text, 0, text.length / 4);
  if (binary.length % 4 !== 0) throw new Error('Uint32 array byte length is not a multiple of 4');
  const values = new Uint32Array(binary.length / 4);
  for (let i = 0; i < values.length; i++) {
    const b = i * 4;
    values[i] =
      (binary.charCodeAt(b) | (binary.charCodeAt(b + 1) << 8) | (binary.charCodeAt(b + 2) << 16) | (binary.charCodeAt(b + 3) << 24)) >>> 0;
  }
  return values;
}
