/**
 * The 404 page's suggestions: the words of the missing address as a search query, and the hits
 * ranked by how close their address is to the one asked for, the reader's language first
 * (src/browser/not-found.ts fetches them from `/api/search`).
 * @module
 */

/** The last segment of a path, decoded and lower-cased, without a trailing `.md`, `.html` or slash. */
export function lastSegment(path: string): string {
  const segment = path.replace(/\/+$/, '').split('/').pop() ?? '';
  let decoded = segment;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    // a malformed escape: keep the raw text
  }
  return decoded.replace(/\.(md|html?)$/i, '').toLowerCase();
}

/** The search text for a missing address: the words of its last segment (`/blog/vllm-deploy-gude` → `vllm deploy gude`). */
export function suggestionQuery(path: string): string {
  return lastSegment(path)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0 && w !== 'zh' && w !== 'en')
    .join(' ')
    .slice(0, 200);
}

/** The Sørensen–Dice coefficient of two strings' character bigrams: 1 for equal, 0 for nothing shared. */
export function slugSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  const bigrams = (s: string): Map<string, number> => {
    const counts = new Map<string, number>();
    const chars = [...s];
    for (let i = 0; i < chars.length - 1; i++) {
      const pair = chars[i]! + chars[i + 1]!;
      counts.set(pair, (counts.get(pair) ?? 0) + 1);
    }
    return counts;
  };
  const x = bigrams(a);
  const y = bigrams(b);
  let shared = 0;
  for (const [pair, n] of x) shared += Math.min(n, y.get(pair) ?? 0);
  const total = [...x.values(), ...y.values()].reduce((sum, n) => sum + n, 0);
  return total === 0 ? 0 : (2 * shared) / total;
}

/** A search hit as the 404 page lists it. */
export interface Suggestion {
  url: string;
  title: string;
  lang: 'zh' | 'en';
}

/**
 * The hits to suggest for `missingPath`: the reader's language first, then by how similar each
 * hit's address is to the missing one (search rank breaks ties), at most `limit`.
 */
export function rankSuggestions<T extends Suggestion>(missingPath: string, hits: readonly T[], lang: 'zh' | 'en', limit = 5): T[] {
  const wanted = lastSegment(missingPath);
  return hits
    .map((hit, rank) => ({ hit, rank, score: slugSimilarity(wanted, lastSegment(new URL(hit.url, 'http://x').pathname)) }))
    .sort((a, b) => Number(b.hit.lang === lang) - Number(a.hit.lang === lang) || b.score - a.score || a.rank - b.rank)
    .slice(0, limit)
    .map((s) => s.hit);
}
