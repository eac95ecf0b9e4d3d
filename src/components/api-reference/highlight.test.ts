import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { colorPair, TOKEN_CLASSES } from './compact-code.ts';
import { highlightCode } from './highlight.ts';

const ENTITIES: Record<string, string> = { '&lt;': '<', '&gt;': '>', '&amp;': '&', '&quot;': '"', '&#39;': "'", '&#x27;': "'" };
const textOf = (html: string): string => html.replace(/<[^>]+>/g, '').replace(/&(?:lt|gt|amp|quot|#39|#x27);/g, (e) => ENTITIES[e]!);

describe('highlightCode', () => {
  const js =
    "const response = await fetch('http://localhost:8899/api/search?q=私有化部署');\nconsole.log(response.status, await response.json());";

  it('keeps the text exactly and colours tokens by class, with no inline style', async () => {
    const html = await highlightCode(js, 'javascript');
    expect(html).toMatch(/^<pre class="code-block" tabindex="0" data-language="javascript"><code class="language-javascript">/);
    expect(html).not.toContain('style=');
    expect(html).not.toContain('class="line"');
    expect(textOf(html)).toBe(js);
    const classes = new Set([...html.matchAll(/<span class="([^"]+)">/g)].map((m) => m[1]));
    for (const name of classes) expect(Object.values(TOKEN_CLASSES)).toContain(name);
  });

  it('colours each token as both themes agree (the same on every call)', async () => {
    const html = await highlightCode(js, 'javascript');
    expect(html).toContain('<span class="tk-k">const</span><span class="tk-c"> response</span>');
    expect(html).toContain('<span class="tk-f"> fetch</span>(<span class="tk-s">');
    expect(await highlightCode(js, 'javascript')).toBe(html);
  });

  it('highlights the other languages of the samples', async () => {
    const curl = "curl -sS -G 'http://localhost:8899/api/search' \\\n  --data-urlencode 'q=LLM'";
    const shell = await highlightCode(curl, 'shellscript');
    expect(shell).toContain('<span class="tk-f">curl</span>');
    expect(textOf(shell)).toBe(curl);
    const json = await highlightCode('{\n  "status": "ok",\n  "count": 3\n}\n', 'json');
    expect(json).toContain('"status"</span>: <span class="tk-s">"ok"</span>');
    expect(textOf(json)).toBe('{\n  "status": "ok",\n  "count": 3\n}');
  });
});

/** WCAG 2 contrast ratio of two #rrggbb colours. */
function contrast(a: string, b: string): number {
  const luminance = (hex: string): number => {
    const [r, g, bl] = [1, 3, 5].map((i) => {
      const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

describe('token colours', () => {
  const css = readFileSync(new URL('./api-reference.css', import.meta.url), 'utf8');
  const site = readFileSync(new URL('../../styles/site.css', import.meta.url), 'utf8');
  const codeBg = [...site.matchAll(/--code-bg:\s*(#[0-9a-f]{6})/gi)].map((m) => m[1]!);
  // The dark palette is screen-only: paper prints the light one (site.css, "Print").
  const darkAt = css.indexOf('@media screen and (prefers-color-scheme: dark) {\n  .code-block');
  const dark = darkAt < 0 ? '' : css.slice(darkAt);

  it('reads a style pair as `light dark` in lowercase', () => {
    expect(colorPair('color:#D73A49;--shiki-dark:#F97583')).toBe('#d73a49 #f97583');
    expect(colorPair('font-style:italic')).toBeUndefined();
  });

  it('gives every token class an AA colour on the code background in both schemes', () => {
    expect(codeBg).toHaveLength(2);
    for (const name of Object.values(TOKEN_CLASSES)) {
      const rule = new RegExp(`\\.code-block \\.${name} \\{\\s*color: (#[0-9a-f]{6});`, 'gi');
      const [light, darkColour] = [rule.exec(css)?.[1], new RegExp(rule.source, 'i').exec(dark)?.[1]];
      expect(light, `${name} light`).toBeDefined();
      expect(darkColour, `${name} dark`).toBeDefined();
      expect(contrast(light!, codeBg[0]!), `${name} light`).toBeGreaterThanOrEqual(4.5);
      expect(contrast(darkColour!, codeBg[1]!), `${name} dark`).toBeGreaterThanOrEqual(4.5);
    }
  });
});
