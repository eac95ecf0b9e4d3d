/**
 * The API reference page in the browser: the code-sample tabs switch (curl / JavaScript / Python; the
 * choice holds for every sample and across visits), copy buttons copy a sample's text, and the sidebar
 * marks the operation being read. The HTML and CSS already have the final layout (tabs rendered, the
 * contents closed on a narrow screen), so nothing here moves the page; without scripting every sample
 * shows, and nothing is lost.
 */

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

async function copy(button: HTMLButtonElement): Promise<void> {
  const status = document.querySelector<HTMLElement>('[data-copy-status]');
  const label = button.textContent;
  let message: string;
  try {
    await navigator.clipboard.writeText(codeFor(button));
    message = button.dataset.copied ?? 'Copied';
  } catch {
    message = button.dataset.failed ?? 'Copy failed';
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

for (const block of document.querySelectorAll<HTMLElement>('[data-samples][data-tabs]')) wireTabs(block);
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
