import { describe, expect, it } from 'vitest';
import { ByteWriter, readVarint } from './codec.ts';

describe('varints', () => {
  it('writes unsigned LEB128 varints and reads them back', () => {
    const writer = new ByteWriter();
    const values = [0, 1, 127, 128, 300, 2 ** 32 - 1, 2 ** 35];
    for (const value of values) writer.writeVarint(value);
    expect([...writer.toBytes()]).toEqual([0, 1, 127, 0x80, 1, 0xac, 2, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01]);
    const reader = { bytes: writer.toBytes(), pos: 0 };
    expect(values.map(() => readVarint(reader))).toEqual(values);
    expect(reader.pos).toBe(writer.length);
    expect(() => writer.writeVarint(-1)).toThrow(RangeError);
    expect(() => writer.writeVarint(1.5)).toThrow(RangeError);
  });

  it('never reads past the end of a varint cut short', () => {
    const reader = { bytes: Uint8Array.of(0xff, 0xff), pos: 0 };
    expect(readVarint(reader)).toBe(0x3fff);
    expect(reader.pos).toBe(2);
  });

  it('grows past its initial capacity, also by one large write', () => {
    const writer = new ByteWriter();
    for (let i = 0; i < 100_000; i++) writer.writeVarint(200);
    expect(writer.length).toBe(200_000);
    const big = new ByteWriter();
    big.writeVarint(5);
    big.writeBytes(new Uint8Array(1_000_000).fill(7));
    expect(big.length).toBe(1_000_001);
    expect(big.toBytes()[0]).toBe(5);
    expect(big.toBytes()[1_000_000]).toBe(7);
  });
});
