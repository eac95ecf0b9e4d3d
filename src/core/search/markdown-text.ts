/**
 * Markdown → searchable text: keeps prose and code text, drops syntax that only adds noise terms
 * (fence info strings, link and image URLs, reference definitions, HTML tags and entities).
 * Punctuation needs no stripping: the tokenizer ignores it.
 * @module
 */

const FENCE_LINE = /^ {0,3}(?:`{3,}|~{3,}).*$/gm;
const REFERENCE_DEFINITION = /^ {0,3}\[[^\]\n]+\]:[ \t]+\S+.*$/gm;
const IMAGE_OR_LINK = /!?\[([^\]\n]*)\]\([^)\n]*\)/g;
const AUTOLINK = /<(?:https?|mailto):[^>\s]*>/gi;
const BARE_URL = /\bhttps?:\/\/[^\s)>\]"'`]+/gi;
const HTML_COMMENT = /<!--[\s\S]*?-->/g;
const HTML_TAG = /<\/?[a-z][a-z0-9-]*(?:\s[^<>]*)?\/?>/gi;
const HTML_ENTITY = /&(?:[a-z]+|#\d+|#x[0-9a-f]+);/gi;

/** The text of a markdown document as the search index sees it. */
export function markdownToSearchText(markdown: string): string {
  return markdown
    .replace(FENCE_LINE, ' ')
    .replace(REFERENCE_DEFINITION, ' ')
    .replace(IMAGE_OR_LINK, ' $1 ')
    .replace(AUTOLINK, ' ')
    .replace(BARE_URL, ' ')
    .replace(HTML_COMMENT, ' ')
    .replace(HTML_TAG, ' ')
    .replace(HTML_ENTITY, ' ');
}
