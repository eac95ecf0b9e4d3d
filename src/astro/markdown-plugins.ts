/**
 * Build-time additions to the HTML of articles, solutions and products (Astro's Sätteri markdown
 * processor and its Shiki highlighter), so readers get them without JavaScript:
 * - every code block in a frame with a title bar naming its language (the copy button is added by
 *   src/browser/article.ts, since it only works with JavaScript), its `<code>` classed `language-<lang>`
 *   as other highlighters mark it, so agents reading the HTML know the language too (a14y code.language-tags);
 * - h2/h3 headings with an anchor link beside them;
 * - tables in a focusable, labelled box that scrolls sideways on narrow screens.
 */
import type { Element, ElementContent, Root } from 'hast';
import Slugger from 'github-slugger';
import type { HastPluginDefinition, PluginFactoryContext } from 'satteri';
import type { ShikiTransformer } from 'shiki';
import { escapeHtml } from '../core/kernel/html.ts';
import { messages, type Lang } from '../core/content/i18n.ts';

/**
 * The highlighter's themes, light and dark: GitHub's current default themes, whose every token colour
 * meets WCAG AA (4.5:1) on the theme's own background (markdown-plugins.test.ts checks it). The older
 * `github-light`/`github-dark` pair did not: orange 3.49:1, dark comments 3.05:1.
 */
export const CODE_THEMES = { light: 'github-light-default', dark: 'github-dark-default' } as const;

/** Languages shown under a friendlier name in the code frame's title bar. */
const LANGUAGE_LABELS: Record<string, string> = {
  sh: 'bash',
  shell: 'bash',
  shellscript: 'bash',
  zsh: 'bash',
  console: 'bash',
  js: 'javascript',
  mjs: 'javascript',
  ts: 'typescript',
  py: 'python',
  yml: 'yaml',
  plaintext: 'text',
  txt: 'text',
  plain: 'text',
  md: 'markdown',
  dockerfile: 'dockerfile',
};

/** Wraps each highlighted `<pre>` in `<figure class="code-frame">` with a `<figcaption>` naming the language. */
export const codeFrame: ShikiTransformer = {
  name: 'site:code-frame',
  root(root: Root): Root {
    const pre = root.children.find((c): c is Element => c.type === 'element' && c.tagName === 'pre');
    if (!pre) return root;
    const lang = (this.options.lang || 'text').toLowerCase();
    const label = LANGUAGE_LABELS[lang] ?? lang;
    const code = pre.children.find((c): c is Element => c.type === 'element' && c.tagName === 'code');
    if (code) {
      const classes = code.properties.className;
      code.properties.className = [...(Array.isArray(classes) ? classes.map(String) : []), `language-${label}`];
    }
    const caption: Element = {
      type: 'element',
      tagName: 'figcaption',
      properties: {},
      children: [
        { type: 'element', tagName: 'span', properties: { className: ['code-lang'] }, children: [{ type: 'text', value: label }] },
      ],
    };
    const figure: Element = {
      type: 'element',
      tagName: 'figure',
      properties: { className: ['code-frame'], dataLanguage: label },
      children: [caption, pre as ElementContent],
    };
    return { type: 'root', children: [figure] };
  },
};

const langOf = (ctx: { data: Record<string, unknown> }): Lang => {
  const frontmatter = (ctx.data.astro as { frontmatter?: { lang?: unknown } } | undefined)?.frontmatter;
  return frontmatter?.lang === 'zh' ? 'zh' : 'en';
};

/**
 * Heading ids (github-slugger over every heading in order, as Astro's own heading-ids step, which
 * keeps ids already set) and, for h2 and h3, a wrapper with an anchor link after the heading: the
 * heading's own text stays untouched for the table of contents and screen readers.
 */
export function headingAnchors(): (ctx: PluginFactoryContext) => HastPluginDefinition {
  return () => {
    const slugger = new Slugger();
    return {
      name: 'site:heading-anchors',
      element: {
        filter: ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'],
        visit(node, ctx) {
          const text = ctx.textContent(node);
          const existing = node.properties?.id;
          const id = typeof existing === 'string' ? existing : slugger.slug(text);
          if (typeof existing !== 'string') ctx.setProperty(node, 'id', id);
          if (node.tagName !== 'h2' && node.tagName !== 'h3') return;
          const t = messages(langOf(ctx as unknown as { data: Record<string, unknown> }));
          ctx.wrapNode(node, {
            raw: `<div class="heading-wrapper heading-${node.tagName}"><a class="anchor-link" href="#${escapeHtml(id)}" data-pagefind-ignore><span aria-hidden="true">#</span><span class="visually-hidden">${escapeHtml(`${t.sectionLink}: ${text}`)}</span></a></div>`,
          });
        },
      },
    };
  };
}

/** Tables in a box that scrolls sideways; focusable so keyboard users can scroll it too. */
export function scrollableTables(): (ctx: PluginFactoryContext) => HastPluginDefinition {
  return () => {
    // Regions on one page need distinct names: "Table 1", "Table 2"…
    let count = 0;
    return {
      name: 'site:scrollable-tables',
      element: {
        filter: ['table'],
        visit(node, ctx) {
          const t = messages(langOf(ctx as unknown as { data: Record<string, unknown> }));
          count++;
          ctx.wrapNode(node, {
            raw: `<section class="table-scroll" tabindex="0" aria-label="${escapeHtml(t.tableLabel(count))}" data-table-hint="${escapeHtml(t.tableScroll)}"></section>`,
          });
        },
      },
    };
  };
}
