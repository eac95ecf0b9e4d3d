/**
 * The Pagefind fallback's delta bundle, shared by the build step that writes it (scripts/pagefind-index.ts) and the
 * /search page that reads it (src/browser/search-page.ts). A rebuild keeps a cached base bundle whose pages changed
 * little and indexes the changed pages into a small delta bundle; the bundle list names them as `superseded`. A base
 * bundle's result for a superseded page is its old text, so the search page drops it; the delta's result, marked
 * with {@link DELTA_META}, is the current one.
 */

/** The `data-pagefind-meta` pair that marks the delta bundle's results. */
export const DELTA_META = { name: 'indexed', value: 'delta' } as const;

/** What the search page needs of a Pagefind result's data. */
export interface PagefindResultData {
  url: string;
  meta: Record<string, string | undefined>;
}

/**
 * Batches of results' data read at most: results a filter refuses load the next batch, so a query Pagefind matches
 * loosely (hundreds of pages, few that hold the query) reads this many fragments' worth, not every result's.
 */
export const MAX_RESULT_BATCHES = 4;

/**
 * The first `limit` current results, in Pagefind's order, that `accept` keeps: a result for a superseded page counts
 * only when the delta bundle holds it. Results' data are loaded `limit` at a time (at most {@link MAX_RESULT_BATCHES}
 * batches), so a stale or refused result costs one more fragment, not a page. `pathOf` turns a result's URL into the
 * form `superseded` lists (`/blog/a/`).
 */
export async function currentResults<Data extends PagefindResultData>(
  results: readonly { data(): Promise<Data> }[],
  superseded: ReadonlySet<string>,
  limit: number,
  pathOf: (url: string) => string = (url) => url,
  accept: (data: Data) => boolean = () => true,
): Promise<Data[]> {
  const kept: Data[] = [];
  const end = Math.min(results.length, limit * MAX_RESULT_BATCHES);
  for (let start = 0; start < end && kept.length < limit; start += limit) {
    const batch = await Promise.all(results.slice(start, Math.min(start + limit, end)).map((result) => result.data()));
    for (const data of batch) {
      const stale = superseded.has(pathOf(data.url)) && data.meta[DELTA_META.name] !== DELTA_META.value;
      if (!stale && kept.length < limit && accept(data)) kept.push(data);
    }
  }
  return kept;
}
