/**
 * CommonMark inline markup of OpenAPI descriptions (backticks, emphasis, links) as HTML, with raw
 * HTML escaped rather than passed through: descriptions are data, never markup we trust.
 * @module
 */
import MarkdownIt from 'markdown-it';

// html: false escapes tags; linkify off: bare URLs stay text (the descriptions name paths, not links).
const markdown = new MarkdownIt('commonmark', { html: false, linkify: false, typographer: false });

/** One description (inline markup only: no paragraphs or lists) as HTML. */
export function inlineMarkdown(text: string): string {
  return markdown.renderInline(text);
}
