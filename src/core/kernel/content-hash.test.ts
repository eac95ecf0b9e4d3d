/** The build's content hash: the same content gives the same stamp, different content a different one. */
import { describe, expect, it } from 'vitest';
import { ContentHash } from './content-hash.ts';

const hashOf = (...fields: string[]) => fields.reduce((h, f) => h.field(f), new ContentHash());

describe('ContentHash', () => {
  it('is 16 hex digits, its first lane the 32-bit value shards are picked with', () => {
    const hash = hashOf('a', 'b');
    expect(hash.hex()).toMatch(/^[0-9a-f]{16}$/);
    expect(hash.uint32()).toBe(Number.parseInt(hash.hex().slice(0, 8), 16));
    expect(hashOf('x').hex()).toBe(hashOf('x').hex());
  });

  it('keeps fields apart, and every character counts, the last one included', () => {
    expect(hashOf('ab', 'c').hex()).not.toBe(hashOf('a', 'bc').hex());
    expect(hashOf('abc').hex()).not.toBe(hashOf('abd').hex());
    expect(hashOf('abc').hex()).not.toBe(hashOf('ab').hex());
    expect(hashOf('').hex()).not.toBe(new ContentHash().hex());
    expect(hashOf('', '').hex()).not.toBe(hashOf('').hex());
  });

  it('has no collision over 20,000 similar inputs, and spreads them evenly over 16 shards', () => {
    const seen = new Set<string>();
    const shards = new Array<number>(16).fill(0);
    for (let i = 0; i < 20_000; i++) {
      const hash = hashOf(`doc-${i}`);
      expect(hash.hex()).toHaveLength(16);
      seen.add(hash.hex());
      shards[hash.uint32() % 16]!++;
    }
    expect(seen.size).toBe(20_000);
    for (const count of shards) expect(Math.abs(count - 1250)).toBeLessThan(200);
  });

  it('matches the FNV-1a offset basis and prime in its first lane', () => {
    // FNV-1a of nothing is the offset basis; the field separator (0xffff) is then folded in with the prime.
    expect(new ContentHash().uint32()).toBe(0x811c9dc5);
    expect(hashOf('').uint32()).toBe(Math.imul(0x811c9dc5 ^ 0xffff, 0x01000193) >>> 0);
    expect(hashOf('a').uint32()).toBe(Math.imul(Math.imul(0x811c9dc5 ^ 0x61, 0x01000193) ^ 0xffff, 0x01000193) >>> 0);
  });
});
