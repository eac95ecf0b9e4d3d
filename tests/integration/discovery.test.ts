/**
 * The discovery documents through the real runtime (static build + functions + edge function in
 * Netlify's emulation): media types, CORS, caching, ETag/304, the linkset, the AI catalog, skill
 * digests against the served bytes, entry-point coverage and real 404s.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AGENT_ENTRY_POINTS } from '../../src/core/publish/entry-points.ts';
import { STATIC_DISCOVERY_PATHS } from '../../src/core/kernel/links.ts';
import { TEST_ORIGIN } from '../support/origin.ts';
import { useRuntime } from '../support/runtime.ts';

const site = useRuntime();
const local = (url: string): string => {
  expect(url.startsWith(`${TEST_ORIGIN}/`), url).toBe(true);
  return new URL(url).pathname;
};

/** Every document an agent reads to find its way, with the media type it must be served as. */
const DOCUMENTS: Record<string, RegExp> = {
  '/.well-known/api-catalog': /^application\/linkset\+json; profile="https:\/\/www\.rfc-editor\.org\/info\/rfc9727"$/,
  '/.well-known/ai-catalog.json': /^application\/json/,
  '/.well-known/ard.json': /^application\/json/,
  '/.well-known/agent-skills/index.json': /^application\/json/,
  '/.well-known/agent-skills/search-library/SKILL.md': /^text\/markdown; charset=utf-8$/,
  '/.well-known/skills/index.json': /^application\/json/,
  '/.well-known/skills/search-library/SKILL.md': /^text\/markdown; charset=utf-8$/,
  '/.well-known/mcp/server-card.json': /^application\/json/,
  '/.well-known/agent-card.json': /^application\/json/,
  '/mcp/server-card': /^application\/mcp-server-card\+json/,
  '/.well-known/oauth-authorization-server': /^application\/json/,
  '/.well-known/oauth-protected-resource': /^application\/json/,
  '/.well-known/oauth-protected-resource/mcp': /^application\/json/,
  '/oauth/jwks.json': /^application\/json/,
  '/.well-known/http-message-signatures-directory': /^application\/http-message-signatures-directory\+json$/,
  '/llms.txt': /^text\/plain; charset=utf-8$/,
  '/openapi.json': /^application\/json/,
  '/auth.md': /^text\/markdown; charset=utf-8$/,
  '/robots.txt': /^text\/plain; charset=utf-8$/,
  '/sitemap.xml': /^application\/xml/,
  '/sitemap.md': /^text\/markdown; charset=utf-8$/,
};

describe('every discovery document', () => {
  it('has its media type, CORS open, a cache lifetime, an ETag, and answers If-None-Match with 304 (GET and HEAD)', async () => {
    for (const path of STATIC_DISCOVERY_PATHS) expect(Object.keys(DOCUMENTS), path).toContain(path);
    for (const [path, type] of Object.entries(DOCUMENTS)) {
      const res = await site.fetchPath(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toMatch(type);
      expect(res.headers.get('access-control-allow-origin'), path).toBe('*');
      expect(res.headers.get('cache-control'), path).toMatch(/^public, max-age=\d+/);
      const etag = res.headers.get('etag');
      expect(etag, path).toMatch(/^(W\/)?"[^"]+"$/);
      const body = await res.text();
      expect(body.length, path).toBeGreaterThan(0);
      const head = await site.fetchPath(path, { method: 'HEAD' });
      expect(head.status, path).toBe(200);
      expect(head.headers.get('etag'), `HEAD ${path}`).toBe(etag);
      expect(await head.text(), `HEAD ${path}`).toBe('');
      const revalidated = await site.fetchPath(path, { headers: { 'if-none-match': etag! } });
      expect(revalidated.status, path).toBe(304);
      expect(await revalidated.text(), path).toBe('');
      expect((await site.fetchPath(path, { headers: { 'if-none-match': '"stale"' } })).status, path).toBe(200);
    }
  });
});

describe('/.well-known/api-catalog', () => {
  it('carries rel="api-catalog" on GET and HEAD and links the API description, docs, status, server card and auth.md, all answering', async () => {
    for (const method of ['GET', 'HEAD']) {
      const res = await site.fetchPath('/.well-known/api-catalog', { method });
      expect(res.headers.get('link'), method).toContain('</.well-known/api-catalog>; rel="api-catalog"');
    }
    const doc = (await (await site.fetchPath('/.well-known/api-catalog')).json()) as { linkset: Record<string, unknown>[] };
    const targets = doc.linkset.flatMap((c) =>
      Object.entries(c)
        .filter(([rel]) => rel !== 'anchor')
        .flatMap(([rel, t]) => (t as { href: string; type: string }[]).map((x) => ({ rel, ...x }))),
    );
    for (const path of ['/openapi.json', '/docs/api', '/health', '/mcp/server-card', '/auth.md', '/.well-known/agent-card.json'])
      expect(targets.map((t) => local(t.href))).toContain(path);
    for (const context of doc.linkset)
      for (const rel of ['service-desc', 'service-doc']) expect(context[rel], `${String(context.anchor)} ${rel}`).toBeDefined();
    for (const target of targets) {
      const res = await site.fetchPath(local(target.href));
      expect(res.status, target.href).toBe(200);
      expect(res.headers.get('content-type'), target.href).toContain(target.type);
    }
  });
});

describe('AI catalog', () => {
  it('is the same document at ai-catalog.json and ard.json, and every entry URL answers with the entry type', async () => {
    const a = await (await site.fetchPath('/.well-known/ai-catalog.json')).text();
    expect(await (await site.fetchPath('/.well-known/ard.json')).text()).toBe(a);
    const doc = JSON.parse(a) as {
      host: { identifier: string };
      entries: { identifier: string; type: string; url: string; representativeQueries: string[] }[];
    };
    expect(doc.host.identifier).toBe(`did:web:${new URL(TEST_ORIGIN).host.replace(':', '%3A')}`);
    expect(doc.entries.map((e) => e.identifier.split(':').slice(3).join(':'))).toEqual([
      'mcp:site',
      'a2a:site',
      'skills:search-library',
      'skills:read-article',
      'skills:get-export-token',
    ]);
    for (const entry of doc.entries) {
      expect(entry.identifier).toMatch(new RegExp(`^urn:air:${new URL(TEST_ORIGIN).hostname}:`));
      // Asked for by the type the entry declares, each is served as that type (a SKILL.md entry's type carries
      // ARD's profile parameter; the file is text/markdown). The A2A card is JSON unless that type is asked for.
      const served = entry.type.split(';')[0]!;
      const res = await site.fetchPath(local(entry.url), { headers: { accept: served } });
      expect(res.status, entry.url).toBe(200);
      expect(res.headers.get('content-type'), entry.url).toContain(served);
      expect(entry.representativeQueries.length).toBeGreaterThanOrEqual(2);
    }
  });
});

describe('agent skills', () => {
  it('publishes digests that match the bytes served for every SKILL.md', async () => {
    const index = (await (await site.fetchPath('/.well-known/agent-skills/index.json')).json()) as {
      skills: { name: string; url: string; digest: string; files: { path: string; digest: string }[] }[];
    };
    expect(index.skills.map((s) => s.name)).toEqual(['search-library', 'read-article', 'get-export-token']);
    for (const skill of index.skills) {
      const res = await site.fetchPath(local(skill.url));
      expect(res.status, skill.url).toBe(200);
      const bytes = Buffer.from(await res.arrayBuffer());
      const digest = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
      expect(skill.digest, skill.name).toBe(digest);
      expect(skill.files, skill.name).toEqual([{ path: 'SKILL.md', digest }]);
      expect(bytes.toString('utf8')).toMatch(new RegExp(`^---\\nname: ${skill.name}\\ndescription: .+\\n---\\n`));
    }
  });

  it('a skill example works as written: the search request in search-library finds articles', async () => {
    const text = await (await site.fetchPath('/.well-known/agent-skills/search-library/SKILL.md')).text();
    const request = /^GET (\/api\/search\?\S+) HTTP\/1\.1$/m.exec(text)![1]!;
    const res = await site.fetchPath(request);
    expect(res.status).toBe(200);
    expect(((await res.json()) as unknown[]).length).toBeGreaterThan(0);
    const read = await (await site.fetchPath('/.well-known/agent-skills/read-article/SKILL.md')).text();
    const twin = /`GET (http\S+\.md)`/.exec(read)![1]!;
    expect((await site.fetchPath(local(twin))).status).toBe(200);
  });
});

describe('entry points', () => {
  it('llms.txt, auth.md and the API reference (HTML and markdown) link every agent entry point', async () => {
    const llms = await (await site.fetchPath('/llms.txt')).text();
    const authMd = await (await site.fetchPath('/auth.md')).text();
    const docsMd = await (await site.fetchPath('/docs/api.md')).text();
    const docsHtml = await (await site.fetchPath('/docs/api')).text();
    for (const entry of AGENT_ENTRY_POINTS) {
      const url = `${TEST_ORIGIN}${entry.path}`;
      // llms.txt links only markdown (the Agent Readability Spec): it names every other entry point as a code span.
      expect(llms, entry.path).toContain(url.endsWith('.md') ? `](${url})` : `: \`${url}\`.`);
      expect(authMd, entry.path).toContain(`](${url})`);
      expect(docsMd, entry.path).toContain(`](${url})`);
      expect(docsHtml, entry.path).toContain(entry.postOnly ? `POST ${entry.path}` : `href="${entry.path}"`);
      // GET answers every entry point except the POST-only MCP and A2A endpoints, which say how to call them.
      const res = await site.fetchPath(entry.path);
      if (entry.postOnly) {
        expect(res.status, entry.path).toBe(405);
        expect(res.headers.get('allow'), entry.path).toContain('POST');
      } else {
        expect(res.status, entry.path).toBe(200);
      }
    }
  });
});

describe('unknown paths', () => {
  it('are real 404s, never a 200 HTML shell', async () => {
    for (const path of [
      '/.well-known/nope',
      '/.well-known/agent-skills/nope/SKILL.md',
      '/.well-known/agent-skills/search-library/other.md',
      '/.well-known/mcp/nope.json',
      '/nope.md',
      '/blog/no-such-article.md',
      '/no-such-page',
      '/blog/no-such-article',
    ]) {
      const res = await site.fetchPath(path);
      expect(res.status, path).toBe(404);
      await res.arrayBuffer();
    }
    const skill = await site.fetchPath('/.well-known/agent-skills/nope/SKILL.md');
    expect(skill.headers.get('content-type')).toBe('application/problem+json');
  });
});
