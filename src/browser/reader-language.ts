/**
 * The language of the chrome a reader comes from, within this tab: each page leaves its own in
 * sessionStorage as it is left (`pagehide`), so the next page can tell a reader who came from the
 * other language's pages (src/browser/article.ts shows them a notice in their language on an
 * article written in one language only). It never leaves the browser.
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
