/** Characters that people and models would read differently: found, dropped, or escaped visibly. */
import { describe, expect, it } from 'vitest';
import {
  escapeInvisibleCharacters,
  hasInvisibleCharacters,
  jsonWithEscapedInvisibles,
  withoutInvisibleCharacters,
} from './visible-text.ts';

describe('hasInvisibleCharacters', () => {
  it.each([
    ['a control (escape)', 'a\u001b[2J'],
    ['a C1 control', 'a\u0085b'],
    ['a zero-width space', 'Claude\u200b'],
    ['a right-to-left override', 'a\u202eb'],
    ['a tag character', 'agent\u{E0049}'],
    ['a line separator', 'a\u2028b'],
    ['a paragraph separator', 'a\u2029b'],
    ['a Hangul filler', 'a\u3164b'],
    ['a variation selector', 'a\ufe0fb'],
    ['an unpaired surrogate', 'a\ud800b'],
    ['a private-use character', 'a\ue000b'],
    ['an unassigned code point', 'a\u{10FFFE}b'],
    ['a newline', 'a\nb'],
  ])('finds %s', (_name, text) => expect(hasInvisibleCharacters(text)).toBe(true));

  it.each([
    ['plain text', 'Research agent 2'],
    ['CJK with an ideographic space', '研究　助手'],
    ['accents and emoji', 'Café ☕ 🤖'],
    ['an empty string', ''],
  ])('allows %s', (_name, text) => expect(hasInvisibleCharacters(text)).toBe(false));
});

describe('withoutInvisibleCharacters', () => {
  it('drops every invisible character, all occurrences', () => {
    expect(withoutInvisibleCharacters('\u200bA\u200bB\u202e\u{E0041}C\n')).toBe('ABC');
    expect(withoutInvisibleCharacters('研究　助手')).toBe('研究　助手');
  });
});

describe('escapeInvisibleCharacters', () => {
  it('writes each one as a visible \\u{…} escape', () => {
    expect(escapeInvisibleCharacters('a\u001b]8;;x\u0007b\u200b')).toBe('a\\u{1B}]8;;x\\u{7}b\\u{200B}');
    expect(escapeInvisibleCharacters('tag\u{E0041}')).toBe('tag\\u{E0041}');
    expect(escapeInvisibleCharacters('a\nb\tc\rd')).toBe('a\\u{A}b\\u{9}c\\u{D}d');
  });

  it('keeps line breaks and tabs when asked, and still escapes the rest', () => {
    expect(escapeInvisibleCharacters('a\nb\tc\rd\u2028e', { keepLineBreaks: true })).toBe('a\nb\tc\rd\\u{2028}e');
  });
});

describe('jsonWithEscapedInvisibles', () => {
  it('escapes what JSON.stringify leaves raw, as \\uXXXX (surrogate pairs as two), keeping whitespace between tokens', () => {
    const json = JSON.stringify({ a: 'x\u0085y\u202e\u{E0041}' }, null, 1);
    const escaped = jsonWithEscapedInvisibles(json);
    expect(escaped).toBe('{\n "a": "x\\u0085y\\u202e\\udb40\\udc41"\n}');
    expect(JSON.parse(escaped)).toEqual(JSON.parse(json));
    expect(jsonWithEscapedInvisibles('{"a":1}\t\r\n')).toBe('{"a":1}\t\r\n');
  });
});
