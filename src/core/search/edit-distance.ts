/**
 * Typo matching helpers: a bounded optimal-string-alignment distance and a letter-set pre-filter.
 * @module
 */
import { MAX_WORD_CHARS } from './tokenize.ts';

/** Bit i set when letter `a` + i occurs in `word` (a–z only). */
export function letterMask(word: string): number {
  let mask = 0;
  for (let i = 0; i < word.length; i++) mask |= 1 << (word.charCodeAt(i) - 97);
  return mask;
}

/** Number of set bits of a 32-bit integer. */
export function popcount(value: number): number {
  let v = value - ((value >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/** Scratch rows for {@link boundedEditDistance} (words are at most MAX_WORD_CHARS long). */
const EDIT_ROWS = [0, 1, 2].map(() => new Int32Array(MAX_WORD_CHARS + 2));

/**
 * Optimal string alignment distance between `a` and `b` (insertions, deletions, substitutions and
 * adjacent transpositions), or `max + 1` as soon as it must exceed `max`.
 */
export function boundedEditDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (a.length > MAX_WORD_CHARS || b.length > MAX_WORD_CHARS) return max + 1;
  let [before, previous, current] = EDIT_ROWS as [Int32Array, Int32Array, Int32Array];
  const width = b.length + 1;
  for (let j = 0; j < width; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const ai = a.charCodeAt(i - 1);
    current[0] = i;
    let rowMin = i;
    for (let j = 1; j < width; j++) {
      const bj = b.charCodeAt(j - 1);
      let d = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (ai === bj ? 0 : 1));
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj) d = Math.min(d, before[j - 2]! + 1);
      current[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > max) return max + 1;
    [before, previous, current] = [previous, current, before];
  }
  return Math.min(previous[b.length]!, max + 1);
}
