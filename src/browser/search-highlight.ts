/**
 * Marks the query's matches in a result's text the way the search engine matched them
 * (src/core/search/tokenize.ts): Chinese by the query's character bigrams, other words by their
 * Porter2 stem, the last word also as a prefix of whole words, and a query word the text does not
 * hold by its typo matches (within the engine's edit distance, src/core/search/search-index.ts). A
 * Latin word is marked whole or not at all, so a highlight never starts or ends inside a word
 * (`LLM` does not light up the `LLM` of `vLLM`).
 * @module
 */
import { boundedEditDistance } from '../core/search/edit-distance.ts';
import { normalizeText, termOfWord, tokenize } from '../core/search/tokenize.ts';

/** A run of text and whether it matched. */
export interface Segment {
  text: string;
  match: boolean;
}

/** The last query word matches longer words it starts when it has at least this many characters (as the engine). */
const MIN_PREFIX_CHARS = 3;
/** As the engine: a word of a–z with at least this many letters tolerates one edit, from {@link MIN_TWO_EDIT_TYPO_CHARS} two. */
const MIN_TYPO_CHARS = 4;
const MIN_TWO_EDIT_TYPO_CHARS = 8;
const TYPO_WORD = /^[a-z]+$/;
const SEGMENTS = /(\p{Script=Han}+)|([[\p{L}\p{M}\p{N}]--\p{Script=Han}]+)/gv;

export interface QueryMatcher {
  /** `text` split into matched and unmatched runs (concatenated, they are `text` again). */
  segments(text: string): Segment[];
}

/** Compiles a query once for many texts. */
export function queryMatcher(query: string): QueryMatcher {
  const tokens = tokenize(query);
  const bigrams = new Set(tokens.filter((t) => t.kind === 'bigram').map((t) => t.term));
  // As the engine: a lone Han character counts only when the query has no bigram (`库`, not the `多` of `多 LoRA 微调`).
  const unigrams = new Set(bigrams.size ? [] : tokens.filter((t) => t.kind === 'unigram').map((t) => t.term));
  const terms = new Set(tokens.filter((t) => t.kind === 'word').map((t) => t.term));
  const words = tokens.filter((t) => t.kind === 'word');
  const last = words.length ? words[words.length - 1]!.word! : '';
  const prefix = last.length >= MIN_PREFIX_CHARS ? last : '';

  const wordMatches = (normal: string): boolean => terms.has(termOfWord(normal)) || (prefix !== '' && normal.startsWith(prefix));
  // Query words that may have matched by a typo: a–z, long enough.
  const typoWords = words.map((w) => w.word!).filter((w) => w.length >= MIN_TYPO_CHARS && TYPO_WORD.test(w));
  const typoMatches = (query: string, normal: string): boolean => {
    const maxEdits = query.length >= MIN_TWO_EDIT_TYPO_CHARS ? 2 : 1;
    // The engine reaches a lexicon word within the distance, then every word of its stem (`gateways` for `gatway`).
    if (!TYPO_WORD.test(normal)) return false;
    return boundedEditDistance(query, normal, maxEdits) <= maxEdits || boundedEditDistance(query, termOfWord(normal), maxEdits) <= maxEdits;
  };

  return {
    segments(text: string): Segment[] {
      const marks = new Uint8Array(text.length);
      const latin: { start: number; end: number; normal: string }[] = [];
      for (const match of text.matchAll(SEGMENTS)) {
        const start = match.index;
        if (match[2] !== undefined) {
          const normal = normalizeText(match[2]);
          latin.push({ start, end: start + match[2].length, normal });
          if (wordMatches(normal)) marks.fill(1, start, start + match[2].length);
          continue;
        }
        const han = match[1]!;
        const chars = Array.from(han);
        let offset = start;
        const positions = chars.map((c) => {
          const at = offset;
          offset += c.length;
          return at;
        });
        for (let i = 0; i < chars.length; i++) {
          const pair = i + 1 < chars.length ? normalizeText(chars[i]! + chars[i + 1]!) : '';
          if (pair && bigrams.has(pair)) marks.fill(1, positions[i]!, positions[i + 1]! + chars[i + 1]!.length);
          if (unigrams.has(normalizeText(chars[i]!))) marks.fill(1, positions[i]!, positions[i]! + chars[i]!.length);
        }
      }
      // A query word this text holds (by stem or prefix) matched as typed; one it lacks may have matched by a typo.
      for (const query of typoWords) {
        if (latin.some((w) => termOfWord(w.normal) === termOfWord(query) || (query === prefix && w.normal.startsWith(prefix)))) continue;
        for (const w of latin) if (typoMatches(query, w.normal)) marks.fill(1, w.start, w.end);
      }
      const segments: Segment[] = [];
      let runStart = 0;
      for (let i = 1; i <= text.length; i++) {
        if (i === text.length || marks[i] !== marks[runStart]) {
          segments.push({ text: text.slice(runStart, i), match: marks[runStart] === 1 });
          runStart = i;
        }
      }
      return segments.filter((s) => s.text.length > 0);
    },
  };
}
