/**
 * Highlighting for the API reference and developers pages: Shiki with github-light and github-dark,
 * made compact by compact-code.ts. Shiki is called directly rather than through Astro's `<Code>`
 * because `<Code>` cannot set `tokenizeTimeLimit`: with Shiki's default (500 ms a line) a build on a
 * loaded machine stops tokenizing a line part-way for one theme and not the other, so the two
 * themes' tokens disagree and a line keeps one colour to its end. With no limit the output is the
 * same on every build (the samples are a few short lines each).
 * @module
 */
import { createHighlighter, type Highlighter } from 'shiki';
import { compactCode } from './compact-code.ts';

/** The languages the reference's samples are written in. */
export type ReferenceLanguage = 'shellscript' | 'javascript' | 'python' | 'json';

const THEMES = { light: 'github-light', dark: 'github-dark' } as const;
let highlighter: Promise<Highlighter> | undefined;

/** Snippets highlighted so far, by language and code, at most {@link HIGHLIGHTED_KEPT}. */
const HIGHLIGHTED = new Map<string, Promise<string>>();
const HIGHLIGHTED_KEPT = 2_000;

/**
 * `code` as a highlighted `pre.code-block` (HTML), the same on every build. Each snippet is highlighted once: the
 * reference's one-page and per-operation pages show the same ones
 * (docs/benchmarks-history.md, "Build, issue 25: cheaper per-build work").
 */
export function highlightCode(code: string, lang: ReferenceLanguage): Promise<string> {
  const key = `${lang}\n${code}`;
  let html = HIGHLIGHTED.get(key);
  if (html === undefined) {
    highlighter ??= createHighlighter({ themes: Object.values(THEMES), langs: ['shellscript', 'javascript', 'python', 'json'] });
    html = highlighter.then((shiki) =>
      shiki.codeToHtml(code.replace(/\n$/, ''), {
        lang,
        themes: THEMES,
        tokenizeTimeLimit: 0,
        transformers: [compactCode],
      }),
    );
    // The bound keeps the dev server, which highlights every version of a snippet it is shown, from growing.
    if (HIGHLIGHTED.size >= HIGHLIGHTED_KEPT) HIGHLIGHTED.clear();
    HIGHLIGHTED.set(key, html);
    html.catch(() => HIGHLIGHTED.delete(key));
  }
  return html;
}
