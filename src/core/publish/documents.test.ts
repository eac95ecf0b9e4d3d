import { edge, httpHandler } from '../kernel/handler.ts';
import { describe, expect, it } from 'vitest';
import { frontMatter } from '../../../tools/agent-ready/checks/agent-skills.ts';
import { aiCatalogProblem } from '../../../tools/agent-ready/checks/ai-catalog.ts';
import { linksetProblem } from '../../../tools/agent-ready/checks/api-catalog.ts';
import { siteProfile } from '../content/catalog.ts';
import { FIXTURE_CATALOG } from '../../../tests/support/core-fixtures.ts';
import { AGENT_SKILLS_SCHEMA_URL } from './agent-skills.ts';
import { didWeb } from './ai-catalog.ts';
import { DISCOVERY_EDGE, DISCOVERY_MAX_AGE_SECONDS, discoveryDocuments, handleDiscovery } from './documents.ts';

const ORIGIN = 'https://acme-ai.example';
const deps = { origin: ORIGIN, version: '2.0.1', site: siteProfile(FIXTURE_CATALOG) };
/** A request through the discovery function's edge (OPTIONS and CORS are the edge's: kernel/handler.ts). */
const serve = edge((req: Request) => handleDiscovery(req, deps), DISCOVERY_EDGE);
const get = (path: string, init: RequestInit = {}): Promise<Response> => serve(new Request(`${ORIGIN}${path}`, init));
const json = async (path: string): Promise<Record<string, unknown>> => (await (await get(path)).json()) as Record<string, unknown>;

async function sha256Hex(bytes: ArrayBuffer): Promise<string> {
  return [...new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))].map((b) => b.toString(16).padStart(2, '0')).join('');
}

describe('/.well-known/api-catalog', () => {
  it('is an RFC 9727 linkset with the profile, one anchored context per API, absolute hrefs on this origin', async () => {
    const res = await get('/.well-known/api-catalog');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"');
    const doc = (await res.json()) as { linkset: Record<string, unknown>[] };
    expect(linksetProblem(doc)).toBe(3);
    expect(doc.linkset.map((c) => c.anchor)).toEqual([`${ORIGIN}/api`, `${ORIGIN}/mcp`, `${ORIGIN}/a2a`]);
    const hrefs = doc.linkset.flatMap((c) => Object.values(c).filter(Array.isArray).flat() as { href: string }[]).map((t) => t.href);
    for (const href of hrefs) expect(href.startsWith(`${ORIGIN}/`), href).toBe(true);
    for (const path of ['/openapi.json', '/docs/api', '/health', '/mcp/server-card', '/auth.md', '/.well-known/agent-card.json'])
      expect(hrefs).toContain(`${ORIGIN}${path}`);
  });

  it('answers HEAD, through the edge, with the api-catalog Link of GET (RFC 9727 §4; the server in front drops the body)', async () => {
    const adapter = httpHandler((req: Request) => handleDiscovery(req, deps), DISCOVERY_EDGE);
    for (const method of ['GET', 'HEAD']) {
      const res = await adapter(new Request(`${ORIGIN}/.well-known/api-catalog`, { method }));
      expect(res.headers.get('link'), method).toBe('</.well-known/api-catalog>; rel="api-catalog"');
    }
  });
});

describe('AI catalog', () => {
  it('is served identically at ai-catalog.json and ard.json and passes the scanner criteria', async () => {
    const a = await get('/.well-known/ai-catalog.json');
    const b = await get('/.well-known/ard.json');
    expect(a.headers.get('etag')).toBe(b.headers.get('etag'));
    const text = await a.text();
    expect(await b.text()).toBe(text);
    const doc = JSON.parse(text) as Record<string, unknown>;
    expect(aiCatalogProblem(doc)).toBe(5);
    expect(doc.host).toMatchObject({ displayName: FIXTURE_CATALOG.company.name, identifier: 'did:web:acme-ai.example' });
  });

  it('names entries by URN with the host name (never a port) and derives queries from the content', async () => {
    const local = await handleDiscovery(new Request('http://localhost:8899/.well-known/ai-catalog.json'), {
      ...deps,
      origin: 'http://localhost:8899',
    });
    const doc = (await local.json()) as {
      host: { identifier: string };
      entries: { identifier: string; url: string; representativeQueries: string[] }[];
    };
    expect(doc.host.identifier).toBe('did:web:localhost%3A8899');
    expect(doc.entries.map((e) => e.identifier)).toEqual([
      'urn:air:localhost:mcp:site',
      'urn:air:localhost:a2a:site',
      'urn:air:localhost:skills:search-library',
      'urn:air:localhost:skills:read-article',
      'urn:air:localhost:skills:get-export-token',
    ]);
    for (const entry of doc.entries) expect(entry.url.startsWith('http://localhost:8899/')).toBe(true);
    const queries = doc.entries.flatMap((e) => e.representativeQueries).join('\n');
    expect(queries).toContain(FIXTURE_CATALOG.company.name);
    expect(queries.toLowerCase()).toContain(FIXTURE_CATALOG.categories[0]!.name.toLowerCase());
    expect(queries).not.toContain('undefined');
  });

  it('encodes a port in did:web', () => {
    expect(didWeb('https://example.com')).toBe('did:web:example.com');
    expect(didWeb('http://127.0.0.1:3000')).toBe('did:web:127.0.0.1%3A3000');
  });
});

describe('A2A agent card', () => {
  it('is served as JSON at /.well-known/agent-card.json from the site profile, its interface at /a2a', async () => {
    const res = await get('/.well-known/agent-card.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const card = (await res.json()) as {
      name: string;
      version: string;
      supportedInterfaces: { url: string }[];
      skills: { examples: string[] }[];
    };
    expect(card.version).toBe('2.0.1');
    expect(card.supportedInterfaces[0]!.url).toBe(`${ORIGIN}/a2a`);
    const article = siteProfile(FIXTURE_CATALOG).exampleArticleSlug;
    expect(card.skills.flatMap((s) => s.examples)).toContain(`${ORIGIN}/blog/${article}`);
  });
});

describe('A2A agent card by version and media type', () => {
  const card = (init: RequestInit) => get('/.well-known/agent-card.json', init);

  it('a 1.0 client (A2A-Version: 1.0) gets the v1.0 card; a request without the header (0.3) gets the hybrid with a top-level url', async () => {
    const v1 = await card({ headers: { 'a2a-version': '1.0' } });
    const v1Card = (await v1.json()) as Record<string, unknown>;
    expect(v1Card).not.toHaveProperty('url');
    expect(v1Card.supportedInterfaces).toHaveLength(2);
    for (const headers of [{}, { 'a2a-version': '0.3' }, { accept: 'application/json' }] as Record<string, string>[]) {
      const legacy = (await (await card({ headers })).json()) as Record<string, unknown>;
      expect(legacy).toMatchObject({ url: `${ORIGIN}/a2a`, preferredTransport: 'JSONRPC', protocolVersion: '0.3' });
      expect(legacy.supportedInterfaces).toEqual(v1Card.supportedInterfaces);
    }
    expect(v1.headers.get('vary')).toBe('A2A-Version, Accept, Accept-Encoding');
    // RFC 9110 §15.4.5: its 304 carries the same Vary.
    const notModified = await card({ headers: { 'a2a-version': '1.0', 'if-none-match': v1.headers.get('etag')! } });
    expect([notModified.status, notModified.headers.get('vary')]).toEqual([304, v1.headers.get('vary')]);
  });

  it('is served as the type the AI catalog declares when asked for it, else as JSON; each representation has its own ETag', async () => {
    const declared = ((await json('/.well-known/ai-catalog.json')) as { entries: { type: string; url: string }[] }).entries.find((e) =>
      e.url.endsWith('/.well-known/agent-card.json'),
    )!.type;
    expect(declared).toBe('application/a2a-agent-card+json');
    const typed = await card({ headers: { accept: declared, 'a2a-version': '1.0' } });
    expect(typed.headers.get('content-type')).toBe(declared);
    const plain = await card({ headers: { 'a2a-version': '1.0' } });
    expect(plain.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await typed.text()).toBe(await plain.text());
    const legacy = await card({});
    const etags = new Set([typed, plain, legacy].map((r) => r.headers.get('etag')));
    expect(etags.size).toBe(3);
    expect(
      await (
        await card({ headers: { accept: 'application/json, application/a2a-agent-card+json;q=0.5', 'a2a-version': '1.0' } })
      ).headers.get('content-type'),
    ).toBe(declared);
    expect((await card({ headers: { accept: '*/*' } })).headers.get('content-type')).toBe('application/json; charset=utf-8');
    const revalidated = await card({ headers: { accept: declared, 'a2a-version': '1.0', 'if-none-match': typed.headers.get('etag')! } });
    expect(revalidated.status).toBe(304);
  });

  it('lets a browser send A2A-Version with its card request (the SDKs do)', async () => {
    const pre = await card({
      method: 'OPTIONS',
      headers: { origin: 'https://agent.example', 'access-control-request-headers': 'a2a-version' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-headers')).toContain('A2A-Version');
  });
});

describe('agent skills', () => {
  it('lists three skills whose digests are the sha256 of the exact bytes served, with matching front matter', async () => {
    const index = (await json('/.well-known/agent-skills/index.json')) as {
      $schema: string;
      version: string;
      skills: { name: string; type: string; url: string; digest: string; files: { path: string; digest: string }[] }[];
    };
    expect(index.$schema).toBe(AGENT_SKILLS_SCHEMA_URL);
    expect(index.version).toBe('0.2.0');
    expect(index.skills.map((s) => s.name)).toEqual(['search-library', 'read-article', 'get-export-token']);
    for (const skill of index.skills) {
      expect(skill.type).toBe('skill-md');
      expect(skill.url).toBe(`${ORIGIN}/.well-known/agent-skills/${skill.name}/SKILL.md`);
      const res = await get(new URL(skill.url).pathname);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
      const bytes = await res.arrayBuffer();
      const hex = await sha256Hex(bytes);
      expect(skill.digest).toBe(`sha256:${hex}`);
      expect(skill.files).toEqual([{ path: 'SKILL.md', digest: `sha256:${hex}` }]);
      const meta = frontMatter(new TextDecoder().decode(bytes));
      expect(meta?.name).toBe(skill.name);
      expect(meta?.description?.length).toBeGreaterThan(20);
    }
  });

  it('serves the legacy index the skills CLI falls back to: plain file paths, the same SKILL.md bytes', async () => {
    const index = (await json('/.well-known/agent-skills/index.json')) as { skills: { name: string; description: string; url: string }[] };
    const legacy = (await json('/.well-known/skills/index.json')) as { skills: { name: string; description: string; files: unknown[] }[] };
    expect(legacy.skills.map(({ name, description }) => ({ name, description }))).toEqual(
      index.skills.map(({ name, description }) => ({ name, description })),
    );
    for (const skill of legacy.skills) {
      expect(skill.files).toEqual(['SKILL.md']);
      const current = await (await get(new URL(index.skills.find((s) => s.name === skill.name)!.url).pathname)).text();
      const res = await get(`/.well-known/skills/${skill.name}/SKILL.md`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
      expect(await res.text()).toBe(current);
    }
    expect((await get('/.well-known/skills/nope/SKILL.md')).status).toBe(404);
  });

  it('writes the skills from the live constants and the real content', async () => {
    const docs = await discoveryDocuments(deps);
    const all = [...docs.entries()]
      .filter(([p]) => p.endsWith('/SKILL.md'))
      .map(([, d]) => d.body)
      .join('\n');
    const article = FIXTURE_CATALOG.articles.find((a) => a.lang === 'en') ?? FIXTURE_CATALOG.articles[0]!;
    expect(all).toContain(`${ORIGIN}/blog/${article.slug}.md`);
    for (const term of [
      '/api/search?q=',
      'search_articles',
      'get_article',
      'export_article_index',
      '/oauth/register',
      '/oauth/token',
      '/oauth/revoke',
      'content:export',
      'next_cursor',
    ])
      expect(all).toContain(term);
    for (const category of FIXTURE_CATALOG.categories) expect(all).toContain(`\`${category.slug}\``);
    expect(all).not.toMatch(/undefined|NaN|\[object/);
  });
});

describe('serving', () => {
  it('sends CORS, an hour of caching and a strong ETag on every document; If-None-Match -> 304 without a body', async () => {
    const docs = await discoveryDocuments(deps);
    expect(docs.size).toBe(11); // 4 documents, 3 skills under both skill paths
    for (const path of [...docs.keys(), '/.well-known/agent-card.json']) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('access-control-allow-origin'), path).toBe('*');
      expect(res.headers.get('cache-control'), path).toBe(`public, max-age=${DISCOVERY_MAX_AGE_SECONDS}`);
      const etag = res.headers.get('etag')!;
      expect(etag, path).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
      const cached = await get(path, { headers: { 'if-none-match': `W/${etag}` } });
      expect(cached.status, path).toBe(304);
      expect(await cached.text(), path).toBe('');
      expect((await get(path, { headers: { 'if-none-match': '"stale"' } })).status, path).toBe(200);
    }
  });

  it('answers OPTIONS 204, other methods 405 and unknown paths 404, as problem JSON', async () => {
    const pre = await get('/.well-known/ai-catalog.json', { method: 'OPTIONS' });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-methods')).toBe('GET, HEAD, OPTIONS');
    const post = await get('/.well-known/api-catalog', { method: 'POST', body: '{}' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(post.headers.get('content-type')).toBe('application/problem+json');
    const missing = await get('/.well-known/agent-skills/no-such-skill/SKILL.md');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toBe('application/problem+json');
    expect(((await missing.json()) as { detail: string }).detail).toContain('/.well-known/api-catalog');
  });
});

describe('a failure', () => {
  it('is the logged 500 problem naming the request id (DISCOVERY_EDGE), not an error escaping the function', async () => {
    const broken = { ...deps, site: {} as typeof deps.site };
    const logged: string[] = [];
    const res = await httpHandler((req: Request) => handleDiscovery(req, broken), { ...DISCOVERY_EDGE, log: (m) => logged.push(m) })(
      new Request(`${ORIGIN}/.well-known/api-catalog`),
    );
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    const id = /request ([0-9a-f-]{36})/.exec(((await res.json()) as { detail: string }).detail)?.[1];
    expect(logged).toEqual([`[${id}] GET /.well-known/api-catalog failed`]);
  });
});
