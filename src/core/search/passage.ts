/**
 * Why a search hit matched: the passage of its markdown around the best match, and the anchor of
 * the heading above it, so a result can quote the passage and link to `page#anchor`. Which words
 * match is the caller's (the search page marks them as the engine matched them: stems, prefixes,
 * typos, Chinese bigrams; src/browser/search-highlight.ts); this module finds the section, cuts
 * the window and names the heading. Anchors are the ids the page's headings get
 * (src/astro/markdown-plugins.ts headingAnchors: github-slugger over the heading's text).
 * @module
 */
import Slugger from 'github-slugger';
import { markdownToSearchText } from './markdown-text.ts';
import { smartQuotes } from '../content/prose-text.ts';

/**
 * A prose line of a twin with its quotes as the page shows them: the body's smart punctuation makes
 * `"省钱"` “省钱” on the page, so a passage quoting that line must too (the rule is prose-text.ts's,
 * the one the catalogue's titles and excerpts use). Inline code keeps its straight quotes, as on the page.
 */
function asOnThePage(line: string): string {
  return line
    .split(/(`[^`\n]*`)/)
    .map((part, i) => (i % 2 === 1 ? part : smartQuotes(part)))
    .join('');
}

/** A run of text and whether it matched (the search page's QueryMatcher segments). */
export interface MatchSegment {
  text: string;
  match: boolean;
}

/** Splits a text into matched and unmatched runs. */
export type MatchMarker = (text: string) => MatchSegment[];

/** The quoted part of a document and where it is. */
export interface Passage {
  /** The window around the match, with `…` where it was cut. */
  text: string;
  /** The id of the heading above the passage. */
  anchor: string;
  /** That heading's text. */
  heading: string;
}

/** About two lines of a result: long enough to show the match in its sentence. */
export const PASSAGE_CHARS = 220;
/**
 * The share of the window before the first match (70 of the search page's 220 characters): a
 * narrower window (the header's palette) keeps the match as near its start.
 */
const LEAD_SHARE = 0.32;

const HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)[ \t#]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

interface Section {
  anchor: string;
  heading: string;
  text: string;
}

/** A heading's text as the page shows it: inline code, emphasis and link syntax dropped. */
function headingText(source: string): string {
  return source
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*_~]/g, '')
    .replace(/<[^>]+>/g, '')
    .trim();
}

/**
 * The document's sections under headings of level 2 and below, with their anchors. Text before
 * the first of them (a twin's title, summary and facts, which the result already shows) is left out.
 */
export function headedSections(markdown: string): Section[] {
  const slugger = new Slugger();
  const sections: Section[] = [];
  let current: { anchor: string; heading: string; lines: string[] } | undefined;
  let fence = '';
  let titleSeen = false;
  for (const line of markdown.split('\n')) {
    const fenceMark = FENCE.exec(line)?.[1];
    if (fenceMark && (!fence || (fenceMark[0] === fence[0] && fenceMark.length >= fence.length))) {
      // A code fence opens or closes: headings inside code are code.
      fence = fence ? '' : fenceMark;
    } else if (!fence) {
      const heading = HEADING.exec(line);
      if (heading) {
        const text = headingText(heading[2]!);
        // A twin opens with the page title as its one level-1 heading; the page's body headings are slugged without it.
        if (heading[1] === '#' && !titleSeen && !current) {
          titleSeen = true;
          continue;
        }
        if (current) sections.push({ anchor: current.anchor, heading: current.heading, text: current.lines.join('\n') });
        // The anchor from the heading as written (it matched the page's ids before quotes were shaped).
        current = { anchor: slugger.slug(text), heading: asOnThePage(text), lines: [] };
        continue;
      }
    }
    // Code (inside a fence, or the fence's own line) keeps its quotes.
    current?.lines.push(fence || fenceMark ? line : asOnThePage(line));
  }
  if (current) sections.push({ anchor: current.anchor, heading: current.heading, text: current.lines.join('\n') });
  return sections.map((s) => ({ ...s, text: plainText(s.text) }));
}

/** A table's delimiter row (`| --- | :---: |`) or a thematic break (`---`): structure, not words. */
const RULE_LINE = /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/gm;

/** Search text with its runs of white space made one space (a passage reads as one line). */
function plainText(markdown: string): string {
  return markdownToSearchText(markdown.replace(RULE_LINE, ''))
    .replace(/[*_`>#|]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The matched runs of `text`: their positions and their distinct words. */
function matchesIn(text: string, mark: MatchMarker): { starts: number[]; distinct: Set<string> } {
  const starts: number[] = [];
  const distinct = new Set<string>();
  let at = 0;
  for (const segment of mark(text)) {
    if (segment.match) {
      starts.push(at);
      distinct.add(segment.text.toLowerCase());
    }
    at += segment.text.length;
  }
  return { starts, distinct };
}

/** `text` cut to about `chars` around `focus`, on spaces where the text has them, with `…` at each cut. */
export function windowAround(text: string, focus: number, chars = PASSAGE_CHARS): string {
  if (text.length <= chars) return text;
  let start = Math.max(0, Math.min(focus - Math.round(chars * LEAD_SHARE), text.length - chars));
  let end = Math.min(text.length, start + chars);
  // On a space when one is near (Latin text); Chinese text has none and is cut between characters.
  if (start > 0) {
    const space = text.indexOf(' ', start);
    if (space !== -1 && space < focus && space - start < 20) start = space + 1;
  }
  if (end < text.length) {
    const space = text.lastIndexOf(' ', end);
    if (space > focus && end - space < 20) end = space;
  }
  // Never split a surrogate pair.
  if (/[\uDC00-\uDFFF]/.test(text[start] ?? '')) start++;
  if (/[\uD800-\uDBFF]/.test(text[end - 1] ?? '')) end--;
  return `${start > 0 ? '…' : ''}${text.slice(start, end).trim()}${end < text.length ? '…' : ''}`;
}

/**
 * The passage of `markdown` that best shows why it matched: in the headed section with the most
 * distinct matched words (then the most matches, then the first), the window around its first
 * match. Undefined when no headed section matches (the result's summary says it then).
 */
export function bestPassage(markdown: string, mark: MatchMarker, chars = PASSAGE_CHARS): Passage | undefined {
  let best: { section: Section; starts: number[]; distinct: number } | undefined;
  for (const section of headedSections(markdown)) {
    const { starts, distinct } = matchesIn(`${section.heading} ${section.text}`, mark);
    if (!starts.length) continue;
    if (!best || distinct.size > best.distinct || (distinct.size === best.distinct && starts.length > best.starts.length))
      best = { section, starts, distinct: distinct.size };
  }
  if (!best) return undefined;
  const { section } = best;
  // The match inside the body when there is one (the heading is shown beside the passage anyway).
  const bodyStarts = matchesIn(section.text, mark).starts;
  const focus = bodyStarts[0];
  const text = focus === undefined ? windowAround(section.text, 0, chars) : windowAround(section.text, focus, chars);
  return { text, anchor: section.anchor, heading: section.heading };
}
