/**
 * The API reference pages in the browser: the code-sample tabs switch (curl / JavaScript / Python; the
 * choice holds for every sample and across visits), copy buttons copy a sample's text, the sidebar's
 * filter box narrows the operations, "Try it" sends a public GET to this origin and shows the answer,
 * and on the single page the sidebar marks the operation being read. The HTML and CSS already have the
 * final layout (tabs rendered, the contents closed on a narrow screen), so nothing here moves the page;
 * without scripting every sample shows, the filter box is not drawn and "Try it" is a plain GET form.
 */
import { requestText } from '../core/publish/reference/request-text.ts';

const LANGUAGE_KEY = 'api-reference-language';

function storedLanguage(): string | null {
  try {
    return localStorage.getItem(LANGUAGE_KEY);
  } catch {
    return null; // storage disabled (privacy settings): the first tab it is
  }
}

function storeLanguage(language: string): void {
  try {
    localStorage.setItem(LANGUAGE_KEY, language);
  } catch {
    // storage disabled: the choice lasts for this page only
  }
}

/**
 * Wires one tab set rendered by CodeSamples.astro (tab bar, curl selected, the other panels hidden):
 * the HTML already has its final layout, so nothing moves when this runs.
 */
function wireTabs(block: HTMLElement): void {
  const list = block.querySelector<HTMLElement>('[role="tablist"]');
  if (!list) return;
  const tabs = [...list.querySelectorAll<HTMLButtonElement>('[role="tab"]')];
  list.addEventListener('click', (event) => {
    const tab = (event.target as HTMLElement).closest<HTMLButtonElement>('[role="tab"]');
    if (tab?.dataset.lang) selectLanguage(tab.dataset.lang, true);
  });
  list.addEventListener('keydown', (event) => {
    const index = tabs.indexOf(document.activeElement as HTMLButtonElement);
    if (index < 0) return;
    const next =
      event.key === 'ArrowRight'
        ? (index + 1) % tabs.length
        : event.key === 'ArrowLeft'
          ? (index - 1 + tabs.length) % tabs.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? tabs.length - 1
              : -1;
    if (next < 0) return;
    event.preventDefault();
    selectLanguage(tabs[next]!.dataset.lang!, true);
    tabs[next]!.focus();
  });
}

/** Shows `language` in every tab set (the first language where a set lacks it). */
function selectLanguage(language: string, remember: boolean): void {
  for (const block of document.querySelectorAll<HTMLElement>('[data-samples][data-tabs]')) {
    const panels = [...block.querySelectorAll<HTMLElement>(':scope > .sample')];
    const chosen = panels.find((panel) => panel.dataset.lang === language) ?? panels[0]!;
    for (const panel of panels) {
      const selected = panel === chosen;
      panel.hidden = !selected;
      const tab = block.querySelector<HTMLButtonElement>(`#${CSS.escape(panel.id)}-tab`);
      tab?.setAttribute('aria-selected', String(selected));
      if (tab) tab.tabIndex = selected ? 0 : -1;
    }
  }
  if (remember) storeLanguage(language);
}

/** The code a copy button stands for: its own sample, or the selected tab's. */
function codeFor(button: HTMLButtonElement): string {
  const block = button.closest<HTMLElement>('[data-samples]');
  const panel =
    button.dataset.copyPanel === 'selected'
      ? block?.querySelector<HTMLElement>(':scope > .sample:not([hidden])')
      : button.closest<HTMLElement>('.sample');
  return panel?.querySelector('pre')?.textContent ?? '';
}

/** Copies a sample; the page's status line carries the messages once, not each of its buttons. */
async function copy(button: HTMLButtonElement): Promise<void> {
  const status = document.querySelector<HTMLElement>('[data-copy-status]');
  const label = button.textContent;
  let message: string;
  try {
    await navigator.clipboard.writeText(codeFor(button));
    message = status?.dataset.copied ?? 'Copied';
  } catch {
    message = status?.dataset.failed ?? 'Copy failed';
  }
  button.textContent = message;
  if (status) status.textContent = message;
  window.setTimeout(() => {
    button.textContent = label;
  }, 1500);
}

/** Marks the sidebar link of the operation at the top of the viewport. */
function trackCurrentOperation(): void {
  const links = new Map<string, HTMLAnchorElement>();
  for (const link of document.querySelectorAll<HTMLAnchorElement>('.api-nav a[href^="#"]')) links.set(link.hash.slice(1), link);
  const sections = [...document.querySelectorAll<HTMLElement>('.operation[id]')];
  if (!('IntersectionObserver' in window) || sections.length === 0) return;
  let current: HTMLAnchorElement | undefined;
  const observer = new IntersectionObserver(
    (entries) => {
      const visible = entries
        .filter((entry) => entry.isIntersecting)
        .sort((a, b) => a.boundingClientRect.top - b.boundingClientRect.top)[0];
      const link = visible ? links.get(visible.target.id) : undefined;
      if (!link || link === current) return;
      current?.removeAttribute('aria-current');
      link.setAttribute('aria-current', 'true');
      current = link;
    },
    { rootMargin: '0px 0px -70% 0px' },
  );
  for (const section of sections) observer.observe(section);
}

/** Hides the sidebar's operations whose summary, method, path and group do not contain every word typed. */
function wireFilter(): void {
  const input = document.querySelector<HTMLInputElement>('#api-filter-input');
  const none = document.querySelector<HTMLElement>('[data-api-filter-none]');
  if (!input) return;
  const items = [...document.querySelectorAll<HTMLElement>('[data-api-item]')];
  const groups = [...document.querySelectorAll<HTMLElement>('[data-api-group]')];
  input.addEventListener('input', () => {
    const words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
    let shown = 0;
    for (const item of items) {
      const text = item.dataset.filterText ?? '';
      item.hidden = !words.every((word) => text.includes(word));
      if (!item.hidden) shown++;
    }
    for (const group of groups) group.hidden = group.querySelector('[data-api-item]:not([hidden])') === null;
    if (none) none.hidden = shown > 0;
  });
}

/** Largest answer shown by "Try it", in characters (the rest is cut with a note). */
const TRY_IT_MAX_CHARS = 100_000;

/** The request a "Try it" form stands for: its action with the filled fields (empty optional ones left out). */
function tryItUrl(form: HTMLFormElement): URL {
  const url = new URL(form.getAttribute('action') ?? '', location.href);
  for (const field of form.querySelectorAll<HTMLInputElement>('input[name]')) {
    if (field.value !== '' || field.required) url.searchParams.append(field.name, field.value);
  }
  return url;
}

/** "Try it": sends the form's GET to this origin with fetch and shows the status, time and body. */
function wireTryIt(form: HTMLFormElement): void {
  const section = form.closest<HTMLElement>('.try-it');
  const result = section?.querySelector<HTMLElement>('[data-try-result]');
  const status = section?.querySelector<HTMLElement>('[data-try-status]');
  const body = section?.querySelector<HTMLElement>('[data-try-body]');
  const preview = form.querySelector<HTMLElement>('[data-try-url]');
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');
  if (!result || !status || !body || !button) return;
  // The request as it is sent (percent-encoded, so `a&b` reads as one value), Chinese shown as Chinese.
  const showUrl = () => {
    if (preview) preview.textContent = requestText(tryItUrl(form));
  };
  form.addEventListener('input', showUrl);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const label = button.textContent;
    button.disabled = true;
    button.textContent = form.dataset.sending ?? label;
    const started = performance.now();
    try {
      const response = await fetch(tryItUrl(form), { headers: { accept: 'application/json' } });
      const text = await response.text();
      const ms = Math.round(performance.now() - started);
      let shown = text;
      try {
        shown = JSON.stringify(JSON.parse(text), null, 2);
      } catch {
        // not JSON (an error page from a proxy): shown as it came
      }
      const type = response.headers.get('content-type')?.split(';')[0] ?? '';
      status.textContent = `${response.status} ${response.statusText} · ${ms} ms${type ? ` · ${type}` : ''}`;
      body.textContent = shown.length > TRY_IT_MAX_CHARS ? `${shown.slice(0, TRY_IT_MAX_CHARS)}\n…` : shown;
    } catch (error) {
      status.textContent = (form.dataset.failed ?? '{reason}').replace('{reason}', (error as Error).message);
      body.textContent = '';
    } finally {
      result.hidden = false;
      button.disabled = false;
      button.textContent = label;
    }
  });
}

for (const block of document.querySelectorAll<HTMLElement>('[data-samples][data-tabs]')) wireTabs(block);
wireFilter();
for (const form of document.querySelectorAll<HTMLFormElement>('form[data-try-it]')) wireTryIt(form);
const languages = new Set([...document.querySelectorAll<HTMLElement>('.sample[data-lang]')].map((el) => el.dataset.lang));
const saved = storedLanguage();
// The HTML selects curl; only a reader who chose another language before sees a switch.
if (saved && saved !== 'curl' && languages.has(saved)) selectLanguage(saved, false);
for (const button of document.querySelectorAll<HTMLButtonElement>('[data-copy]')) button.hidden = false;
document.addEventListener('click', (event) => {
  const button = (event.target as HTMLElement).closest<HTMLButtonElement>(':is(.api-ref, .dev-hub) .copy-button');
  if (button) void copy(button);
});
trackCurrentOperation();
