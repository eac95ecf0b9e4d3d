/**
 * The /search page searches the index behind `/api/search` and the MCP tool, so it finds what they
 * find: in the browser when the build shipped the index to the page (small sites: no round trip
 * per keystroke), else through `/api/search`, and with the static Pagefind index as the fallback
 * when neither answers. Until the index has arrived, queries go to the API. `?q=` is read on load and kept
 * up to date (`history.replaceState`),
 * with the filters (`lang`, `category`), so a search can be shared. The figures behind this choice
 * are in BENCHMARKS.md, "Search page vs API".
 */
import { queryMatcher, type QueryMatcher } from './search-highlight.ts';
import { loadNamedPages, matchNamedPages } from './search-pages.ts';
import { appendMarked, passageElement, passageOf, quotesPassage } from './search-passages.ts';
import { currentResults, type PagefindResultData } from '../core/search/pagefind-delta.ts';
import { selectionFromParams } from './search-filters.ts';
import { keepQueryInLanguageSwitch } from './lang-switch.ts';

/** Hits that show the passage they matched in: about a screenful, each one fetch of a markdown twin (cached by the CDN). */
const PASSAGES_SHOWN = 10;

/** Products and reference pages listed above the article hits. */
const NAMED_PAGES_SHOWN = 5;

type Lang = 'zh' | 'en';

interface Config {
  api: string;
  /** The page's copy of the search index, or null when the site is too large to ship it. */
  index: string | null;
  limit: number;
  /** The longest query the API takes (a longer one is a 400): the page says so instead of searching. */
  maxChars: number;
  pagefind: string;
  lang: Lang;
  strings: Record<string, string>;
  languages: Record<Lang, string>;
  categories: Record<string, Record<Lang, string>>;
}

/** A result, whichever engine found it. */
interface Hit {
  path: string;
  title: string;
  excerpt: string;
  type: string;
  lang?: Lang;
  category?: string;
  date?: string;
}

interface ApiResult {
  title: string;
  url: string;
  excerpt: string;
  type: string;
  lang: Lang;
  category: string;
  date: string;
}

const root = document.querySelector<HTMLElement>('[data-search-config]')!;
// The config is JSON in <head> (SearchPage.astro says why).
const config = JSON.parse(document.getElementById('search-config')!.textContent!) as Config;
const t = config.strings;
const form = root.querySelector<HTMLFormElement>('.search-form')!;
const input = root.querySelector<HTMLInputElement>('#search-input')!;
const status = root.querySelector<HTMLElement>('[data-search-status]')!;
const list = root.querySelector<HTMLOListElement>('[data-search-results]')!;
const filters = root.querySelector<HTMLElement>('[data-search-filters]')!;
const topics = root.querySelector<HTMLElement>('.search-topics')!;

const fill = (template: string, values: Record<string, string | number>): string =>
  template.replace(/\{(\w+)\}/g, (_, key: string) => String(values[key] ?? ''));
const htmlLang = (lang: Lang | undefined): string => (lang === 'zh' ? 'zh-CN' : lang === 'en' ? 'en' : '');

// ---------------------------------------------------------------------------------------------
// Engines

/** Our index through the API: all hits up to the API's maximum, best first. */
async function apiSearch(query: string, signal: AbortSignal): Promise<Hit[]> {
  const response = await fetch(`${config.api}?${new URLSearchParams({ q: query, limit: String(config.limit) })}`, {
    signal,
    headers: { accept: 'application/json' },
  });
  if (!response.ok) throw new Error(`search API answered ${response.status}`);
  const results = (await response.json()) as ApiResult[];
  return results.map((r) => ({
    path: new URL(r.url, location.href).pathname,
    title: r.title,
    excerpt: r.excerpt,
    type: r.type,
    lang: r.lang,
    category: r.category,
    date: r.date,
  }));
}

/** Our engine on the page's copy of the index (loaded in the background, see {@link loadLocalIndex}). */
let local:
  | {
      search(
        query: string,
        options: { limit: number },
      ): { path: string; title: string; excerpt: string; type: string; lang: Lang; category: string; date: string }[];
    }
  | undefined;

async function loadLocalIndex(url: string): Promise<void> {
  try {
    const [engine, response] = await Promise.all([import('../core/search/search-index.ts'), fetch(url)]);
    if (!response.ok || response.body === null) return;
    // The copy is the index file gzip-compressed by the build (src/astro/search-index.ts): a CDN sends a binary file as it is.
    const file = await new Response(response.body.pipeThrough(new DecompressionStream('gzip'))).arrayBuffer();
    local = engine.loadSearchIndex(new Uint8Array(file));
    root.dataset.index = 'ready';
  } catch {
    // No copy (offline, blocked): the API answers, as for a large site.
  }
}

function localSearch(query: string): Hit[] {
  return local!
    .search(query, { limit: config.limit })
    .map((h) => ({ path: h.path, title: h.title, excerpt: h.excerpt, type: h.type, lang: h.lang, category: h.category, date: h.date }));
}

interface PagefindModule {
  options(options: { basePath: string }): Promise<void>;
  mergeIndex(url: string, options: { language: string }): Promise<void>;
  search(query: string): Promise<{ results: { data(): Promise<PagefindData> }[] } | null>;
}
interface PagefindData extends PagefindResultData {
  excerpt: string;
  /** The page's indexed text. */
  content: string;
}
let pagefind: Promise<{ module: PagefindModule; superseded: Set<string> }> | undefined;

/** A Pagefind result's URL as the bundle list names pages: its path, `/blog/a/`. */
const pagefindPath = (url: string): string => new URL(url, location.href).pathname;

/**
 * The static Pagefind index (built with the site): used only when the API does not answer. A large
 * site's index is several bundles (scripts/pagefind-index.ts), listed in `bundles.json`, with a
 * delta bundle last after an incremental build: its pages are `superseded` in the others.
 */
async function pagefindSearch(query: string): Promise<Hit[]> {
  pagefind ??= (async () => {
    const manifest = (await (await fetch(new URL(`${config.pagefind}bundles.json`, location.href))).json()) as {
      bundles: { url: string; languages: string[] }[];
      superseded?: string[];
    };
    const [primary, ...others] = manifest.bundles;
    const url = new URL(`${primary!.url}pagefind.js`, location.href).href;
    const module = (await import(/* @vite-ignore */ url)) as PagefindModule;
    await module.options({ basePath: primary!.url });
    // One index per bundle and language: the primary is the first bundle in the page's language
    // (<html lang>); every other one is merged (by absolute URL, or Pagefind skips a merge whose
    // path starts with the primary's).
    const own = config.lang === 'en' ? 'en' : 'zh-cn';
    for (const bundle of [primary!, ...others]) {
      for (const language of bundle.languages) {
        if (bundle === primary && language === own) continue;
        await module.mergeIndex(new URL(bundle.url, location.href).href, { language });
      }
    }
    return { module, superseded: new Set(manifest.superseded ?? []) };
  })();
  const { module, superseded } = await pagefind;
  const found = await module.search(query);
  // Pagefind matches loosely (a word in no page brought a dozen unrelated ones): a result must hold one of the query's
  // words the way the API would match it (search-highlight.ts), or it is not shown.
  const matcher = queryMatcher(query);
  const holdsQuery = (d: PagefindData): boolean => matcher.segments(`${d.meta.title ?? ''}\n${d.content}`).some((s) => s.match);
  const data = await currentResults(found?.results ?? [], superseded, config.limit, pagefindPath, holdsQuery);
  return data.map((d) => {
    // Pagefind's excerpt is HTML with <mark>s that may cut words; keep the text and mark it our way.
    const excerpt = new DOMParser().parseFromString(d.excerpt, 'text/html').body.textContent ?? '';
    return {
      path: pagefindPath(d.url).replace(/(.)\/$/, '$1'),
      title: d.meta.title ?? d.url,
      excerpt,
      type: d.meta.type ?? 'page',
      // What the API says of a hit, from the meta the article pages give Pagefind (src/components/DocumentPage.astro).
      ...(d.meta.lang === 'zh' || d.meta.lang === 'en' ? { lang: d.meta.lang } : {}),
      ...(d.meta.category ? { category: d.meta.category } : {}),
      ...(d.meta.date ? { date: d.meta.date } : {}),
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Rendering

const categoryName = (slug: string): string => config.categories[slug]?.[config.lang] ?? slug;
const typeName = (type: string): string => t[type] ?? t.page!;

function renderHit(hit: Hit, matcher: QueryMatcher): HTMLLIElement {
  const item = document.createElement('li');
  item.className = 'search-result';
  const heading = document.createElement('h2');
  const link = document.createElement('a');
  link.href = hit.path;
  if (hit.lang) link.lang = htmlLang(hit.lang);
  appendMarked(link, hit.title, matcher);
  heading.append(link);
  const meta = document.createElement('p');
  meta.className = 'result-meta';
  const parts = [typeName(hit.type), hit.lang ? config.languages[hit.lang] : '', hit.category ? categoryName(hit.category) : ''].filter(
    Boolean,
  );
  meta.append(parts.join(' · '));
  if (hit.date) {
    const time = document.createElement('time');
    time.dateTime = hit.date;
    time.textContent = hit.date;
    meta.append(' · ', time);
  }
  const excerpt = document.createElement('p');
  excerpt.className = 'result-excerpt';
  if (hit.lang) excerpt.lang = htmlLang(hit.lang);
  appendMarked(excerpt, hit.excerpt, matcher);
  item.append(heading, meta, excerpt);
  return item;
}

/**
 * Under each of the first hits, the passage of the document around its best match, the matched
 * words marked, headed by its section; the title then links to that section (src/browser/search-passages.ts).
 * A hit whose match is only in its title or summary keeps its summary alone.
 */
async function showPassages(shown: [Hit, HTMLLIElement][], matcher: QueryMatcher, query: string): Promise<void> {
  const documents = shown.filter(([hit]) => quotesPassage(hit.type)).slice(0, PASSAGES_SHOWN);
  await Promise.all(
    documents.map(async ([hit, item]) => {
      const found = await passageOf(hit.path, matcher);
      if (!found || lastQuery !== query || !item.isConnected) return;
      item.querySelector<HTMLAnchorElement>('h2 a')!.href = found.href;
      item.append(
        passageElement(found, matcher, {
          tag: 'p',
          className: 'result-passage',
          sectionClassName: 'result-section',
          linkSection: true,
          lang: htmlLang(hit.lang),
        }),
      );
    }),
  );
  if (lastQuery === query) root.dataset.passages = 'done';
}

interface Selection {
  lang: string;
  category: string;
}

/** A radio group of facet values with counts; `all` first. */
function facet(
  name: keyof Selection,
  legend: string,
  values: [string, string, number][],
  selected: string,
  total: number,
): HTMLFieldSetElement {
  const fieldset = document.createElement('fieldset');
  const caption = document.createElement('legend');
  caption.textContent = legend;
  fieldset.append(caption);
  for (const [value, label, count] of [['', t.all!, total] as [string, string, number], ...values]) {
    const option = document.createElement('label');
    const radio = document.createElement('input');
    radio.type = 'radio';
    radio.name = name;
    radio.value = value;
    radio.checked = value === selected;
    option.append(radio, ` ${label} `);
    const number = document.createElement('span');
    number.className = 'facet-count';
    number.textContent = `(${count})`;
    option.append(number);
    fieldset.append(option);
  }
  return fieldset;
}

function counts(hits: Hit[], key: (hit: Hit) => string | undefined): Map<string, number> {
  const out = new Map<string, number>();
  for (const hit of hits) {
    const value = key(hit);
    if (value) out.set(value, (out.get(value) ?? 0) + 1);
  }
  return out;
}

/**
 * The topics to browse give way to results, in the frame that draws them: the results take the topics' place instead
 * of pushing them down the screen (that push was a layout shift of 0.27-0.42 on a shared `?q=` link); they come back
 * when the query is cleared or finds nothing. Until then the results list keeps at least the topics' height, so a short
 * list does not pull the footer up into view either.
 */
function showTopics(shown: boolean): void {
  if (shown) {
    delete root.dataset.found;
    list.style.minHeight = '';
  } else if (root.dataset.found === undefined) {
    list.style.minHeight = `${topics.getBoundingClientRect().bottom - list.getBoundingClientRect().top}px`;
    root.dataset.found = '';
  }
}

let lastHits: Hit[] = [];
let lastQuery = '';

function render(query: string, hits: Hit[], selection: Selection, withFilters = true): void {
  lastHits = hits;
  lastQuery = query;
  const matcher = queryMatcher(query);
  const shown = hits.filter(
    (hit) => (!selection.lang || hit.lang === selection.lang) && (!selection.category || hit.category === selection.category),
  );
  const items = shown.map((hit): [Hit, HTMLLIElement] => [hit, renderHit(hit, matcher)]);
  // Before the list fills: the topics' height is measured while they are still in place.
  showTopics(hits.length === 0);
  list.replaceChildren(...items.map(([, item]) => item));
  delete root.dataset.passages;
  void showPassages(items, matcher, query);
  const languages = counts(hits, (h) => h.lang);
  const categories = counts(hits, (h) => h.category);
  if (withFilters) renderFilters(hits, languages, categories, selection);
  status.textContent =
    hits.length === 0 ? fill(t.none!, { q: query }) : fill(shown.length === 1 ? t.result! : t.results!, { n: shown.length, q: query });
  root.dataset.state = 'done';
  root.dataset.query = query;
}

/**
 * The facets of a result set (rebuilt per search, not per filter change, so focus stays put). A chosen value the
 * results lack is offered with 0, checked: the reader sees why the list is empty and can choose "all".
 */
function renderFilters(hits: Hit[], languages: Map<string, number>, categories: Map<string, number>, selection: Selection): void {
  filters.replaceChildren();
  if (selection.lang && !languages.has(selection.lang)) languages.set(selection.lang, 0);
  if (selection.category && !categories.has(selection.category)) categories.set(selection.category, 0);
  // Shown when a facet could filter, or when one does (a reader must see the filter that hides a result).
  const filtering = Boolean(selection.lang || selection.category);
  if (hits.length > 0 && (filtering || (hits.length > 1 && (languages.size > 1 || categories.size > 1)))) {
    const heading = document.createElement('h2');
    heading.className = 'visually-hidden';
    heading.textContent = t.filters!;
    filters.append(heading);
    // A facet with one value filters nothing: shown only when it could (or already does).
    if (languages.size > 1 || selection.lang)
      filters.append(
        facet(
          'lang',
          t.language!,
          [...languages].map(([v, n]) => [v, config.languages[v as Lang] ?? v, n]),
          selection.lang,
          hits.length,
        ),
      );
    if (categories.size > 1 || selection.category)
      filters.append(
        facet(
          'category',
          t.category!,
          [...categories].map(([v, n]) => [v, categoryName(v), n]),
          selection.category,
          hits.length,
        ),
      );
  }
  filters.hidden = filters.querySelector('fieldset') === null;
}

// ---------------------------------------------------------------------------------------------
// State: the query and filters live in the URL.

function selectionFromForm(): Selection {
  const data = new FormData();
  for (const radio of filters.querySelectorAll<HTMLInputElement>('input[type=radio]:checked')) data.set(radio.name, radio.value);
  return { lang: String(data.get('lang') ?? ''), category: String(data.get('category') ?? '') };
}

/** URL updates wait for a pause in typing: Chromium fetches the favicon again on every change. */
const URL_UPDATE_DELAY_MS = 300;
let urlTimer: number | undefined;

function writeUrl(query: string, selection: Selection, delay = 0): void {
  window.clearTimeout(urlTimer);
  if (delay > 0) {
    urlTimer = window.setTimeout(() => writeUrl(query, selection), delay);
    return;
  }
  const url = new URL(location.href);
  url.search = '';
  if (query) url.searchParams.set('q', query);
  if (query && selection.lang) url.searchParams.set('lang', selection.lang);
  if (query && selection.category) url.searchParams.set('category', selection.category);
  if (url.href !== location.href) history.replaceState(history.state, '', url);
  keepQueryInLanguageSwitch();
}

let controller: AbortController | undefined;
let pending = 0;

async function search(query: string, selection: Selection, urlDelay = 0): Promise<void> {
  const trimmed = query.trim();
  writeUrl(trimmed, selection, urlDelay);
  controller?.abort();
  const ticket = ++pending;
  if (!trimmed) {
    list.replaceChildren();
    filters.hidden = true;
    status.textContent = '';
    showTopics(true);
    delete root.dataset.state;
    return;
  }
  if (trimmed.length > config.maxChars) {
    // The API refuses it (400) and the offline index would answer with noise: say why, as the palette does.
    list.replaceChildren();
    filters.hidden = true;
    status.textContent = fill(t.tooLong!, { n: config.maxChars });
    showTopics(true);
    root.dataset.query = trimmed;
    root.dataset.state = 'done';
    return;
  }
  controller = new AbortController();
  root.dataset.state = 'busy';
  list.setAttribute('aria-busy', 'true');
  let hits: Hit[];
  try {
    hits = local ? localSearch(trimmed) : await apiSearch(trimmed, controller.signal);
    root.dataset.engine = local ? 'local' : 'api';
  } catch (error) {
    if ((error as Error).name === 'AbortError') return;
    try {
      hits = await pagefindSearch(trimmed);
      root.dataset.engine = 'pagefind';
    } catch {
      if (ticket === pending) {
        status.textContent = t.failed!;
        root.dataset.state = 'failed';
      }
      return;
    }
  } finally {
    if (ticket === pending) list.removeAttribute('aria-busy');
  }
  const named = matchNamedPages(await loadNamedPages(), queryMatcher(trimmed), trimmed, NAMED_PAGES_SHOWN);
  if (ticket !== pending) return;
  const namedHits: Hit[] = named.map((page) => ({
    path: page.path,
    title: page.title,
    excerpt: page.description,
    type: page.type,
    lang: page.lang,
  }));
  render(trimmed, [...namedHits, ...hits.filter((hit) => !named.some((page) => page.path === hit.path))], selection);
  if (root.dataset.engine === 'pagefind') status.textContent = `${status.textContent} ${t.offline}`;
}

const params = new URLSearchParams(location.search);
/** The filters the reader chose (or the shared URL gave): a new query keeps them until the reader changes them. */
let chosen: Selection = selectionFromParams(params, config.categories);

// Keystrokes that arrive while the page is busy collapse into one search of the latest text.
let scheduled = false;
input.addEventListener('input', () => {
  if (scheduled) return;
  scheduled = true;
  window.setTimeout(() => {
    scheduled = false;
    void search(input.value, chosen, URL_UPDATE_DELAY_MS);
  }, 0);
});
form.addEventListener('submit', (event) => {
  event.preventDefault();
  void search(input.value, chosen);
});
filters.addEventListener('change', () => {
  chosen = selectionFromForm();
  writeUrl(lastQuery, chosen);
  render(lastQuery, lastHits, chosen, false);
});

if (config.index) void loadLocalIndex(config.index);
void loadNamedPages();
keepQueryInLanguageSwitch();
const initial = params.get('q') ?? '';
if (initial) {
  input.value = initial;
  void search(initial, chosen);
}
