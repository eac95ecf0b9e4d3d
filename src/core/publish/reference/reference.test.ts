import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { FIXTURE_CATALOG } from '../../../../tests/support/core-fixtures.ts';
import { apiExamples } from '../api-examples.ts';
import { openApiDocument } from '../openapi.ts';
import type { JsonSchema } from './schema-view.ts';
import { apiReferenceMarkdown, operationDetailsMarkdown } from './markdown.ts';
import { apiReference, operationSlug, referenceOperations } from './reference.ts';

const ORIGIN = 'https://acme-ai.example';
/** The example search is drawn from the catalogue: here a Chinese article's tag, a mixed query as people type it. */
const EXAMPLE_QUERY = '私有化部署 LLM';
const examples = apiExamples({
  ...FIXTURE_CATALOG,
  origin: ORIGIN,
  articles: FIXTURE_CATALOG.articles.map((a) => (a.lang === 'zh' ? { ...a, tags: [EXAMPLE_QUERY] } : a)),
});
const doc = openApiDocument(ORIGIN, { name: 'Acme AI', operator_attribution: 'Content by Acme AI' }, examples);
const reference = apiReference(doc);
const operations = reference.groups.flatMap((g) => g.operations);

type Operation = {
  parameters?: JsonSchema[];
  requestBody?: { content: Record<string, JsonSchema> };
  responses: Record<string, { content?: Record<string, JsonSchema> }>;
};
const documented = Object.entries(doc.paths as Record<string, Record<string, Operation>>).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, op]) => ({ path, method, op })),
);

const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
ajv.addFormat('uri', (s: string) => URL.canParse(s));
ajv.addFormat('uri-reference', (s: string) => URL.canParse(s, ORIGIN));
ajv.addFormat('date', (s: string) => /^\d{4}-\d{2}-\d{2}$/.test(s));
ajv.addFormat('date-time', (s: string) => !Number.isNaN(Date.parse(s)));
ajv.addFormat('email', (s: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s));
ajv.addSchema(doc, 'doc.json');
const pointer = (...parts: string[]): string => parts.map((p) => `/${p.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
/** Validates `value` against the schema at `path` inside the document (so its $refs resolve). */
function check(path: string, value: unknown): string {
  const validate = ajv.getSchema(`doc.json#${path}`)!;
  return validate(value) ? '' : `${path}: ${ajv.errorsText(validate.errors)}`;
}

describe('OpenAPI examples', () => {
  it('has an example for every response body other than a page for people, and each validates against its schema', () => {
    const problems: string[] = [];
    let checked = 0;
    for (const { path, method, op } of documented) {
      for (const [status, response] of Object.entries(op.responses)) {
        for (const [type, media] of Object.entries(response.content ?? {})) {
          if (type === 'text/html') continue;
          if (media.example === undefined) problems.push(`${method} ${path} ${status} ${type}: no example`);
          else {
            checked++;
            const error = check(pointer('paths', path, method, 'responses', status, 'content', type, 'schema'), media.example);
            if (error) problems.push(error);
          }
        }
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(60);
  });

  it('has a valid example for every request body and every parameter', () => {
    const problems: string[] = [];
    for (const { path, method, op } of documented) {
      for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) {
        const examples = media.examples
          ? Object.values(media.examples as Record<string, { value: unknown }>).map((e) => e.value)
          : [media.example];
        if (examples[0] === undefined) problems.push(`${method} ${path} request ${type}: no example`);
        for (const example of examples) {
          const error =
            example === undefined ? '' : check(pointer('paths', path, method, 'requestBody', 'content', type, 'schema'), example);
          if (error) problems.push(error);
        }
      }
      for (const [i, parameter] of (op.parameters ?? []).entries()) {
        if (typeof parameter.description !== 'string' || parameter.description.length < 10)
          problems.push(`${method} ${path} ${String(parameter.name)}: no description`);
        if (parameter.in === 'query' && parameter.example === undefined)
          problems.push(`${method} ${path} ${String(parameter.name)}: no example`);
        if (parameter.example !== undefined) {
          const error = check(pointer('paths', path, method, 'parameters', String(i), 'schema'), parameter.example);
          if (error) problems.push(error);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('gives every /oauth/authorize parameter its own description (not a list of RFCs)', () => {
    const authorize = operations.find((op) => op.id === 'authorize')!;
    expect(authorize.parameters.map((p) => p.name)).toEqual([
      'response_type',
      'client_id',
      'redirect_uri',
      'scope',
      'state',
      'code_challenge',
      'code_challenge_method',
      'resource',
    ]);
    const descriptions = authorize.parameters.map((p) => p.description);
    expect(new Set(descriptions).size).toBe(descriptions.length);
    for (const description of descriptions) expect(description).not.toMatch(/^RFC [\d /]+`/);
  });
});

describe('apiReference', () => {
  it('groups every operation under its tag, in the order of the tags', () => {
    expect(reference.groups.map((g) => g.id)).toEqual(['content', 'contact', 'agents', 'oauth', 'operations']);
    expect(reference.groups.map((g) => g.name)).toEqual(['Content', 'Contact', 'MCP server and A2A agent', 'OAuth', 'Operations']);
    expect(operations.map((op) => `${op.method} ${op.path}`).sort()).toEqual(
      documented.map((d) => `${d.method.toUpperCase()} ${d.path}`).sort(),
    );
    expect(new Set(operations.map((op) => op.id)).size).toBe(operations.length);
  });

  it('merges allOf, so an error body shows its pinned status and the shared fields', () => {
    const search = operations.find((op) => op.id === 'searchArticles')!;
    const bad = search.responses.find((r) => r.status === '400')!;
    expect(bad.kind).toBe('error');
    const fields = bad.bodies[0]!.node.fields!;
    expect(fields.find((f) => f.name === 'status')?.node.type).toBe('400');
    expect(fields.find((f) => f.name === 'detail')?.required).toBe(true);
    expect(fields.find((f) => f.name === 'invalid_params')?.node.items?.fields?.map((f) => f.name)).toEqual(['name', 'reason']);
    expect(JSON.parse(bad.bodies[0]!.example!)).toMatchObject({ status: 400, instance: '/api/search', invalid_params: [{ name: 'q' }] });
  });

  it('names the alternatives of oneOf / anyOf', () => {
    const claim = operations.find((op) => op.id === 'claim')!;
    const variants = claim.responses.find((r) => r.status === '200')!.bodies[0]!.node.variants!;
    expect(variants.map((v) => v.title)).toEqual(['status: "pending"', 'status: "pending"', 'status: "claimed"']);
    const mcp = operations.find((op) => op.id === 'mcp')!;
    expect(mcp.responses.find((r) => r.status === '200')!.bodies[0]!.node.variants!.length).toBe(2);
  });

  it('states constraints in words', () => {
    const search = operations.find((op) => op.id === 'searchArticles')!;
    const limit = search.parameters.find((p) => p.name === 'limit')!;
    expect(limit.node.type).toBe('integer');
    expect(limit.node.constraints).toEqual(['1–50', 'default 10']);
    expect(search.parameters.find((p) => p.name === 'q')!.node.constraints).toEqual(['1–200 characters']);
  });

  it('writes one request per named body example, with readable Chinese in every language', () => {
    const token = operations.find((op) => op.id === 'token')!;
    expect(token.requests.map((r) => r.title)).toEqual([
      'Machine client, secret in the body (client_secret_post)',
      'Public client: exchange the code (PKCE)',
      'Rotate a refresh token',
    ]);
    const search = operations.find((op) => op.id === 'searchArticles')!.requests[0]!;
    for (const snippet of Object.values(search.snippets)) {
      expect(snippet).toContain(EXAMPLE_QUERY);
      expect(snippet).not.toMatch(/%[0-9A-F]{2}/);
    }
    const authorize = operations.find((op) => op.id === 'authorize')!;
    expect(authorize.auth).toEqual([]);
    expect(operations.find((op) => op.id === 'mcp')!.auth[0]).toMatch(/^Optional/);
  });
});

describe('operation pages', () => {
  it('gives each operation a unique kebab-case slug from its operationId, in sidebar order', () => {
    expect(operationSlug('searchArticles')).toBe('search-articles');
    expect(operationSlug('getJWKS')).toBe('get-jwks');
    expect(operationSlug('mcp')).toBe('mcp');
    const slugs = referenceOperations(reference).map((op) => op.slug);
    expect(slugs).toEqual(operations.map((op) => op.slug));
    expect(new Set(slugs).size).toBe(slugs.length);
    for (const slug of slugs) expect(slug).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
    for (const op of operations) expect(reference.groups.find((g) => g.id === op.group)?.operations).toContain(op);
  });

  it('refuses two operations on one URL, or an operation named like the single page', () => {
    const clone = (): JsonSchema => structuredClone(doc);
    const twice = clone();
    (twice.paths as Record<string, Record<string, { operationId: string }>>)['/health']!.get!.operationId = 'searchArticles';
    expect(() => apiReference(twice)).toThrow(/search-articles/);
    const all = clone();
    (all.paths as Record<string, Record<string, { operationId: string }>>)['/health']!.get!.operationId = 'all';
    expect(() => apiReference(all)).toThrow(/\/docs\/api\/all/);
  });

  it('offers "Try it" only for public GETs without path parameters that answer JSON', () => {
    const tryable = operations.filter((op) => op.tryable).map((op) => `${op.method} ${op.path}`);
    expect(tryable).toContain('GET /api/search');
    expect(tryable).toContain('GET /health');
    for (const op of operations.filter((o) => o.tryable)) {
      expect(op.method).toBe('GET');
      expect(op.auth).toEqual([]);
      expect(op.path).not.toContain('{');
    }
    // The authorization endpoint answers an HTML page, the token endpoint is a POST.
    expect(operations.find((op) => op.id === 'authorize')!.tryable).toBe(false);
    expect(operations.filter((op) => op.method !== 'GET').every((op) => !op.tryable)).toBe(true);
  });
});

describe('apiReferenceMarkdown', () => {
  it('holds every operation, every example and the three request languages', () => {
    const md = apiReferenceMarkdown(reference, {
      pageUrl: `${ORIGIN}/docs/api`,
      openApiUrl: `${ORIGIN}/openapi.json`,
      entryPoints: '- entry',
      operationUrl: (slug) => `${ORIGIN}/docs/api/${slug}`,
    });
    for (const op of operations) expect(md).toContain(`### ${op.method} ${op.path}`);
    const examples = operations.flatMap((op) => op.responses.flatMap((r) => r.bodies.filter((b) => b.example !== undefined)));
    // Each example under its response, as the page shows it.
    expect(md.match(/^ {2}Example\n\n {2}```$/gm)?.length).toBe(examples.length);
    expect(md.match(/^```sh$/gm)?.length).toBe(operations.reduce((n, op) => n + op.requests.length, 0));
    expect(md).toContain('```python\nimport requests');
    expect(md).toContain(`--data-urlencode 'q=${EXAMPLE_QUERY}'`);
    expect(md.trimEnd().endsWith('- entry')).toBe(true);
    // The contents link each operation's own page's twin.
    expect(md).toContain(`[GET /api/search](${ORIGIN}/docs/api/search-articles.md)`);
  });
});

describe('operationDetailsMarkdown', () => {
  it("says what the operation's page says, in its words and order (AFDocs markdown-content-parity)", () => {
    const search = operations.find((op) => op.path === '/api/search')!;
    const md = operationDetailsMarkdown(search).join('\n');
    const q = search.parameters.find((p) => p.name === 'q')!;
    expect(md).toContain('## Authentication\n\nNone: public, no key needed.');
    expect(md).toContain(`## Query parameters\n\n- \`q\` ${q.node.type}${q.required ? ' required' : ''}: ${q.description}`);
    const ok = search.responses.find((r) => r.status === '200')!;
    expect(md).toContain(`- **200** ${ok.description}\n\n  Headers\n`);
    expect(md.indexOf('  Body `application/json`')).toBeGreaterThan(md.indexOf('- **200**'));
    expect(md.indexOf('## Request\n')).toBeGreaterThan(md.indexOf('## Responses\n'));
  });
});
