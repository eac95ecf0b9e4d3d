import { describe, expect, it } from 'vitest';
import { TopK } from './top-k.ts';

describe('TopK', () => {
  it('keeps the best entries, best first, ties by lower doc id', () => {
    const top = new TopK(3);
    for (const [doc, score] of [
      [5, 1],
      [1, 3],
      [9, 3],
      [2, 0.5],
      [7, 3],
      [0, 2],
    ] as const)
      top.offer(doc, score);
    expect(top.sorted()).toEqual([
      { doc: 1, score: 3 },
      { doc: 7, score: 3 },
      { doc: 9, score: 3 },
    ]);
  });

  it('matches a full sort on random input', () => {
    let seed = 3;
    const random = (): number => {
      seed = (Math.imul(seed, 1_664_525) + 1_013_904_223) >>> 0;
      return seed / 2 ** 32;
    };
    const entries = Array.from({ length: 500 }, (_, doc) => ({ doc, score: Math.floor(random() * 50) }));
    const top = new TopK(10);
    for (const { doc, score } of entries) top.offer(doc, score);
    expect(top.sorted()).toEqual([...entries].sort((a, b) => b.score - a.score || a.doc - b.doc).slice(0, 10));
  });
});
