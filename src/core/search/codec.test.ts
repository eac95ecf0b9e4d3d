import { describe, expect, it } from 'vitest';
import { ByteWriter, decodeBase64, decodeUint32Base64, encodeBase64, encodeUint32Base64 } from './codec.ts';

/** Deterministic bytes for a given length. */
function bytesOf(length: number): Uint8Array {
  return Uint8Array.from({ length }, (_, i) => (i * 167 + length * 31) & 255);
}

/** Reference encoding through the platform's btoa. */
function referenceBase64(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes));
}

describe('base64', () => {
  it('matches the platform encoding for every padding case', () => {
    for (let length = 0; length < 40; length++) {
      const bytes = bytesOf(length);
      expect(encodeBase64(bytes)).toBe(referenceBase64(bytes));
      expect(decodeBase64(encodeBase64(bytes))).toEqual(bytes);
    }
  });

  it('decodes any byte range without decoding the rest', () => {
    const bytes = bytesOf(50);
    const text = encodeBase64(bytes);
    for (let start = 0; start <= 50; start += 7) {
      for (let end = start; end <= 50; end += 5) expect(decodeBase64(text, start, end)).toEqual(bytes.subarray(start, end));
    }
    expect(decodeBase64(text, 45, 999)).toEqual(bytes.subarray(45));
  });

  it('rejects text outside the alphabet or of a bad length', () => {
    expect(() => decodeBase64('AB*D')).toThrow(/invalid base64/);
    expect(() => decodeBase64('ABC')).toThrow(/multiple of 4/);
  });
});

describe('varints and Uint32 arrays', () => {
  it('writes unsigned LEB128 varints', () => {
    const writer = new ByteWriter();
    for (const value of [0, 1, 127, 128, 300, 2 ** 32 - 1, 2 ** 35]) writer.writeVarint(value);
    expect([...writer.toBytes()]).toEqual([0, 1, 127, 0x80, 1, 0xac, 2, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01]);
    expect(() => writer.writeVarint(-1)).toThrow(RangeError);
    expect(() => writer.writeVarint(1.5)).toThrow(RangeError);
  });

  it('grows past its initial capacity', () => {
    const writer = new ByteWriter();
    for (let i = 0; i < 100_000; i++) writer.writeVarint(200);
    expect(writer.length).toBe(200_000);
  });

  it('round-trips Uint32 values little-endian', () => {
    const values = [0, 1, 255, 256, 65_536, 2 ** 31, 2 ** 32 - 1];
    expect([...decodeUint32Base64(encodeUint32Base64(values))]).toEqual(values);
    expect(encodeUint32Base64([1])).toBe(referenceBase64(Uint8Array.of(1, 0, 0, 0)));
  });
});
