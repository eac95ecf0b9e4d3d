/**
 * Where a Chinese headline may break: between words, never inside one ("指南", "智能体"). Browsers break
 * Chinese between any two characters, and `text-wrap: balance` alone still splits a two-character word
 * across lines. The build marks the words' boundaries (`<wbr>`, src/components/Phrases.astro) and CSS
 * (`word-break: keep-all`) keeps each word whole, as BudouX does for Japanese; Intl.Segmenter's
 * dictionary (ICU) finds the words. Runtime-neutral: Node, Deno and browsers all have it.
 * @module
 */
import { escapeHtml } from '../kernel/html.ts';

const HAN = /\p{Script=Han}/u;
let segmenter: Intl.Segmenter | undefined;

/**
 * `text` cut where a line may break: each part ends a word (with the spaces and punctuation after it);
 * `[text]` when it holds no Han character (Latin text breaks at its spaces already).
 */
export function phrases(text: string): string[] {
  if (!HAN.test(text)) return [text];
  segmenter ??= new Intl.Segmenter('zh', { granularity: 'word' });
  const parts: string[] = [];
  let current = '';
  for (const { segment, isWordLike } of segmenter.segment(text)) {
    // A break goes before a word or an opening bracket or quote, never after one, nor before the punctuation or
    // space that follows a word.
    const opens = /^[\p{Ps}\p{Pi}]/u.test(segment);
    if ((isWordLike || opens) && current !== '' && !/[\p{Ps}\p{Pi}]$/u.test(current)) {
      parts.push(current);
      current = '';
    }
    current += segment;
  }
  if (current) parts.push(current);
  return parts;
}

/** Headlines marked so far, at most {@link MARKED_KEPT}. */
const MARKED = new Map<string, string>();
const MARKED_KEPT = 20_000;

/**
 * `text` as escaped HTML with a `<wbr>` between its {@link phrases}, wrapped in `<span class="phrases">` (the CSS that
 * keeps each word whole); plain escaped text when it has one phrase. A build marks each title once: it shows on a
 * dozen listing, tag and related cards (segmenting it for every card was the build's costliest part of a card).
 */
export function phrasesHtml(text: string): string {
  let html = MARKED.get(text);
  if (html === undefined) {
    const parts = phrases(text).map(escapeHtml);
    html = parts.length === 1 ? parts[0]! : `<span class="phrases">${parts.join('<wbr>')}</span>`;
    // The bound keeps a long-lived process (the dev server) from growing with every title it ever saw.
    if (MARKED.size >= MARKED_KEPT) MARKED.clear();
    MARKED.set(text, html);
  }
  return html;
}
