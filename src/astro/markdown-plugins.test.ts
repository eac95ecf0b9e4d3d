import { bundledThemes, codeToHtml } from 'shiki';
import { describe, expect, it } from 'vitest';
import { CODE_THEMES, codeFrame } from './markdown-plugins.ts';

/** WCAG 2.x relative luminance of a `#rgb`/`#rrggbb`(`aa`) colour (alpha ignored). */
function luminance(hex: string): number {
  let digits = hex.replace('#', '');
  if (digits.length <= 4) digits = [...digits.slice(0, 3)].map((d) => d + d).join('');
  return [0, 2, 4]
    .map((i) => Number.parseInt(digits.slice(i, i + 2), 16) / 255)
    .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4))
    .reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i]!, 0);
}
const contrast = (a: string, b: string): number => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
};

describe('code themes', () => {
  for (const [scheme, name] of Object.entries(CODE_THEMES)) {
    it(`${scheme} (${name}): every token colour meets WCAG AA on the code background`, async () => {
      const theme = (await bundledThemes[name]()).default as {
        colors?: Record<string, string>;
        tokenColors?: { scope?: string | string[]; settings?: { foreground?: string; background?: string } }[];
      };
      const background = theme.colors?.['editor.background'];
      const foreground = theme.colors?.['editor.foreground'];
      expect(background).toMatch(/^#/);
      // Scopes with a background of their own (diff markers, an invalid character) are drawn on that background.
      const colours = new Set([
        foreground!,
        ...(theme.tokenColors ?? []).flatMap((t) => (t.settings?.foreground && !t.settings.background ? [t.settings.foreground] : [])),
      ]);
      expect(colours.size).toBeGreaterThan(5);
      const failing = [...colours]
        .filter((c) => contrast(c, background!) < 4.5)
        .map((c) => `${c} ${contrast(c, background!).toFixed(2)}:1`);
      expect(failing).toEqual([]);
    });
  }
});

describe('code frames', () => {
  it('frame each block under its language and class its <code> language-<lang>, a block without one language-text', async () => {
    const sh = await codeToHtml('echo hi', { lang: 'sh', themes: CODE_THEMES, transformers: [codeFrame] });
    expect(sh).toMatch(
      /^<figure class="code-frame" data-language="bash"><figcaption><span class="code-lang">bash<\/span><\/figcaption><pre /,
    );
    expect(sh).toMatch(/<pre [^>]*><code class="language-bash">/);
    const plain = await codeToHtml('plain words', { lang: 'text', themes: CODE_THEMES, transformers: [codeFrame] });
    expect(plain).toMatch(/<pre [^>]*><code class="language-text">/);
  });
});
