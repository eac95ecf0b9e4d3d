/**
 * Text as element content with only what text content needs escaped (`&`, `<`, `>`, no-break spaces:
 * entities' `escapeText`, the WHATWG serialisation of text). Astro's `{expression}` escapes quotes as
 * well, which only attribute values need: the JSON examples and curl samples of the single reference
 * page held some 2,000 `&quot;` (six bytes for one; BENCHMARKS.md, "API reference pages"). For
 * element content only (`set:html`), never for an attribute value.
 * @module
 */
import { escapeText } from 'entities';

/** `text` as HTML element content; quotes stay as they are. */
export function textHtml(text: string): string {
  return escapeText(text);
}
