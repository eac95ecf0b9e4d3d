/**
 * Why a hit matched, as the search page and the header's palette both show it: the passage of the
 * hit's markdown twin around its best match (src/core/search/passage.ts), the query's words marked
 * as the engine matched them (src/browser/search-highlight.ts), headed by its section, and the
 * address of that section (`page#anchor`). One place builds the passage; each caller places it.
 * @module
 */
import { bestPassage, PASSAGE_CHARS, type Passage } from '../core/search/passage.ts';
import type { QueryMatcher } from './search-highlight.ts';

/** The result types whose twin has headed sections worth quoting (products and listings are named by their summary). */
const QUOTED_TYPES: ReadonlySet<string> = new Set(['article', 'solution']);

/** Whether a hit of this type can show a passage. */
export function quotesPassage(type: string | undefined): boolean {
  return type !== undefined && QUOTED_TYPES.has(type);
}

/** Each document's markdown twin, fetched once per page view (`/blog/<slug>.md`); undefined when it cannot be had. */
const twins = new Map<string, Promise<string | undefined>>();
function twinOf(path: string): Promise<string | undefined> {
  let twin = twins.get(path);
  if (!twin) {
    twin = fetch(`${path}.md`, { headers: { accept: 'text/markdown' } })
      .then((response) => (response.ok ? response.text() : undefined))
      .catch(() => undefined);
    twins.set(path, twin);
  }
  return twin;
}

/** A passage and the address of its section. */
export interface FoundPassage extends Passage {
  /** `path#anchor`: the heading above the passage. */
  href: string;
}

/**
 * The passage of the document at `path` that shows why `matcher` matched it, or undefined when the
 * twin cannot be fetched or only its title or summary matched (the hit's summary says it then).
 */
export async function passageOf(path: string, matcher: QueryMatcher, chars = PASSAGE_CHARS): Promise<FoundPassage | undefined> {
  const markdown = await twinOf(path);
  if (markdown === undefined) return undefined;
  const passage = bestPassage(markdown, (text) => matcher.segments(text), chars);
  return passage && { ...passage, href: `${path}#${passage.anchor}` };
}

/** Appends `text` to `parent` with the query's matches in <mark>. */
export function appendMarked(parent: HTMLElement, text: string, matcher: QueryMatcher): void {
  for (const segment of matcher.segments(text)) {
    if (segment.match) {
      const mark = document.createElement('mark');
      mark.textContent = segment.text;
      parent.append(mark);
    } else {
      parent.append(segment.text);
    }
  }
}

/** How a caller shows a passage: its element and classes, and whether the section's name links to it. */
export interface PassageView {
  /** `p` on the search page; `span` inside the palette's hit link. */
  tag: 'p' | 'span';
  className: string;
  sectionClassName: string;
  /** A link to the section (the search page); the palette's whole hit is already that link. */
  linkSection: boolean;
  /** The document's language (`zh-CN`, `en`), when known. */
  lang?: string;
}

/** The passage as an element: the section's name, then the text with the matches marked. */
export function passageElement(found: FoundPassage, matcher: QueryMatcher, view: PassageView): HTMLElement {
  const element = document.createElement(view.tag);
  element.className = view.className;
  if (view.lang) element.lang = view.lang;
  const section = document.createElement(view.linkSection ? 'a' : 'span');
  section.className = view.sectionClassName;
  if (section instanceof HTMLAnchorElement) section.href = found.href;
  section.textContent = found.heading;
  element.append(section, ' ');
  appendMarked(element, found.text, matcher);
  return element;
}
