/**
 * The one rule for prose a person writes in a free-text field (a feedback report, a contact message):
 * several lines allowed, nothing invisible. Every such field uses this pipe, so the rule and its
 * words cannot drift apart between endpoints.
 * @module
 */
import * as v from 'valibot';
import { hasInvisibleProseCharacters } from './visible-text.ts';

/**
 * A prose field named `field`, at most `maxChars` characters: lines as a form's textarea sends them
 * (CRLF) are kept as LF, the text is trimmed, and line breaks, tabs and emoji are allowed; every other
 * control, bidirectional or invisible character is refused (kernel/visible-text.ts
 * `hasInvisibleProseCharacters`), with a message naming the field.
 */
export function proseText(field: string, maxChars: number) {
  return v.pipe(
    v.string(`${field} must be text`),
    v.transform((text: string) => text.replace(/\r\n?/g, '\n')),
    v.trim(),
    v.maxLength(maxChars, `${field} must be at most ${maxChars} characters`),
    v.check(
      (text: string) => !hasInvisibleProseCharacters(text),
      `${field} must be plain text: line breaks and emoji are fine, but not control, bidirectional or invisible characters`,
    ),
  );
}
