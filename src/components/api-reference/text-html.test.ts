import { describe, expect, it } from 'vitest';
import { textHtml } from './text-html.ts';

describe('textHtml', () => {
  it('keeps quotes as they are and escapes what element content needs', () => {
    expect(textHtml(`{"q": "it's"}`)).toBe(`{"q": "it's"}`);
    expect(textHtml('a < b && c > d')).toBe('a &lt; b &amp;&amp; c &gt; d');
    expect(textHtml('</code><script>alert(1)</script>')).toBe('&lt;/code&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
  });
});
