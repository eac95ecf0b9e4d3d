import { describe, expect, it } from 'vitest';
import { choosePageVariant, parseAccept } from './negotiation.ts';

const CHROME =
  'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7';
const FIREFOX = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

describe('choosePageVariant', () => {
  it.each([
    ['absent', undefined, 'text/html'],
    ['empty', '', 'text/html'],
    ['Chrome', CHROME, 'text/html'],
    ['Firefox', FIREFOX, 'text/html'],
    ['curl default', '*/*', 'text/html'],
    ['text/*', 'text/*', 'text/html'],
    ['markdown only', 'text/markdown', 'text/markdown'],
    ['markdown preferred over html', 'text/markdown, text/html;q=0.8', 'text/markdown'],
    ['html refused', 'text/html;q=0, text/markdown', 'text/markdown'],
    ['html preferred by q', 'text/markdown;q=0.5, text/html', 'text/html'],
    ['both named equally', 'text/html, text/markdown', 'text/markdown'],
    ['markdown named, wildcard rest', 'text/markdown, */*;q=0.1', 'text/markdown'],
    ['scanner style', 'text/markdown, text/plain, */*', 'text/markdown'],
    ['plain text', 'text/plain', 'text/plain'],
    ['json only', 'application/json', null],
    ['everything refused', 'text/html;q=0, text/markdown;q=0, text/plain;q=0', null],
    ['wildcard refused but markdown allowed', '*/*;q=0, text/markdown;q=0.3', 'text/markdown'],
    ['case-insensitive', 'Text/Markdown', 'text/markdown'],
    ['garbage', ';;;,,, /', 'text/html'],
    ['malformed q ignored as 1', 'text/markdown;q=abc', 'text/markdown'],
  ])('%s', (_name, accept, expected) => {
    expect(choosePageVariant(accept)).toBe(expected);
  });
});

describe('parseAccept', () => {
  it('keeps q and specificity', () => {
    expect(parseAccept('text/html;q=0.5, */*')).toEqual([
      { type: 'text', subtype: 'html', q: 0.5, specificity: 3 },
      { type: '*', subtype: '*', q: 1, specificity: 1 },
    ]);
  });
  it('drops invalid ranges like */html', () => {
    expect(parseAccept('*/html')).toEqual([]);
  });
});
