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

/** `code` as a highlighted `pre.code-block` (HTML), the same on every build. */
export async function highlightCode(code: string, lang: ReferenceLanguage): Promise<string> {
  highlighter ??= createHighlighter({ themes: Object.values(THEMES), langs: ['shellscript', 'javascript', 'python', 'json'] });
  return (await highlighter).codeToHtml(code.replace(/\n$/, ''), {
    lang,
    themes: THEMES,
    tokenizeTimeLimit: 0,
    transformers: [compactCode],
  });
}
