/**
 * The search page's filters as a shared URL gives them (`/search?q=…&lang=…&category=…`). A value the
 * page does not know (`lang=xx`, `lang=EN`, `category=nope`) is ignored, as an unknown `type` is: it
 * selects nothing, so it must not hide every result behind a filter no radio button shows. The API
 * keeps its 400 for an invalid `lang` (its contract says so); this is the page's reading only.
 * @module
 */

/** The filters a search page applies: `''` is "all". */
export interface SearchSelection {
  lang: string;
  category: string;
}

/** Languages the filter offers, as the URL spells them. */
const FILTER_LANGUAGES: ReadonlySet<string> = new Set(['zh', 'en']);

/** The selection `params` asks for, keeping only values the page knows (`categories` is keyed by slug). */
export function selectionFromParams(params: URLSearchParams, categories: Readonly<Record<string, unknown>>): SearchSelection {
  const lang = params.get('lang') ?? '';
  const category = params.get('category') ?? '';
  return {
    lang: FILTER_LANGUAGES.has(lang) ? lang : '',
    category: Object.hasOwn(categories, category) ? category : '',
  };
}
