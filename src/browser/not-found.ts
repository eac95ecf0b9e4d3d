// The 404 page: fills the search box with the words of the missing address and lists the pages whose
// address is closest to it, the reader's language first (src/core/publish/not-found.ts), from /api/search.
import { switchToSectionOf } from './lang-switch.ts';
import { rankSuggestions, suggestionQuery, type Suggestion } from '../core/publish/not-found.ts';

const root = document.querySelector<HTMLElement>('[data-not-found]');
if (root) {
  const lang = root.dataset.lang === 'zh' ? 'zh' : 'en';
  switchToSectionOf(lang);
  const query = suggestionQuery(location.pathname);
  const input = root.querySelector<HTMLInputElement>('[data-not-found-query]')!;
  if (!input.value) input.value = query;
  const box = root.querySelector<HTMLElement>('[data-not-found-suggestions]')!;
  if (query) {
    fetch(`${root.dataset.api}?${new URLSearchParams({ q: query, limit: '20' })}`, { headers: { accept: 'application/json' } })
      .then((response) => (response.ok ? (response.json() as Promise<Suggestion[]>) : []))
      .then((hits) => {
        const list = box.querySelector('ul')!;
        for (const hit of rankSuggestions(location.pathname, hits, lang)) {
          const item = document.createElement('li');
          const link = document.createElement('a');
          link.href = new URL(hit.url, location.href).pathname;
          link.textContent = hit.title;
          if (hit.lang !== lang) link.lang = hit.lang === 'zh' ? 'zh-CN' : 'en';
          item.append(link);
          list.append(item);
        }
        box.hidden = list.childElementCount === 0;
      })
      .catch(() => undefined); // no suggestions: the search box is still there
  }
}
