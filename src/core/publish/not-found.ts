/**
 * The 404 page's suggestions: the words of the missing address as a search query, and the hits
 * ranked by how close their address is to the one asked for, the reader's language first
 * (src/browser/not-found.ts fetches them from `/api/search`), after the known addresses within a
 * few typos of it in its own section (/search/addresses.json and /search/pages.json): the words of a
 * slug are not all in its document's text (a Chinese article's English slug), so a search alone
 * misses `/blog/llm-inference-cost-optimisation-zh`.
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

/**
 * Where a path sits: its language prefix (`/zh`, `/en` or ''), its section without it (`/zh/products/x` → `products`,
 * `/docs/api/x` → `docs/api`, `/blog/tag/x` → `blog/tag`), and its slug.
 */
export function sectionAndSlug(path: string): { prefix: string; section: string; slug: string } {
  const trimmed = path.replace(/\/+$/, '');
  const cut = trimmed.lastIndexOf('/');
  const chrome = trimmed.slice(0, Math.max(cut, 0));
  const prefix = /^\/(zh|en)(?=\/|$)/.exec(chrome)?.[0] ?? '';
  return { prefix, section: chrome.slice(prefix.length).replace(/^\//, '').toLowerCase(), slug: lastSegment(trimmed) };
}

/**
 * The edit distance (Levenshtein, over code points) of `a` and `b`, or `Infinity` once it is
 * certainly above `max`: a row never dips below the lengths' difference, so most pairs stop early.
 */
export function editDistance(a: string, b: string, max: number): number {
  const x = [...a];
  const y = [...b];
  if (Math.abs(x.length - y.length) > max) return Number.POSITIVE_INFINITY;
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      const value = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + cost);
      row.push(value);
      if (value < best) best = value;
    }
    if (best > max) return Number.POSITIVE_INFINITY;
    previous = row;
  }
  const distance = previous[y.length]!;
  return distance <= max ? distance : Number.POSITIVE_INFINITY;
}

/** Typos a slug of `length` characters may carry and still name a page: one in five, at least one. */
export const slugTypoBudget = (length: number): number => Math.max(1, Math.floor(length / 5));

/**
 * Typos a section no page lives in may carry and still name one: one in four, at least one, so a plural
 * (`blog/tags` for `blog/tag`, `blog/categories` for `blog/category`) or a slip (`prodcts`) still finds its section.
 */
export const sectionTypoBudget = (length: number): number => Math.max(1, Math.floor(length / 4));

/** The section of `known` that `section` names: itself when a page lives there, else the closest within its typo budget. */
function knownSection(section: string, known: readonly { section: string }[]): string | undefined {
  const sections = new Set(known.map((k) => k.section));
  if (sections.has(section)) return section;
  let best: { section: string; distance: number } | undefined;
  for (const candidate of sections) {
    const distance = editDistance(section, candidate, sectionTypoBudget([...section].length));
    if (distance < (best?.distance ?? Number.POSITIVE_INFINITY)) best = { section: candidate, distance };
  }
  return best?.section;
}

/**
 * The known addresses within a few typos of `missingPath` in its own section (`/zh/products/llm-gatway`
 * → `/zh/products/llm-gateway`, `/blog/tag/ragg` → `/blog/tag/rag`; a blog slug is never matched against a
 * product), closest first and, at equal distance, the one in the reader's chrome: a path under `/zh` is read by a
 * Chinese reader, any other by an English one (the 404 pages' languages), and an address under the reader's
 * prefix is certainly in their chrome, one without a prefix is a document's own or a page's English one, one
 * under the other prefix is certainly not. A section no page lives in stands for the closest one that has pages
 * (`/blog/tags/rag` → `/blog/tag/rag`).
 */
export function nearAddresses(missingPath: string, known: readonly string[], limit = 5): string[] {
  const missing = missingPath.replace(/\/+$/, '');
  const wanted = sectionAndSlug(missing);
  if (!wanted.slug) return [];
  const candidates = known.map((path, order) => ({ path, order, ...sectionAndSlug(path) }));
  const section = knownSection(wanted.section, candidates);
  const budget = slugTypoBudget([...wanted.slug].length);
  const readerPrefix = wanted.prefix === '/zh' ? '/zh' : '/en';
  const chromeRank = (prefix: string): number => (prefix === readerPrefix ? 0 : prefix === '' ? 1 : 2);
  return candidates
    .map((c) => ({
      ...c,
      distance: c.section === section ? editDistance(wanted.slug, c.slug, budget) : Number.POSITIVE_INFINITY,
      chrome: chromeRank(c.prefix),
    }))
    .filter((c) => c.path !== missing && Number.isFinite(c.distance))
    .sort((a, b) => a.distance - b.distance || a.chrome - b.chrome || a.order - b.order)
    .filter((c, i, all) => all.findIndex((o) => o.slug === c.slug) === i)
    .slice(0, limit)
    .map((c) => c.path);
}
