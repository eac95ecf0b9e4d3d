/**
 * The search tokenizer, shared by the index build and the query side (both must agree byte for byte).
 *
 * Text is NFKC-normalised and lowercased (full-width `ＬＬＭ` → `llm`), then split into Han runs and
 * other word runs before any CJK handling:
 * - a Han run becomes overlapping character bigrams (`向量数据库` → 向量 量数 数据 据库); a run of
 *   one character becomes a unigram;
 * - other text becomes `[\p{L}\p{M}\p{N}]+` words; English stop words are dropped and words of three
 *   or more letters a–z are reduced to their Porter2 stem (`deploying`, `deployment` → `deploy`).
 *
 * Non-Han tokens also carry their unstemmed surface word, which feeds the lexicon used for prefix
 * and typo matching (docs/reference/search.md §3, §6.6).
 * @module
 */
import stem from 'wink-porter2-stemmer';

/** What a token is: a Han bigram, a lone Han character, or a non-Han word. */
export type TokenKind = 'bigram' | 'unigram' | 'word';

/** One index or query token. */
export interface Token {
  /** The index term: a Han bigram or unigram, a Porter2 stem, or the word itself. */
  term: string;
  kind: TokenKind;
  /** The lowercased, unstemmed word for `kind: 'word'` (the lexicon entry); `null` for Han tokens. */
  word: string | null;
}

/**
 * Words longer than this (in UTF-16 code units) are dropped: they are hashes, base64 blobs or
 * URLs glued together, never something a reader types.
 */
export const MAX_WORD_CHARS = 64;

/** Words of at least this many letters a–z are stemmed (Porter2 leaves shorter words alone anyway). */
const MIN_STEM_LETTERS = 3;

/** Entries kept in the stem memo before it is cleared, so a long-lived process cannot grow it without bound. */
const STEM_CACHE_MAX_ENTRIES = 100_000;

/** A small English stop-word list: words that carry no meaning for search on their own. */
const STOP_WORDS: ReadonlySet<string> = new Set([
  'a',
  'about',
  'after',
  'all',
  'also',
  'am',
  'an',
  'and',
  'any',
  'are',
  'as',
  'at',
  'be',
  'been',
  'before',
  'being',
  'between',
  'both',
  'but',
  'by',
  'can',
  'could',
  'did',
  'do',
  'does',
  'each',
  'for',
  'from',
  'had',
  'has',
  'have',
  'he',
  'her',
  'here',
  'his',
  'how',
  'i',
  'if',
  'in',
  'into',
  'is',
  'it',
  'its',
  'just',
  'me',
  'more',
  'most',
  'my',
  'no',
  'not',
  'of',
  'on',
  'only',
  'or',
  'other',
  'our',
  'out',
  's',
  'she',
  'should',
  'so',
  'some',
  'such',
  't',
  'than',
  'that',
  'the',
  'their',
  'them',
  'then',
  'there',
  'these',
  'they',
  'this',
  'those',
  'through',
  'to',
  'too',
  'up',
  'very',
  'was',
  'we',
  'were',
  'what',
  'when',
  'where',
  'which',
  'while',
  'who',
  'whom',
  'why',
  'will',
  'with',
  'would',
  'you',
  'your',
]);

/** A Han run (group 1) or a run of other letters, marks and digits (group 2). */
const SEGMENT_PATTERN = /(\p{Script=Han}+)|([[\p{L}\p{M}\p{N}]--\p{Script=Han}]+)/gv;
const STEMMABLE_WORD = /^[a-z]+$/;
const HIGH_SURROGATE = /[\uD800-\uDBFF]/;
const HIGH_SURROGATE_AT_END = /[\uD800-\uDBFF]$/;

const stemCache = new Map<string, string>();

/** Whether `word` (lowercase) is on the stop-word list. */
export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}

/**
 * The index term for a lowercase non-Han surface word: its Porter2 stem when it is made of three
 * or more letters a–z, else the word itself (`qwen2`, `h100`, `café`).
 */
export function termOfWord(word: string): string {
  if (word.length < MIN_STEM_LETTERS || !STEMMABLE_WORD.test(word)) return word;
  const cached = stemCache.get(word);
  if (cached !== undefined) return cached;
  const stemmed = stem(word);
  // The stemmer is plain JS; keep the word itself if it ever returns something odd.
  const term = typeof stemmed === 'string' && stemmed.length > 0 ? stemmed : word;
  if (stemCache.size >= STEM_CACHE_MAX_ENTRIES) stemCache.clear();
  stemCache.set(word, term);
  return term;
}

/** NFKC + lowercase: the normal form both the index and the query see. */
export function normalizeText(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

/**
 * Calls `emit` for every token of `text`, in order. The allocation-free core of {@link tokenize};
 * the index build uses it directly.
 */
export function forEachToken(text: string, emit: (term: string, kind: TokenKind, word: string | null) => void): void {
  const normalized = normalizeText(text);
  for (const match of normalized.matchAll(SEGMENT_PATTERN)) {
    const han = match[1];
    if (han !== undefined) {
      // Astral Han (CJK Extension B+) is two code units per character: index by code point then.
      const chars: ArrayLike<string> = HIGH_SURROGATE.test(han) ? Array.from(han) : han;
      if (chars.length === 1) {
        emit(chars[0]!, 'unigram', null);
      } else {
        for (let i = 0; i + 1 < chars.length; i++) emit(chars[i]! + chars[i + 1]!, 'bigram', null);
      }
      continue;
    }
    const word = match[2]!;
    if (word.length > MAX_WORD_CHARS || STOP_WORDS.has(word)) continue;
    emit(termOfWord(word), 'word', word);
  }
}

/**
 * A search query of at most `maxChars` UTF-16 units from a longer text (a question in a sentence or three): its
 * words in order, once each, English stop words left out, joined by spaces and cut at a word; a Han run that does not
 * fit is cut between characters. A text that already fits comes back unchanged. The engine reads only the start of
 * a query, so a long question cut as it is would lose its last clause, often the one that asks.
 */
export function queryOfText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const seen = new Set<string>();
  let query = '';
  for (const match of text.normalize('NFKC').matchAll(SEGMENT_PATTERN)) {
    const word = match[0];
    const lower = word.toLowerCase();
    if ((match[2] !== undefined && STOP_WORDS.has(lower)) || seen.has(lower)) continue;
    seen.add(lower);
    const room = maxChars - query.length - (query === '' ? 0 : 1);
    const fits = word.length <= room ? word : match[1] !== undefined ? word.slice(0, room).replace(HIGH_SURROGATE_AT_END, '') : '';
    if (fits !== '') query += (query === '' ? '' : ' ') + fits;
    if (fits !== word) break;
  }
  return query;
}

/** Splits `text` into index/query tokens (see the module comment for the rules). */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  forEachToken(text, (term, kind, word) => {
    tokens.push({ term, kind, word });
  });
  return tokens;
}
