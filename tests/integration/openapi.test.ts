/** /openapi.json is a valid OpenAPI 3.1 document, every documented path answers, and /docs/api shows it. */
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { operationSlug } from '../../src/core/publish/reference/reference.ts';
import { TEST_ORIGIN } from '../support/origin.ts';
import { useRuntime } from '../support/runtime.ts';

const site = useRuntime();

/** The example search of the served description (drawn from the content at build time): what the Try it form sends. */
async function exampleSearch(): Promise<{ q: string; limit: number; lang?: string }> {
  const doc = await (await site.fetchPath('/openapi.json')).json();
  const parameters = doc.paths['/api/search'].get.parameters as { name: string; example?: unknown }[];
  return Object.fromEntries(parameters.map((p) => [p.name, p.example])) as { q: string; limit: number; lang?: string };
}

describe('OpenAPI description', () => {
  it('validates against the OpenAPI 3.1 schema', async () => {
    const res = await site.fetchPath('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const doc = await res.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
    expect(doc.servers[0].url).toBe(TEST_ORIGIN);
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("its examples are this site's own: every page it names answers, and the example search finds what its answer shows", async () => {
    const text = await (await site.fetchPath('/openapi.json')).text();
    // Paths of pages (templates such as /blog/category/{slug} left out).
    const pages = [
      ...new Set([...text.matchAll(/\/(?:blog|solutions|products)(?:\/[a-z0-9][a-z0-9-]*)+(?![/a-z0-9{-])/g)].map((m) => m[0])),
    ];
    expect(pages.length).toBeGreaterThan(0);
    for (const page of pages) expect((await site.fetchPath(page)).status, page).toBe(200);
    const { q, limit, lang } = await exampleSearch();
    const shown = JSON.parse(text).paths['/api/search'].get.responses['200'].content['application/json'].example as { slug: string }[];
    const found = (await (
      await site.fetchPath(`/api/search?${new URLSearchParams({ q, limit: '50', ...(lang ? { lang } : {}) })}`)
    ).json()) as {
      slug: string;
    }[];
    expect(limit).toBeGreaterThanOrEqual(shown.length);
    expect(shown.length).toBeGreaterThan(0);
    for (const { slug } of shown) expect(found.map((r) => r.slug)).toContain(slug);
  });

  it('documents every API function route, and every documented operation exists', async () => {
    const doc = await (await site.fetchPath('/openapi.json')).json();
    const documented = Object.keys(doc.paths);
    for (const path of [
      '/api/search',
      '/api/tweets',
      '/api/contact',
      '/health',
      '/mcp',
      '/a2a',
      '/oauth/register',
      '/oauth/token',
      '/oauth/revoke',
      '/oauth/jwks.json',
    ])
      expect(documented).toContain(path);
    for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
      for (const method of Object.keys(methods)) {
        const res = await site.fetchPath(path, {
          method: method.toUpperCase(),
          headers: { 'content-type': 'application/json', 'x-forwarded-for': '192.0.2.200' },
          body: method === 'get' ? undefined : '{}',
        });
        expect(res.status, `${method} ${path}`).not.toBe(404);
        expect(res.status, `${method} ${path}`).toBeLessThan(500);
        const declared = Object.keys((methods[method] as { responses: Record<string, unknown> }).responses);
        expect(declared, `${method} ${path} answered ${res.status}`).toContain(String(res.status));
      }
    }
  });

  it('types query parameters as parsed (limit is an integer) and states security on every operation', async () => {
    const doc = await (await site.fetchPath('/openapi.json')).json();
    const limit = doc.paths['/api/search'].get.parameters.find((p: { name: string }) => p.name === 'limit');
    expect(limit.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 50, default: 10 });
    for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, { security?: unknown[] }>>)) {
      for (const [method, op] of Object.entries(methods)) {
        expect(op.security, `${method} ${path}`).toBeDefined();
        if (path === '/mcp') expect(op.security).toContainEqual({ oauth2: ['content:export'] });
        else if (!path.startsWith('/oauth/token') && !path.startsWith('/oauth/revoke'))
          expect(op.security, `${method} ${path}`).toEqual([]);
      }
    }
  });

  it('gives every operation a page of its own, linked from the overview, every sidebar and the single page', async () => {
    const doc = await (await site.fetchPath('/openapi.json')).json();
    const overview = await (await site.fetchPath('/docs/api')).text();
    const all = await (await site.fetchPath('/docs/api/all')).text();
    const operations = Object.entries(doc.paths as Record<string, Record<string, { operationId: string }>>).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({
        method: method.toUpperCase(),
        path,
        id: op.operationId,
        slug: operationSlug(op.operationId),
      })),
    );
    expect(operations.length).toBeGreaterThanOrEqual(15);
    // A path shown in a heading may break only before a slash: <span>/api</span><wbr><span>/search</span>.
    const shownPath = (path: string) =>
      path
        .split(/(?=\/)/)
        .map((piece) => `<span>${piece}</span>`)
        .join('<wbr>');
    for (const op of operations) {
      const res = await site.fetchPath(`/docs/api/${op.slug}`);
      expect(res.status, op.slug).toBe(200);
      const html = await res.text();
      // Booleans, so a failure names the operation instead of printing the whole page.
      expect(/<h1 id="operation-title" class="op-title">[^<]+<\/h1>/.test(html), `${op.id}: title`).toBe(true);
      const endpoint = `>${op.method}</span><code class="operation-path">${shownPath(op.path)}</code>`;
      expect(html.includes(endpoint), `${op.id}: endpoint`).toBe(true);
      expect(html.includes(`<a href="/docs/api/${op.slug}" aria-current="page">`), `${op.id}: current in the sidebar`).toBe(true);
      expect(html.includes('<pre class="code-block" tabindex="0" data-language="shellscript">'), `${op.id}: curl sample`).toBe(true);
      // Descriptions are rendered as CommonMark: no backtick survives into the page's text.
      expect(html.replace(/<pre[\s\S]*?<\/pre>/g, '').includes('`'), `${op.id}: a backtick outside code blocks`).toBe(false);
      expect(overview.includes(`<li class="op-card" id="${op.id}"><a href="/docs/api/${op.slug}">`), `${op.id}: overview`).toBe(true);
      expect(all.includes(`<section class="operation" id="${op.id}"`), `${op.id}: single page`).toBe(true);
      expect(all.includes(`href="#${op.id}"`), `${op.id}: single page's sidebar`).toBe(true);
      expect(all.includes(endpoint), `${op.id}: single page's endpoint`).toBe(true);
    }
    const search = await (await site.fetchPath('/docs/api/search-articles')).text();
    // Readable Chinese in the request samples (the example query is a Chinese article's tag): curl encodes the query itself.
    const { q } = await exampleSearch();
    expect(q).toMatch(/\p{Script=Han}/u);
    const literal = q.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    expect(new RegExp(`--data-urlencode</span><span[^>]*> 'q=${literal}'`).test(search), 'readable query in the curl sample').toBe(true);
    // Scripts: JSON-LD, then three modules: the site-wide one (the reader's chrome language and WebMCP, src/layouts/Base.astro),
    // the header's search palette and this page's own (copy buttons, tabs); none inline.
    for (const html of [overview, all, search]) {
      const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]).filter((tag) => !tag.includes('type="application/ld+json"'));
      expect(scripts).toHaveLength(3);
      for (const tag of scripts) expect(tag).toMatch(/^<script type="module" src="\/_astro\/[\w.-]+\.js">$/);
    }
    // The overview's twin says what the overview shows: one line per operation, linking its twin, and the whole reference's.
    const overviewMd = await (await site.fetchPath('/docs/api', { headers: { accept: 'text/markdown' } })).text();
    expect(overviewMd).toMatch(/^---\n[\s\S]*?\n---\n\n> Index of this site for agents: \S+\/llms\.txt\n\n# .*API/);
    expect(overviewMd).toContain('(http://localhost:8899/docs/api/search-articles.md) `/api/search`: ');
    expect(overviewMd).toContain('[All on one page](http://localhost:8899/docs/api/all.md)');
    expect(overviewMd).not.toContain('## POST /api/contact');
    // The one-page reference's twin is the whole reference.
    const md = await (await site.fetchPath('/docs/api/all', { headers: { accept: 'text/markdown' } })).text();
    expect(md).toMatch(/^---\n[\s\S]*?\n---\n\n> Index of this site for agents: \S+\/llms\.txt\n\n# .*API/);
    expect(md).toContain('## POST /api/contact');
    expect(md).toContain('```sh\ncurl -sS');
    expect(md).toContain(`\`\`\`sh\ncurl -sS -G 'http://localhost:8899/api/search' \\\n  --data-urlencode 'q=${q}'`);
    // The one-page reference shows curl alone, and so does its twin (under AFDocs' 100,000 characters); each operation has all three.
    expect(md).not.toContain('```python');
    expect(md.length).toBeLessThanOrEqual(100_000);
    // A response's example follows its body, in the page's words (src/core/publish/reference/labels.ts).
    expect(md).toMatch(/ {2}Body `application\/problem\+json`\n[\s\S]*?\n {2}Example\n\n {2}```\n/);
    // Each operation's page has its own twin.
    const opMd = await (await site.fetchPath('/docs/api/search-articles.md')).text();
    expect(opMd).toMatch(/^---\n[\s\S]*?\n---\n\n> Index of this site for agents: \S+\/llms\.txt\n\n# Search articles/);
    expect(opMd).toContain("curl -sS -G 'http://localhost:8899/api/search'");
    expect(opMd).toContain('```python\nimport requests');
    expect(opMd).not.toContain('## POST /api/contact');
    expect(await (await site.fetchPath('/docs/api/all.md')).text()).toBe(md);
  });
});
