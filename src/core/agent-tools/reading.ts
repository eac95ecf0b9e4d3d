/**
 * How a tool's result reads for an agent that takes text (the A2A agent's reply; any text-only
 * client): markdown with absolute links, the links it cites (page and markdown twin), and what a
 * structured data part carries. Each tool words its own result (ToolSpec.read), typed by its output.
 * @module
 */
import type { JsonObject } from '../kernel/jsonrpc.ts';
import { absoluteUrl, twinPathOf } from '../kernel/paths.ts';

/** A page the reading cites: its URL and, for a page with one, its markdown twin. */
export interface ToolLink extends JsonObject {
  title: string;
  url: string;
  markdown_url?: string;
}

/** A result worded for a reader. */
export interface ToolReading {
  /** Markdown. */
  text: string;
  /** The pages the text cites (absent when the tool has no wording of its own). */
  links?: ToolLink[];
  /** What a data part carries (default: the whole result; get_article leaves out the body the text already holds). */
  result?: JsonObject;
}

/** A link to `url`, with its markdown twin when the page has one. */
export function linkTo(title: string, url: string, origin: string): ToolLink {
  const twin = twinPathOf(new URL(url).pathname);
  return { title, url, ...(twin ? { markdown_url: absoluteUrl(origin, twin) } : {}) };
}

/** `[title](url) (markdown: twin)` */
export const markdownLink = (link: ToolLink): string =>
  `[${link.title.replace(/[[\]]/g, '')}](${link.url})${link.markdown_url ? ` (markdown: ${link.markdown_url})` : ''}`;

/** A result with no wording of its own: its JSON. */
export const jsonReading = (result: JsonObject): ToolReading => ({ text: JSON.stringify(result, null, 2) });
