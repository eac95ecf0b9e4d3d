/**
 * The good fixture's pages: each one as HTML and as its markdown twin, built from one description so the
 * two carry the same content, with what every rubric looks for (meta tags, JSON-LD, a directive to
 * llms.txt near the top, a glossary link, a language-tagged code block, front matter, `## Sitemap`).
 */
import type { Handler, Routes } from './good-site.ts';

/** One page of the fixture. */
export interface FixturePage {
  path: string;
  title: string;
  description: string;
  sections: { heading: string; level: 2 | 3; text: string }[];
  code?: string;
}

export const FIXTURE_PAGES: FixturePage[] = [
  {
    path: '/',
    title: 'Fixture Docs',
    description: 'Documentation for the Fixture API: search the docs, register an agent and call the API.',
    sections: [
      {
        heading: 'What the Fixture API does',
        level: 2,
        text: 'The Fixture API answers search queries over these documents and lets registered agents call it with a bearer token.',
      },
      {
        heading: 'Agents welcome',
        level: 2,
        text: 'Every page has a markdown twin at the same path with .md appended, and llms.txt lists them all for agents.',
      },
      {
        heading: 'Where to start',
        level: 3,
        text: 'Read the getting started guide first, then the glossary for the terms these pages use throughout.',
      },
    ],
  },
  {
    path: '/docs/guide',
    title: 'Getting started',
    description: 'Install the Fixture client, register an agent and make a first call to the Fixture API.',
    sections: [
      {
        heading: 'Install',
        level: 2,
        text: 'Install the client from the registry; it needs a current runtime and nothing else on the machine.',
      },
      {
        heading: 'Register an agent',
        level: 2,
        text: 'Post your client metadata to the registration endpoint and keep the client secret it returns.',
      },
      {
        heading: 'Call the API',
        level: 3,
        text: 'Exchange the client credentials for a token at the token endpoint and send it as a bearer token.',
      },
      {
        heading: 'Next steps',
        level: 3,
        text: 'Search the documents with the search tool, read the glossary, and revoke tokens you no longer need at the revocation endpoint.',
      },
    ],
    code: 'npm install fixture-client',
  },
  {
    path: '/docs/glossary',
    title: 'Glossary',
    description: 'The terms the Fixture documentation uses, from agent and bearer token to markdown twin.',
    sections: [
      {
        heading: 'Agent',
        level: 2,
        text: 'A program that reads these pages or calls the API on behalf of a person, usually a language model.',
      },
      {
        heading: 'Markdown twin',
        level: 2,
        text: 'The markdown version of a page, served at the page path with .md appended and by content negotiation.',
      },
      {
        heading: 'Bearer token',
        level: 3,
        text: 'A short-lived credential from the token endpoint that the API accepts in the Authorization header.',
      },
      {
        heading: 'Revocation',
        level: 3,
        text: 'Ending a token or a client before it expires, at the revocation endpoint, so that nothing an agent created outlives its task.',
      },
    ],
  },
];

export const LAST_UPDATED = '2026-11-20';

/** The twin URL path of a page (`/` → `/index.md`). */
export const twinPath = (path: string): string => (path === '/' ? '/index.md' : `${path}.md`);

const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A page's HTML; `head` adds to `<head>` (the home page's WebMCP script). */
export function pageHtml(origin: string, page: FixturePage, head = ''): string {
  const ld = {
    '@context': 'https://schema.org',
    '@graph': [
      { '@type': 'WebPage', name: page.title, description: page.description, url: `${origin}${page.path}`, dateModified: LAST_UPDATED },
      {
        '@type': 'BreadcrumbList',
        itemListElement: [{ '@type': 'ListItem', position: 1, name: page.title, item: `${origin}${page.path}` }],
      },
    ],
  };
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(page.title)}</title>
<meta name="description" content="${escapeHtml(page.description)}">
<meta property="og:title" content="${escapeHtml(page.title)}">
<meta property="og:description" content="${escapeHtml(page.description)}">
<link rel="canonical" href="${origin}${page.path}">
<link rel="alternate" type="text/markdown" href="${twinPath(page.path)}">
<script type="application/ld+json">${JSON.stringify(ld)}</script>
${head}</head>
<body>
<p class="visually-hidden">For the complete documentation index, see <a href="/llms.txt">llms.txt</a>.</p>
<main>
<h1>${escapeHtml(page.title)}</h1>
<p>${escapeHtml(page.description)}</p>
${page.sections.map((s) => `<h${s.level}>${escapeHtml(s.heading)}</h${s.level}>\n<p>${escapeHtml(s.text)}</p>`).join('\n')}
${page.code ? `<pre><code class="language-sh">${escapeHtml(page.code)}</code></pre>` : ''}
<p>See the <a href="/docs/glossary">Glossary</a> for the terms.</p>
</main>
</body></html>
`;
}

/** A page's markdown twin: front matter, the directive, the same content, and a `## Sitemap` section. */
export function pageMarkdown(origin: string, page: FixturePage): string {
  return `---
title: ${page.title}
description: ${page.description}
doc_version: 1.0.0
last_updated: ${LAST_UPDATED}
---

> For the complete documentation index, see [llms.txt](${origin}/llms.txt).

# ${page.title}

${page.description}

${page.sections.map((s) => `${'#'.repeat(s.level)} ${s.heading}\n\n${s.text}`).join('\n\n')}
${page.code ? `\n\`\`\`sh\n${page.code}\n\`\`\`\n` : ''}
See the [Glossary](${origin}/docs/glossary.md) for the terms.

## Sitemap

${FIXTURE_PAGES.map((p) => `- [${p.title}](${origin}${twinPath(p.path)})`).join('\n')}
`;
}

/** The quality (q) an `Accept` header gives a media type, and whether a range names the type itself (not a wildcard). */
export function qualityOf(accept: string, type: string): { q: number; explicit: boolean } {
  let best = { specificity: -1, q: 0 };
  for (const part of accept.split(',')) {
    const [range, ...params] = part.trim().toLowerCase().split(';');
    if (!range) continue;
    const q = Number(
      params
        .map((p) => p.trim())
        .find((p) => p.startsWith('q='))
        ?.slice(2) ?? 1,
    );
    const [major] = type.split('/');
    const specificity = range === type ? 2 : range === `${major}/*` ? 1 : range === '*/*' ? 0 : -1;
    if (specificity > best.specificity) best = { specificity, q: Number.isNaN(q) ? 0 : q };
  }
  return { q: best.q, explicit: best.specificity === 2 };
}

/**
 * Which variant an `Accept` header gets: markdown when it names text/markdown at least as high as HTML;
 * plain text when it names text/plain higher than HTML; HTML otherwise (a bare wildcard and browsers get HTML).
 */
export function variantFor(accept: string | null): 'markdown' | 'plain' | 'html' {
  if (!accept) return 'html';
  const md = qualityOf(accept, 'text/markdown');
  const html = qualityOf(accept, 'text/html');
  const plain = qualityOf(accept, 'text/plain');
  if (md.explicit && md.q > 0 && md.q >= html.q && md.q >= plain.q) return 'markdown';
  if (plain.explicit && plain.q > 0 && plain.q > html.q) return 'plain';
  return 'html';
}

/** Adds each page (negotiated: HTML, markdown or plain text, `Vary: Accept`) and its twin to the routes. */
export function addPages(routes: Routes, origin: string, extra: { homeHead?: string; homeLink?: string } = {}): void {
  for (const page of FIXTURE_PAGES) {
    const html = pageHtml(origin, page, page.path === '/' ? extra.homeHead : '');
    const markdown = pageMarkdown(origin, page);
    const twin = twinPath(page.path);
    const handler: Handler = (req) => {
      const variant = variantFor(req.headers.get('accept'));
      if (variant === 'html')
        return new Response(html, {
          headers: {
            'content-type': 'text/html; charset=utf-8',
            vary: 'Accept',
            ...(page.path === '/' && extra.homeLink ? { link: extra.homeLink } : {}),
          },
        });
      return new Response(markdown, {
        headers: {
          'content-type': variant === 'markdown' ? 'text/markdown; charset=utf-8' : 'text/plain; charset=utf-8',
          vary: 'Accept',
          'content-location': twin,
          'x-markdown-tokens': String(Math.ceil(markdown.length / 4)),
          'cache-control': 'public, max-age=300',
        },
      });
    };
    routes.set(page.path, handler);
    routes.set(
      twin,
      () =>
        new Response(markdown, {
          headers: {
            'content-type': 'text/markdown; charset=utf-8',
            link: `<${origin}${page.path}>; rel="canonical"`,
            'cache-control': 'public, max-age=300',
          },
        }),
    );
  }
}
