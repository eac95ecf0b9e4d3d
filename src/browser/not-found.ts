// The 404 page: fills the search box with the words of the missing address and lists the pages whose
// address is closest to it: first the known addresses a few typos away in the same section, then the
// search hits, the reader's language first (src/core/publish/not-found.ts), from /api/search.
import { switchToSectionOf } from './lang-switch.ts';
import { loadNamedPages } from './search-pages.ts';
import { nearAddresses, rankSuggestions, suggestionQuery, type Suggestion } from '../core/publish/not-found.ts';

/** Where the addresses of every article and solution are served (src/pages/search/addresses.json.ts). */
const ADDRESSES_URL = '/search/addresses.json';
/** Suggestions shown, near addresses first. */
const SUGGESTIONS_SHOWN = 5;

const json = <T>(url: string, fallback: T): Promise<T> =>
  fetch(url, { headers: { accept: 'application/json' } })
    .then((response) => (response.ok ? (response.json() as Promise<T>) : fallback))
    .catch(() => fallback);

const root = document.querySelector<HTMLElement>('[data-not-found]');
if (root) {
  const lang = root.dataset.lang === 'zh' ? 'zh' : 'en';
  switchToSectionOf(lang);
  const query = suggestionQuery(location.pathname);
  const input = root.querySelector<HTMLInputElement>('[data-not-found-query]')!;
  if (!input.value) input.value = query;
  const box = root.querySelector<HTMLElement>('[data-not-found-suggestions]')!;
  if (query) {
    void Promise.all([
      json<Suggestion[]>(`${root.dataset.api}?${new URLSearchParams({ q: query, limit: '20' })}`, []),
      json<string[]>(ADDRESSES_URL, []),
      loadNamedPages(),
    ]).then(([hits, addresses, named]) => {
      const titles = new Map<string, { title: string; lang: 'zh' | 'en' }>();
      for (const page of named) titles.set(page.path, page);
      for (const hit of hits) titles.set(new URL(hit.url, location.href).pathname, hit);
      const near = nearAddresses(location.pathname, [...addresses, ...named.map((page) => page.path)], SUGGESTIONS_SHOWN);
      const ranked = rankSuggestions(location.pathname, hits, lang, SUGGESTIONS_SHOWN)
        .map((hit) => new URL(hit.url, location.href).pathname)
        .filter((path) => !near.includes(path));
      const list = box.querySelector('ul')!;
      for (const path of [...near, ...ranked].slice(0, SUGGESTIONS_SHOWN)) {
        const known = titles.get(path);
        const item = document.createElement('li');
        const link = document.createElement('a');
        link.href = path;
        // An address the search did not return has no title here: the address is what the reader typed wrong.
        link.textContent = known?.title ?? decodeURI(path);
        if (known && known.lang !== lang) link.lang = known.lang === 'zh' ? 'zh-CN' : 'en';
        item.append(link);
        list.append(item);
      }
      box.hidden = list.childElementCount === 0;
    });
  }
}
