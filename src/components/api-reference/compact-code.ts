/**
 * A Shiki transformer that makes highlighted code on the API reference pages small: each token's
 * inline `style="color:#…;--shiki-dark:#…"` becomes one short class (colours in api-reference.css,
 * both schemes), tokens in the text colour lose their element, and the per-line wrappers go (a
 * `pre` keeps its line breaks). On /docs/api/mcp the colour spans were 40 % of the page's bytes and
 * a third of its elements (BENCHMARKS.md, "API reference pages"). A token colour pair this table does
 * not know fails the build, so a new grammar or theme cannot silently lose its colours.
 * @module
 */
import type { Element, ElementContent, Root } from 'hast';
import type { ShikiTransformer } from 'shiki';

/** The text colour of github-light and github-dark, as `light dark`: tokens in it need no element. */
const TEXT_PAIR = '#24292e #e1e4e8';

/**
 * Token colour pairs of github-light / github-dark (`light dark`, lowercase) → class. The light
 * orange of github-light (#e36209, 3.5:1 on the code background) is replaced by a darker one in the
 * stylesheet (AA); the other colours are the themes' own (`compact-code.test.ts` checks the contrast).
 */
export const TOKEN_CLASSES: Readonly<Record<string, string>> = {
  '#005cc5 #79b8ff': 'tk-c', // constants, numbers, JSON keys, options
  '#032f62 #9ecbff': 'tk-s', // strings
  '#d73a49 #f97583': 'tk-k', // keywords, operators
  '#6f42c1 #b392f0': 'tk-f', // functions, commands
  '#e36209 #ffab70': 'tk-v', // parameters, variables
  '#6a737d #6a737d': 'tk-m', // comments
  '#22863a #85e89d': 'tk-t', // tags, inserted
};

const COLOR_PAIR = /(?:^|;)\s*color:\s*(#[0-9a-f]{3,8})\s*;\s*--shiki-dark:\s*(#[0-9a-f]{3,8})/i;

/** The `light dark` colour pair of a token span's style, or undefined when it has none. */
export function colorPair(style: unknown): string | undefined {
  const match = typeof style === 'string' ? COLOR_PAIR.exec(style) : null;
  return match ? `${match[1]!.toLowerCase()} ${match[2]!.toLowerCase()}` : undefined;
}

/** The token content of one line span (or any node), with colour classes instead of styles. */
function compactTokens(nodes: ElementContent[], language: string): ElementContent[] {
  const out: ElementContent[] = [];
  for (const node of nodes) {
    if (node.type !== 'element' || node.tagName !== 'span') {
      out.push(node);
      continue;
    }
    const classes = node.properties.className;
    if (Array.isArray(classes) && classes.includes('line')) {
      out.push(...compactTokens(node.children, language));
      continue;
    }
    const pair = colorPair(node.properties.style);
    if (pair === undefined || pair === TEXT_PAIR) {
      out.push(...compactTokens(node.children, language));
      continue;
    }
    const token = TOKEN_CLASSES[pair];
    if (token === undefined)
      throw new Error(`compact-code: no class for the token colours ${pair} (${language}); add it to TOKEN_CLASSES and api-reference.css`);
    out.push({ type: 'element', tagName: 'span', properties: { className: [token] }, children: node.children });
  }
  // Neighbouring text nodes merge, so the HTML has no empty boundaries between them.
  const merged: ElementContent[] = [];
  for (const node of out) {
    const last = merged.at(-1);
    if (node.type === 'text' && last?.type === 'text') last.value += node.value;
    else merged.push(node.type === 'text' ? { ...node } : node);
  }
  return merged;
}

/** The transformer: pass it to Shiki with the themes github-light and github-dark (highlight.ts). */
export const compactCode: ShikiTransformer = {
  name: 'site:compact-code',
  root(root: Root) {
    const pre = root.children.find((node): node is Element => node.type === 'element' && node.tagName === 'pre');
    if (!pre) return;
    const language = String(this.options.lang);
    // Colours come from the stylesheet (both schemes), not from the themes' inline styles.
    pre.properties = { className: ['code-block'], tabIndex: 0, dataLanguage: language };
    const code = pre.children.find((node): node is Element => node.type === 'element' && node.tagName === 'code');
    if (!code) return;
    code.children = compactTokens(code.children, language);
    // The language as other highlighters mark it, for agents that read the HTML (a14y code.language-tags).
    code.properties = { ...code.properties, className: [`language-${language}`] };
  },
};
