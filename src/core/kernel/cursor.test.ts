/** Opaque paging cursors: what round-trips, and what is refused as not ours. */
import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from './cursor.ts';

describe('cursors', () => {
  it.each([1, 7, 10, 999, 123_456_789, 999_999_999])('offset %i round-trips as base64url without padding', (offset) => {
    const cursor = encodeCursor(offset);
    expect(cursor).toMatch(/^[\w-]+$/);
    expect(cursor).toBe(btoa(`idx1:${offset}`).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''));
    expect(decodeCursor(cursor)).toBe(offset);
  });

  it.each([
    ['empty', ''],
    ['not base64', '!!!!'],
    ['base64 that does not decode', 'a'],
    ['over 64 characters', 'A'.repeat(65)],
    ['offset 0', btoa('idx1:0').replace(/=+$/, '')],
    ['a leading zero', btoa('idx1:07').replace(/=+$/, '')],
    ['ten digits', btoa('idx1:1234567890').replace(/=+$/, '')],
    ['another prefix', btoa('idx2:5').replace(/=+$/, '')],
    ['text before the prefix', btoa('xidx1:5').replace(/=+$/, '')],
    ['text after the number', btoa('idx1:5x').replace(/=+$/, '')],
    ['a negative offset', btoa('idx1:-5').replace(/=+$/, '')],
  ])('%s: not ours', (_name, cursor) => expect(decodeCursor(cursor)).toBeNull());

  it('a cursor of exactly 64 characters is read (and refused only for its content)', () => {
    expect(decodeCursor('A'.repeat(64))).toBeNull();
    const long = btoa(`idx1:${'1'.repeat(9)}`).replace(/=+$/, '');
    expect(decodeCursor(long)).toBe(111_111_111);
  });

  it('base64 with + or / is not a cursor we issued (we issue base64url)', () => {
    expect(decodeCursor('ab+/')).toBeNull();
  });
});
