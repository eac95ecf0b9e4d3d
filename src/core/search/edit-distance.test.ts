import { describe, expect, it } from 'vitest';
import { boundedEditDistance, letterMask, popcount } from './edit-distance.ts';

describe('boundedEditDistance', () => {
  it.each([
    ['prompt', 'prompt', 0],
    ['promt', 'prompt', 1], // deletion
    ['kubernetse', 'kubernetes', 1], // adjacent transposition
    ['hallucinaton', 'hallucination', 1],
    ['halucnation', 'hallucination', 2],
    ['gateway', 'getaway', 2],
  ])('%s → %s is %i', (a, b, distance) => {
    expect(boundedEditDistance(a, b, 2)).toBe(distance);
  });

  it('returns max + 1 once the distance must exceed max', () => {
    expect(boundedEditDistance('hlucnation', 'hallucination', 2)).toBe(3);
    expect(boundedEditDistance('abc', 'abcdef', 1)).toBe(2);
    expect(boundedEditDistance('x'.repeat(100), 'x'.repeat(100), 2)).toBe(3); // beyond MAX_WORD_CHARS
  });
});

describe('letter-set pre-filter', () => {
  it('counts set bits', () => {
    expect(popcount(0)).toBe(0);
    expect(popcount(0b1011)).toBe(3);
    expect(popcount(0x3ffffff)).toBe(26);
  });

  it('never rejects a pair within the edit bound (|letters(a) Δ letters(b)| ≤ 2 × distance)', () => {
    let seed = 11;
    const random = (): number => {
      seed = (Math.imul(seed, 1_664_525) + 1_013_904_223) >>> 0;
      return seed / 2 ** 32;
    };
    const word = (): string => Array.from({ length: 4 + Math.floor(random() * 6) }, () => 'abcdefgh'[Math.floor(random() * 8)]).join('');
    for (let i = 0; i < 2_000; i++) {
      const a = word();
      const b = word();
      const distance = boundedEditDistance(a, b, 20);
      expect(popcount(letterMask(a) ^ letterMask(b))).toBeLessThanOrEqual(2 * distance);
    }
  });
});
