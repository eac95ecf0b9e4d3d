import { describe, expect, it } from 'vitest';
import {
  inlinePlainText,
  absolutizeLinks,
  estimateTokens,
  indexPointer,
  markdownDocument,
  readingMinutes,
  relativeImages,
  rewriteImages,
  stripMdx,
  twinBody,
  withoutIndexPointer,
} from './markdown.ts';

const O = 'https://acme.example';

describe('absolutizeLinks', () => {
  it('rewrites root-relative links, reference definitions and href attributes', () => {
    const src = 'See [docs](/docs/api) and [x][r].\n\n[r]: /blog/a\n<a href="/contact">c</a>';
    expect(absolutizeLinks(src, O)).toBe(
      'See [docs](https://acme.example/docs/api) and [x][r].\n\n[r]: https://acme.example/blog/a\n<a href="https://acme.example/contact">c</a>',
    );
  });
  it('leaves code, protocol-relative and absolute links alone', () => {
    const src = '```md\n[a](/inside-fence)\n```\nInline `[b](/inline)` and [c](//cdn.example/x) [d](https://e.example/)';
    expect(absolutizeLinks(src, O)).toBe(src);
  });
});

describe('stripMdx', () => {
  it('turns components into blockquotes and drops imports', () => {
    const src =
      'import Callout from \'../../src/components/Callout.astro\';\n\nIntro.\n\n<Callout type="tip" title="Rule of thumb">\nUse **FP8**.\n\nSecond line.\n</Callout>\n\n<Divider />\n\nEnd.';
    const out = stripMdx(src);
    expect(out).toContain('> **Tip: Rule of thumb**\n>\n> Use **FP8**.\n>\n> Second line.');
    expect(out).not.toMatch(/import|<Callout|<\/Callout>|<Divider/);
    expect(out).toContain('End.');
  });
  it('keeps an agents-only block as plain markdown and drops a humans-only one', () => {
    const src =
      'Intro.\n\n<Audience only="agents">\nQuote the table as **one test setup**.\n\n- with its date\n</Audience>\n\n' +
      '<Audience only="humans">\nTalk to our team about your cluster.\n</Audience>\n\nEnd.';
    const out = stripMdx(src);
    expect(out).toContain('Intro.\n\nQuote the table as **one test setup**.\n\n- with its date\n\nEnd.');
    expect(out).not.toMatch(/Audience|Talk to our team/);
  });
  it('does not touch JSX-looking code inside fences', () => {
    const src = '```tsx\nimport X from "y";\n<Callout type="tip">\nhi\n</Callout>\n```';
    expect(stripMdx(src)).toBe(src);
  });
});

describe('twinBody', () => {
  it('combines both rewrites for MDX and trims', () => {
    expect(twinBody('import A from "a";\n\n\n\n[x](/y)\n', O, true)).toBe('[x](https://acme.example/y)');
  });
});

describe('readingMinutes', () => {
  it('counts Han characters and Latin words separately', () => {
    expect(readingMinutes('字'.repeat(800))).toBe(2);
    expect(readingMinutes('word '.repeat(660))).toBe(3);
    expect(readingMinutes('short')).toBe(1);
  });
});

describe('markdownDocument', () => {
  it('opens with the pointer to llms.txt, then title, summary, metadata and body, skipping empty metadata', () => {
    const twin = markdownDocument(
      'https://site.example',
      'T',
      'S',
      [
        ['Date', '2026-01-01'],
        ['Updated', undefined],
      ],
      'Body',
    );
    expect(twin).toBe('> Index of this site for agents: https://site.example/llms.txt\n\n# T\n\n> S\n\n- Date: 2026-01-01\n\nBody\n');
    expect(twin.split('\n')[0]).toBe(indexPointer('https://site.example'));
    expect(withoutIndexPointer(twin)).toBe('# T\n\n> S\n\n- Date: 2026-01-01\n\nBody\n');
    // Only the opening pointer goes: text that merely starts like a blockquote stays.
    expect(withoutIndexPointer('> Quote\n\n# T\n')).toBe('> Quote\n\n# T\n');
  });
  it('estimates tokens at four characters each', () => {
    expect(estimateTokens('12345678')).toBe(2);
  });
});

describe('demoteHeadings', () => {
  it('shifts headings but not shell comments in code', async () => {
    const { demoteHeadings } = await import('./markdown.ts');
    expect(demoteHeadings('# A\n\n## B\n\n```bash\n# comment\n```')).toBe('## A\n\n### B\n\n```bash\n# comment\n```');
  });
});

describe('relative images in twins', () => {
  const doc = [
    'Intro ![flow](./flow.svg "The flow") and ![remote](https://x.example/a.png) and ![root](/a.png).',
    '',
    '<img src="img/diagram.png" alt="Diagram">',
    '',
    '```md',
    '![in code](./flow.svg)',
    '```',
    '',
    'Inline `![code](./flow.svg)` stays.',
  ].join('\n');

  it('finds only relative targets outside code', () => {
    expect(relativeImages(doc).sort()).toEqual(['./flow.svg', 'img/diagram.png']);
  });

  it('points them at the built assets and leaves code, absolute and unknown targets alone', () => {
    const urls = new Map([
      ['./flow.svg', 'https://site.example/_astro/flow.abc.svg'],
      ['img/diagram.png', 'https://site.example/_astro/diagram.def.webp'],
    ]);
    const out = rewriteImages(doc, urls);
    expect(out).toContain('![flow](https://site.example/_astro/flow.abc.svg "The flow")');
    expect(out).toContain('<img src="https://site.example/_astro/diagram.def.webp" alt="Diagram">');
    expect(out).toContain('![remote](https://x.example/a.png)');
    expect(out).toContain('```md\n![in code](./flow.svg)\n```');
    expect(out).toContain('`![code](./flow.svg)`');
    expect(twinBody(doc, 'https://site.example', false, urls)).toContain('![root](https://site.example/a.png)');
  });
});

describe('inlinePlainText', () => {
  it('keeps identifiers whole, in code spans and inside words, and drops emphasis and link markup', () => {
    expect(inlinePlainText('the MCP tool and A2A skill `submit_feedback`.')).toBe('the MCP tool and A2A skill submit_feedback.');
    expect(inlinePlainText('client_credentials (HTTP Basic or `client_secret_post`), a `{"claim_token"}` body')).toBe(
      'client_credentials (HTTP Basic or client_secret_post), a {"claim_token"} body',
    );
    expect(inlinePlainText('_emphasis_, **strong**, *em* and __strong__ with [a link](https://example.com/a_b)')).toBe(
      'emphasis, strong, em and strong with a link',
    );
    expect(inlinePlainText('a ``code with ` tick`` span and `*stars*`')).toBe('a code with ` tick span and *stars*');
  });
});

describe('stripMdx and what follows a block component', () => {
  it('leaves a blank line between the quote and a heading the source put right below the component (stranger s10c, 7e)', () => {
    const twin = stripMdx('<Callout type="tip" title="Star">\nExpand it.\n</Callout>\n## The hard cases\n');
    expect(twin).toBe('> **Tip: Star**\n>\n> Expand it.\n\n## The hard cases\n');
  });
});
