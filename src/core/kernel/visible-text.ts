/**
 * Text that people and language models must read the same way. Short fields written by strangers
 * (a client name on the consent page, a contact form's name, company and email) refuse characters
 * that are invisible or that change what a terminal or page shows:
 * - controls (`\p{Cc}`): terminal escapes (screen clearing, OSC 8 links, window titles), forged lines;
 * - format characters (`\p{Cf}`): zero-width spaces and joiners, bidirectional overrides and
 *   isolates, and the Unicode tag characters U+E0000-U+E007F, which people cannot see but a model
 *   reads as text (hidden instructions);
 * - line and paragraph separators (`\p{Zl}`, `\p{Zp}`), which split one field into several lines;
 * - every other default-ignorable code point (Hangul fillers, variation selectors, U+034F ...);
 * - unpaired surrogates, private-use and unassigned code points, which render as nothing or as a box.
 * Ordinary spaces, including the ideographic space of CJK text, stay allowed.
 * @module
 */

/** One character that must not appear in a short visible field. */
export const INVISIBLE_CHARACTER = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Co}\p{Cn}\p{Default_Ignorable_Code_Point}]/u;
const INVISIBLE_CHARACTERS = new RegExp(INVISIBLE_CHARACTER.source, 'gu');

/** Whether `text` holds a character of {@link INVISIBLE_CHARACTER}. */
export function hasInvisibleCharacters(text: string): boolean {
  return INVISIBLE_CHARACTER.test(text);
}

const INVISIBLE_PROSE_CHARACTER = new RegExp(`(?![\\n\\t\\u200D\\uFE0E\\uFE0F])${INVISIBLE_CHARACTER.source}`, 'u');

/**
 * What prose written by a person may hold beyond a short field (a feedback report, several lines):
 * line feeds and tabs, and the two characters emoji are made of, the zero-width joiner (U+200D,
 * 👩‍💻) and the emoji variation selector (U+FE0F, ❤️; U+FE0E for text style). Still refused: every
 * other control (a carriage return is normalised away first), bidi overrides, tag characters.
 */
export function hasInvisibleProseCharacters(text: string): boolean {
  return INVISIBLE_PROSE_CHARACTER.test(text);
}

/** `text` without the characters of {@link INVISIBLE_CHARACTER} (for values stored before they were refused). */
export function withoutInvisibleCharacters(text: string): string {
  return text.replace(INVISIBLE_CHARACTERS, '');
}

/**
 * `text` for a terminal or a CSV cell: every control and format character, line separator included,
 * written as a visible `\u{…}` escape, so a stored value can never move the cursor, set a title,
 * draw a link or start a new line. Printable text, CJK included, is unchanged.
 */
export function escapeInvisibleCharacters(text: string, options: { keepLineBreaks?: boolean } = {}): string {
  return text.replace(INVISIBLE_CHARACTERS, (c) =>
    options.keepLineBreaks && (c === '\n' || c === '\r' || c === '\t') ? c : `\\u{${c.codePointAt(0)!.toString(16).toUpperCase()}}`,
  );
}

/**
 * JSON text (from `JSON.stringify`) with every character of {@link INVISIBLE_CHARACTER} written as a
 * `\uXXXX` escape: the same JSON value, but nothing in it can act on a terminal that prints it
 * (`JSON.stringify` escapes only U+0000-U+001F, not C1 controls, bidi marks or tag characters).
 */
export function jsonWithEscapedInvisibles(json: string): string {
  // Raw line breaks and tabs in JSON text are whitespace between tokens (strings hold them escaped): kept.
  return json.replace(INVISIBLE_CHARACTERS, (c) =>
    c === '\n' || c === '\r' || c === '\t'
      ? c
      : [...Array(c.length).keys()].map((i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`).join(''),
  );
}
