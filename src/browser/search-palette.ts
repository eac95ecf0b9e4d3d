/**
 * The header's search palette (src/components/search/SearchPalette.astro): ⌘K / Ctrl K or a click
 * on the header's search link opens it (on the search page they focus the page's own box instead);
 * typing searches `/api/search` and lists the best hits with the matched words marked; ↓ and ↑ move
 * between the box and the hits; Enter in the box goes to /search?q=… (every result, shareable); Esc
 * closes. An article or solution hit then shows the passage it matched in, headed by its section, and
 * links to that section, as the search page does (src/browser/search-passages.ts). The highlighter
 * (tokenizer and stemmer) and the passage code load on first use, so other pages carry only this
 * small module.
 */
import { loadNamedPages, matchNamedPages } from './search-pages.ts';

/** Products and reference pages the palette names above the article hits. */
const NAMED_PAGES_SHOWN = 3;

/**
 * A palette passage's characters: about three lines of the dialog on a phone (the search page quotes
 * 220), with the match in the first of them.
 */
const PALETTE_PASSAGE_CHARS = 120;

interface ApiHit {
  title: string;
  url: string;
  excerpt: string;
  type: string;
  lang: 'zh' | 'en';
}

// The dialog comes as a <template> in the head (SearchPaletteDialog.astro): put it at the end of the body, once.
const template = document.querySelector<HTMLTemplateElement>('template[data-search-palette-template]');
if (template) document.body.append(template.content);
const dialog = document.querySelector<HTMLDialogElement>('[data-search-palette]');
const trigger = document.querySelector<HTMLAnchorElement>('[data-palette-open]');

if (dialog && trigger) {
  // Apple keyboards say ⌘K (the markup says Ctrl K).
  const shortcut = trigger.querySelector<HTMLElement>('[data-palette-shortcut]');
  if (shortcut && /Mac|iPhone|iPad/.test(navigator.platform)) shortcut.textContent = '⌘K';
  const input = dialog.querySelector<HTMLInputElement>('input[name="q"]')!;
  const form = dialog.querySelector<HTMLFormElement>('form')!;
  const list = dialog.querySelector<HTMLOListElement>('[data-palette-results]')!;
  const status = dialog.querySelector<HTMLElement>('[data-palette-status]')!;
  const strings = JSON.parse(dialog.dataset.strings ?? '{}') as Record<string, string>;
  const fill = (template: string, values: Record<string, string | number>): string =>
    template.replace(/\{(\w+)\}/g, (_, key: string) => String(values[key] ?? ''));
  let highlighter: Promise<typeof import('./search-highlight.ts')> | undefined;
  let passages: Promise<typeof import('./search-passages.ts')> | undefined;
  let controller: AbortController | undefined;

  const open = (): void => {
    const pageBox = document.querySelector<HTMLInputElement>('#search-input');
    if (pageBox) {
      pageBox.focus();
      pageBox.select();
      return;
    }
    highlighter ??= import('./search-highlight.ts');
    passages ??= import('./search-passages.ts');
    void loadNamedPages();
    if (!dialog.open) dialog.showModal();
    input.focus();
    input.select();
  };

  const search = async (): Promise<void> => {
    const query = input.value.trim();
    controller?.abort();
    delete dialog.dataset.passages;
    if (!query) {
      list.replaceChildren();
      status.textContent = '';
      return;
    }
    // The API refuses a longer query (400): say why here instead of "unavailable".
    const maxChars = Number(dialog.dataset.maxChars);
    if (query.length > maxChars) {
      list.replaceChildren();
      status.textContent = fill(strings.tooLong ?? '', { n: maxChars });
      return;
    }
    const current = new AbortController();
    controller = current;
    try {
      const url = `${dialog.dataset.api}?${new URLSearchParams({ q: query, limit: dialog.dataset.limit ?? '8' })}`;
      const response = await fetch(url, { signal: current.signal, headers: { accept: 'application/json' } });
      if (!response.ok) throw new Error(String(response.status));
      const found = (await response.json()) as ApiHit[];
      highlighter ??= import('./search-highlight.ts');
      passages ??= import('./search-passages.ts');
      const [{ queryMatcher }, quoting, pages] = await Promise.all([highlighter, passages, loadNamedPages()]);
      const matcher = queryMatcher(query);
      const named = matchNamedPages(pages, matcher, query, NAMED_PAGES_SHOWN).map((page) => ({
        title: page.title,
        url: page.path,
        excerpt: page.description,
        type: page.type,
        lang: page.lang,
      }));
      const hits = [...named, ...found.filter((hit) => !named.some((page) => new URL(hit.url, location.href).pathname === page.url))];
      const marked = (text: string, className: string, lang: string): HTMLSpanElement => {
        const span = document.createElement('span');
        span.className = className;
        span.lang = lang;
        quoting.appendMarked(span, text, matcher);
        return span;
      };
      const quoted: Promise<void>[] = [];
      const items = hits.map((hit) => {
        const item = document.createElement('li');
        const link = document.createElement('a');
        const path = new URL(hit.url, location.href).pathname;
        link.href = path;
        const lang = hit.lang === 'zh' ? 'zh-CN' : 'en';
        const excerpt = marked(hit.excerpt, 'palette-excerpt', lang);
        link.append(marked(hit.title, 'palette-title', lang), excerpt);
        item.append(link);
        // The passage replaces the summary when it comes (the twin is fetched once per page view), if the query is still this one.
        if (quoting.quotesPassage(hit.type))
          quoted.push(
            quoting.passageOf(path, matcher, PALETTE_PASSAGE_CHARS).then((passage) => {
              if (!passage || controller !== current || !link.isConnected) return;
              link.href = passage.href;
              excerpt.replaceWith(
                quoting.passageElement(passage, matcher, {
                  tag: 'span',
                  className: 'palette-passage',
                  sectionClassName: 'palette-section',
                  linkSection: false,
                  lang,
                }),
              );
            }),
          );
        return item;
      });
      const all = document.createElement('li');
      all.className = 'palette-all';
      const allLink = document.createElement('a');
      allLink.href = `${form.getAttribute('action')}?${new URLSearchParams({ q: query })}`;
      allLink.textContent = fill(strings.all ?? '{q}', { q: query });
      all.append(allLink);
      list.replaceChildren(...items, ...(hits.length ? [all] : []));
      status.textContent =
        hits.length === 0
          ? fill(strings.none ?? '', { q: query })
          : fill(hits.length === 1 ? strings.result! : strings.results!, { n: hits.length, q: query });
      await Promise.all(quoted);
      if (controller === current) dialog.dataset.passages = 'done';
    } catch (error) {
      if ((error as Error).name === 'AbortError') return;
      list.replaceChildren();
      status.textContent = strings.failed ?? '';
    }
  };

  document.addEventListener('keydown', (event) => {
    if ((event.metaKey || event.ctrlKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 'k') {
      event.preventDefault();
      open();
    }
  });
  trigger.addEventListener('click', (event) => {
    // A click with a modifier opens the search page in a new tab, as a link does.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    open();
  });
  dialog.querySelector('[data-palette-close]')?.addEventListener('click', () => dialog.close());
  // A click on the backdrop (outside the dialog's box) closes it.
  dialog.addEventListener('click', (event) => {
    if (event.target === dialog) dialog.close();
  });
  input.addEventListener('input', () => void search());
  dialog.addEventListener('keydown', (event) => {
    // The dialog's own Escape handling can be skipped by Chromium's close-request rules: close it here too.
    if (event.key === 'Escape') {
      event.preventDefault();
      dialog.close();
      return;
    }
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    const stops = [input, ...list.querySelectorAll<HTMLAnchorElement>('a')];
    const at = stops.indexOf(document.activeElement as HTMLInputElement);
    const next = at + (event.key === 'ArrowDown' ? 1 : -1);
    if (at < 0 || next < 0 || next >= stops.length) return;
    event.preventDefault();
    stops[next]!.focus();
  });
}
