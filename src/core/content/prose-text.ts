/**
 * Plain-text fields as readers see them: the YAML and front-matter strings (company profile,
 * categories, product summaries, titles, excerpts) are normalised once, where the catalogue reads
 * them, so the pages, the twins, the feeds, llms.txt and the MCP answers all show the same text.
 *
 * Two fixes, both hand-written (a few lines each; the markdown processor does the second one for
 * bodies, but offers no call for a plain string):
 * - the space a folded YAML scalar (`>-`) puts where a line broke inside Chinese text
 *   ("虚构。 在本站") is dropped; the space an author writes between Han and Latin ("AI 智能体") stays;
 * - straight quotes become typographic quotes, as smart punctuation does in article bodies.
 * @module
 */

/** Han ideographs (and the CJK compatibility block), the characters a folded line break must not separate. */
const HAN = '\\p{Script=Han}';
/** Full-width CJK punctuation: the CJK symbols block (、。〈〉《》「」『』【】〔〕…) and the full-width forms (，：；！？（）). */
const CJK_PUNCTUATION = '\\u3000-\\u303F\\uFF01-\\uFF0F\\uFF1A-\\uFF20\\uFF3B-\\uFF40\\uFF5B-\\uFF65';

/**
 * Spaces and tabs with full-width punctuation on either side, or Han on both: what a folded line
 * break inside Chinese prose leaves. Chinese sets no space around its punctuation or between ideographs.
 */
const FOLDED_CJK_SPACE = new RegExp(`(?<=[${CJK_PUNCTUATION}])[ \\t]+|[ \\t]+(?=[${CJK_PUNCTUATION}])|(?<=${HAN})[ \\t]+(?=${HAN})`, 'gu');

/** Drops the spaces folded YAML leaves inside Chinese text; Latin text and Han–Latin spacing are untouched. */
export function joinCjkLines(text: string): string {
  return text.replace(FOLDED_CJK_SPACE, '');
}

/** Characters after which a quote opens: start of text, space, an opening bracket or dash. */
const OPENS_AFTER = /^$|[\s([{\u2014\u2013\-/<\u3008\u300A\u300C\u300E\u3010\uFF08]/u;

/**
 * Straight quotes to typographic ones: `"…"` → “…”, `'…'` → ‘…’, `don't` → don’t. Double quotes
 * that pair up alternate open–close (Chinese sets them between ideographs, where spacing says
 * nothing: 出现"第一""根治" → 出现“第一”“根治”); otherwise, and for single quotes, a quote opens
 * after a space, an opening bracket or the start, and closes (or is an apostrophe) anywhere else.
 */
export function smartQuotes(text: string): string {
  if (!/["']/.test(text)) return text;
  const doubles = (text.match(/"/g) ?? []).length;
  let doubleOpen = false;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    const before = i === 0 ? '' : text[i - 1]!;
    if (ch === '"') {
      const opens: boolean = doubles % 2 === 0 ? !doubleOpen : OPENS_AFTER.test(before);
      doubleOpen = opens;
      out += opens ? '\u201C' : '\u201D';
    } else if (ch === "'") {
      out += OPENS_AFTER.test(before) ? '\u2018' : '\u2019';
    } else {
      out += ch;
    }
  }
  return out;
}

/** A plain-text field as readers see it: folded Chinese lines joined, quotes made typographic. */
export function proseText(text: string): string {
  return smartQuotes(joinCjkLines(text));
}

/** {@link proseText} for an optional field. */
export function optionalProseText(text: string | undefined): string | undefined {
  return text === undefined ? undefined : proseText(text);
}
