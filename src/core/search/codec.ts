/**
 * Byte codecs of the search index file: unsigned LEB128 varints, written into a growable buffer
 * and read back. Web-platform APIs only, so the same code runs in Node, Deno, browsers and workers.
 * @module
 */

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
    this.reserve(MAX_VARINT_BYTES);
    let v = value;
    while (v >= 0x80) {
      this.bytes[this.length++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    this.bytes[this.length++] = v;
  }

  /** Appends `bytes` as they are. */
  writeBytes(bytes: Uint8Array): void {
    this.reserve(bytes.length);
    this.bytes.set(bytes, this.length);
    this.length += bytes.length;
  }

  /** The bytes written so far (a view, not a copy). */
  toBytes(): Uint8Array {
    return this.bytes.subarray(0, this.length);
  }

  private reserve(count: number): void {
    if (this.length + count <= this.bytes.length) return;
    let size = this.bytes.length * 2;
    while (size < this.length + count) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.toBytes());
    this.bytes = next;
  }
}

/**
 * Reads the unsigned LEB128 varint at `reader.pos` (as ByteWriter writes them) and moves past it.
 * Never reads past the end: a varint cut short reads as the bits it has.
 */
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
