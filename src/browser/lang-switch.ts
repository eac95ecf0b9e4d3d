/**
 * The header's language switch on pages whose address the build cannot know: the search page (its
 * query and filters live in `?q=…`) and the 404 page (served for any missing path). The build points
 * the switch at the other language's page of the same section; these keep the reader's place.
 * @module
 */
import { sectionIn } from '../core/kernel/paths.ts';

const switchLink = (): HTMLAnchorElement | null => document.querySelector<HTMLAnchorElement>('a[data-lang-switch]');

/** Carries the page's current query (`?q=…&lang=…`) over to the switch's target, which the build left without one. */
export function keepQueryInLanguageSwitch(): void {
  const link = switchLink();
  if (link) link.search = location.search;
}

/** Points the switch of a page in `lang` at the other language's section of the current (missing) path. */
export function switchToSectionOf(lang: 'zh' | 'en'): void {
  const link = switchLink();
  if (link) link.href = sectionIn(lang === 'zh' ? 'en' : 'zh', location.pathname);
}
