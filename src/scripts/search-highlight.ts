/**
 * Marks the query's matches in a result's text the way the search engine matched them
 * (src/core/search/tokenize.ts): Chinese by the query's character bigrams, other words by their
 * Porter2 stem, the last word also as a prefix of whole words (the engine's typo tolerance is not
 * shown). A Latin word is marked whole or not at all, so a
 * highlight never starts or ends inside a word (`LLM` does not light up the `LLM` of `vLLM`).
 * @module
 */
import { normalizeText, termOfWord, tokenize } from '../core/search/tokenize.ts';

/** A run of text and whether it matched. */
export interface Segment {
  text: string;
  match: boolean;
}

/** The last query word matches longer words it starts when it has at least this many characters (as the engine). */
const MIN_PREFIX_CHARS = 3;
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

  const wordMatches = (word: string): boolean => {
    const normal = normalizeText(word);
    return terms.has(termOfWord(normal)) || (prefix !== '' && normal.startsWith(prefix));
  };

  return {
    segments(text: string): Segment[] {
      const marks = new Uint8Array(text.length);
      for (const match of text.matchAll(SEGMENTS)) {
        const start = match.index;
        if (match[2] !== undefined) {
          if (wordMatches(match[2])) marks.fill(1, start, start + match[2].length);
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
