/**
 * The document title of every HTML page (`<title>`), in one rule: the page's title and the site's name in the
 * page's language, the name once. The home page's title starts with the name, and a title that already names
 * the site ("Contact Acme AI", "联系艾克米智能") is left as it is; every other title gets " | <name>", its own part
 * shortened at a word when both would not fit in {@link MAX_TITLE} characters.
 * @module
 */
import type { Company } from '../content/catalog.ts';
import type { Lang } from '../content/i18n.ts';

/** Titles longer than this are cut off in search results (html-validate's long-title rule). */
export const MAX_TITLE = 70;

/** The site's name in a page's language: the company's Chinese name on Chinese pages (content/company.yaml). */
export function siteNameIn(company: Pick<Company, 'name' | 'name_zh'>, lang: Lang): string {
  return lang === 'zh' ? company.name_zh : company.name;
}

/**
 * Whether `text` names the site: the name, not followed by a Latin letter or digit ("Acme AIGC Suite" does not
 * name "Acme AI"; a Chinese name has no word boundaries, so any occurrence counts).
 */
export function namesSite(text: string, siteName: string): boolean {
  return timesNamed(text, siteName) > 0;
}

/** How often `text` names the site (see {@link namesSite}). */
export function timesNamed(text: string, siteName: string): number {
  const escaped = siteName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return text.match(new RegExp(`${escaped}(?![A-Za-z0-9])`, 'g'))?.length ?? 0;
}

/** `text` cut to at most `max` characters: at a word when one ends past the middle, with an ellipsis. */
function shortened(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  // The cut ends a word when a space follows it; otherwise it goes back to the last space (past the middle).
  const space = text[max - 1] === ' ' ? cut.length : cut.lastIndexOf(' ');
  const atWord = space > max / 2 ? cut.slice(0, space) : cut;
  // Drop a dangling connective ("… gateway for…") and trailing punctuation before the ellipsis.
  const trimmed = atWord
    .replace(/(\s+(a|an|and|at|by|for|in|of|on|or|the|to|with|without))+$/i, '')
    .replace(/[\s,;:.\-–—，、：；。·]+$/, '');
  return `${trimmed}…`;
}

/** The `<title>` of a page whose own title is `title`, on a site named `siteName` (in the page's language). */
export function documentTitle(title: string, siteName: string): string {
  if (namesSite(title, siteName)) return shortened(title, MAX_TITLE);
  const suffix = ` | ${siteName}`;
  return `${shortened(title, MAX_TITLE - suffix.length)}${suffix}`;
}
