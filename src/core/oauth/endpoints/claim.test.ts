import { describe, expect, it } from 'vitest';
import { generateUserCode, normalizeUserCode } from './claim.ts';

describe('user codes (RFC 8628 §6.1)', () => {
  it('are 8 consonants shown as XXXX-XXXX, spread over the whole alphabet', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 500; i++) {
      const code = generateUserCode();
      expect(code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
      for (const c of code.replace('-', '')) seen.add(c);
    }
    expect(seen.size).toBe(20);
  });

  it('are read back however a person types them, and anything else is refused', () => {
    expect(normalizeUserCode('bcdf-ghjk')).toBe('BCDF-GHJK');
    expect(normalizeUserCode(' BCDF GHJK ')).toBe('BCDF-GHJK');
    expect(normalizeUserCode('bcdfghjk')).toBe('BCDF-GHJK');
    for (const bad of ['BCDF-GHJ', 'BCDF-GHJKL', 'ABCD-EFGH', '1234-5678', '']) expect(normalizeUserCode(bad)).toBeNull();
  });
});
