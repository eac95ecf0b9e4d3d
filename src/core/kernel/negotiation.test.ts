import { describe, expect, it } from 'vitest';
import { choosePageVariant, parseAccept, qualityOf } from './negotiation.ts';

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
    ['whitespace only', '   ', 'text/html'],
    ['null', null, 'text/html'],
    ['q above 1 ignored as 1', 'text/html;q=0.5, text/markdown;q=2', 'text/markdown'],
    ['q with four decimals ignored as 1', 'text/html;q=0.5, text/markdown;q=0.0001', 'text/markdown'],
    ['q=1.000', 'text/html;q=0.9, text/markdown;q=1.000', 'text/markdown'],
    ['Q in capitals', 'text/markdown;Q=0, text/html;q=0.1', 'text/html'],
    ['text/* beats */* for plain text', 'text/*;q=0.2, */*;q=0.9, text/html;q=0.1', 'text/markdown'],
    ['a specific range beats a wildcard at equal q', 'text/*;q=0.5, text/plain;q=0.5', 'text/plain'],
    ['plain named beside html: html stays', 'text/html, text/plain', 'text/html'],
    ['a parameter without a value', 'text/markdown;charset, text/html;q=0.5', 'text/markdown'],
    ['spaces around the q', 'text/markdown; q = 0, text/html;q=0.5', 'text/html'],
    ['another parameter is not q', 'text/markdown;level=0, text/html;q=0.5', 'text/markdown'],
    ['q with two decimals', 'text/markdown;q=0.25, text/html;q=0.5', 'text/html'],
    ['a type no variant has', 'image/png', null],
    ['the first of two equally specific ranges counts', 'text/markdown;q=0.1, text/markdown, text/html;q=0.5', 'text/html'],
    ['a named type at lower q loses to a wildcard at higher q', 'text/*;q=0.9, text/markdown;q=0.5', 'text/html'],
    ['markdown named at lower q loses to html', 'text/html, text/markdown;q=0.5', 'text/html'],
    ['html named beside text/*', 'text/html, text/*', 'text/html'],
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

describe('qualityOf', () => {
  it('takes the most specific matching range, whatever the order', () => {
    const ranges = parseAccept('*/*;q=0.1, text/*;q=0.5, text/markdown;q=0.8');
    expect(qualityOf('text/markdown', ranges)).toEqual({ q: 0.8, specificity: 3 });
    expect(qualityOf('text/html', ranges)).toEqual({ q: 0.5, specificity: 2 });
    expect(qualityOf('image/png', ranges)).toEqual({ q: 0.1, specificity: 1 });
    expect(qualityOf('image/png', parseAccept('text/html'))).toEqual({ q: 0, specificity: 0 });
    expect(qualityOf('text/html', parseAccept('text/markdown, image/*'))).toEqual({ q: 0, specificity: 0 });
  });

  it('parses members with spaces, parameters and case', () => {
    expect(parseAccept(' Text/HTML ; level=1 ; q=0.7 ,application/*')).toEqual([
      { type: 'text', subtype: 'html', q: 0.7, specificity: 3 },
      { type: 'application', subtype: '*', q: 1, specificity: 2 },
    ]);
    expect(parseAccept('text, /html, text/, a/b/c')).toEqual([]);
  });
});
