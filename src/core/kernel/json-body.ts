/**
 * The one rule for JSON that strangers send: a document may nest at most {@link JSON_MAX_DEPTH}
 * arrays and objects. `JSON.parse` reads any depth, but code after it (a schema validator, a
 * structured clone, a library walking the value) recurses, and 8 KB of `[[[[` is enough to exhaust
 * the stack and turn a request into a 500. The depth is counted on the text before parsing, in one
 * pass without recursion, so a refused document costs no more than reading it.
 * @module
 */

/** Deepest nesting accepted: far beyond any request this site takes (JSON-RPC params nest a few levels). */
export const JSON_MAX_DEPTH = 64;

/** Whether `text` nests arrays and objects deeper than `maxDepth` (strings are skipped, escapes honoured). */
export function nestsDeeperThan(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > maxDepth) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** A parsed JSON text, or why it was refused. */
export type JsonParse = { ok: true; value: unknown } | { ok: false; problem: 'malformed' | 'too-deep' };

/** Parses JSON a client sent, refusing documents that nest deeper than {@link JSON_MAX_DEPTH}. */
export function parseClientJson(text: string): JsonParse {
  if (nestsDeeperThan(text, JSON_MAX_DEPTH)) return { ok: false, problem: 'too-deep' };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, problem: 'malformed' };
  }
}

/** The sentence every refusal of a too-deep document uses. */
export const TOO_DEEP_MESSAGE = `the JSON nests arrays and objects more than ${JSON_MAX_DEPTH} levels deep`;
