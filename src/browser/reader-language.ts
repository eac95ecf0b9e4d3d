/**
 * The language of the chrome a reader comes from, within this tab: each page leaves its own in
 * sessionStorage as it is left (`pagehide`), so the next page can tell a reader who came from the
 * other language's pages, and show them the notice in their language that a page written in one
 * language only carries (src/components/ReaderNotice.astro). It never leaves the browser.
 * @module
 */
const KEY = 'reader-chrome';
const chrome = document.documentElement.lang.startsWith('zh') ? 'zh' : 'en';

/** The chrome language of the page this tab showed before this one, or null (none, or storage refused). */
export function previousChrome(): 'zh' | 'en' | null {
  try {
    const value = sessionStorage.getItem(KEY);
    return value === 'zh' || value === 'en' ? value : null;
  } catch {
    return null;
  }
}

addEventListener('pagehide', () => {
  try {
    sessionStorage.setItem(KEY, chrome);
  } catch {
    // Storage refused (a private mode, a policy): the notice is then never shown, which is the default.
  }
});

// The notice is fixed to the bottom of the window, so showing it moves nothing; the page then ends above it.
const notice = document.querySelector<HTMLElement>('[data-reader-notice]');
if (notice && previousChrome() === notice.dataset.readerNotice) {
  notice.hidden = false;
  document.documentElement.classList.add('has-reader-notice');
  const close = (): void => {
    const hadFocus = notice.contains(document.activeElement);
    notice.hidden = true;
    document.documentElement.classList.remove('has-reader-notice');
    // Focus does not fall to the top of the page: the reader goes on from the page's heading.
    if (hadFocus) {
      const heading = document.querySelector<HTMLElement>('main h1');
      heading?.setAttribute('tabindex', '-1');
      heading?.focus({ preventScroll: true });
    }
  };
  notice.querySelector('[data-reader-notice-close]')?.addEventListener('click', close);
  notice.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') close();
  });
}
