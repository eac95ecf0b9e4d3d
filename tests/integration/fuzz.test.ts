/**
 * Property-based fuzzing of every endpoint through the real runtime (fast-check): malformed
 * methods, headers, query strings and bodies. Whatever arrives, the answer is never a 5xx, and
 * every error names the problem in the format of its family: RFC 9457 problem JSON for /api/* and
 * negotiation, RFC 6749 `{error, error_description}` for /oauth/*, a JSON-RPC error (or tool error)
 * for /mcp and /a2a, an HTML page with a heading for the consent and claim pages.
 * Bounded: a fixed number of runs per endpoint and a time limit, with a fixed seed for replay.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { useRuntime } from '../support/runtime.ts';

const site = useRuntime();
const RUNS_PER_ENDPOINT = Number(process.env.FUZZ_RUNS ?? 12);
const TIME_LIMIT_MS = 45_000;
const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
let ip = 0;

type Family = 'problem' | 'oauth' | 'jsonrpc' | 'html' | 'any';

/** Checks one answer: no 5xx; an error body parses and says what is wrong. */
async function assertWellFormed(res: Response, family: Family, label: string, method: string): Promise<void> {
  expect(res.status, label).toBeLessThan(500);
  // HEAD answers carry no body to inspect.
  if (res.status < 400 || res.status === 304 || method === 'HEAD') return;
  const type = res.headers.get('content-type') ?? '';
  const text = await res.text();
  if (family === 'html' || (family === 'any' && type.startsWith('text/html'))) {
    expect(type, label).toMatch(/^text\/html/);
    // A page with a heading that says what happened (the 404 page's has its Chinese line in a span).
    expect(text, label).toMatch(/<h1>[^<]+(?:<span[^>]*>[^<]+<\/span>)?<\/h1>/);
    return;
  }
  if (res.status === 405 && text === '') return;
  expect(type, label).toMatch(/json/);
  const body = JSON.parse(text) as Record<string, unknown>;
  if (family === 'jsonrpc') {
    const named =
      (body.error as { message?: string } | undefined)?.message ??
      (body.result as { content?: { text: string }[] } | undefined)?.content?.[0]?.text;
    expect(typeof named === 'string' && named.length > 0, `${label}: ${text.slice(0, 200)}`).toBe(true);
  } else if (family === 'oauth' || (family === 'any' && 'error' in body)) {
    expect(typeof body.error, label).toBe('string');
    expect(String(body.error_description ?? ''), label).not.toBe('');
  } else {
    expect(typeof body.title, `${label}: ${text.slice(0, 200)}`).toBe('string');
    expect(body.status, label).toBe(res.status);
    expect(String(body.detail ?? ''), label).not.toBe('');
  }
}

/** encodeURIComponent refuses lone surrogates; what a client could send is the well-formed string. */
const enc = (text: string): string => encodeURIComponent(text.toWellFormed());
const junkText = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.string({ unit: 'binary', maxLength: 100 }),
  fc.constantFrom('', '{', '[]', 'null', '%', '%zz', '\u0000', '🤖'.repeat(50), 'a'.repeat(20_000)),
);
const junkJson = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  junkText,
);
const contentType = fc.constantFrom(
  'application/json',
  'application/x-www-form-urlencoded',
  'text/plain',
  'multipart/form-data; boundary=x',
  '',
  'application/json; charset=latin1',
);
const method = fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS');
const formBody = fc
  .dictionary(
    fc.constantFrom(
      'grant_type',
      'client_id',
      'client_secret',
      'code',
      'code_verifier',
      'redirect_uri',
      'scope',
      'resource',
      'token',
      'token_type_hint',
      'ticket',
      'decision',
      fc.sample(fc.string({ maxLength: 8 }), 1)[0]!,
    ),
    junkText,
    { maxKeys: 6 },
  )
  .map((d) => new URLSearchParams(d).toString());
/** A request target path; `//x` would parse as a scheme-relative URL in a client, so leading slashes collapse. */
const webPath = fc.webPath().map((p) => `/${p.replace(/^\/+/, '')}`);
const queryString = fc.dictionary(fc.string({ maxLength: 20 }), junkText, { maxKeys: 6 }).map((d) => new URLSearchParams(d).toString());

interface Case {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

async function send(c: Case): Promise<Response> {
  const headers = new Headers({ 'x-forwarded-for': `198.18.${(++ip >> 8) & 255}.${ip & 255}` });
  for (const [name, value] of Object.entries(c.headers)) {
    try {
      headers.set(name, value);
    } catch {
      // A header value fetch itself refuses (e.g. a newline) can never reach the server.
    }
  }
  const hasBody = c.body !== undefined && c.method !== 'GET' && c.method !== 'HEAD';
  return site.fetchPath(c.path, { method: c.method, headers, ...(hasBody ? { body: c.body } : {}) });
}

function fuzz(name: string, family: Family, arbitrary: fc.Arbitrary<Case>): void {
  it(
    `${name}: never 5xx, errors name the problem`,
    async () => {
      await fc.assert(
        fc.asyncProperty(arbitrary, async (c) => {
          await assertWellFormed(await send(c), family, `${c.method} ${c.path.slice(0, 80)}`, c.method);
        }),
        // Interrupted by the time limit counts as a failure: fewer cases than asked for is not a pass.
        {
          numRuns: RUNS_PER_ENDPOINT,
          seed: SEED,
          interruptAfterTimeLimit: TIME_LIMIT_MS,
          markInterruptAsFailure: true,
          endOnFailure: true,
        },
      );
    },
    TIME_LIMIT_MS + 30_000,
  );
}

describe('fuzz', () => {
  fuzz(
    '/api/search',
    'problem',
    fc.record({
      method,
      path: queryString.map((q) => `/api/search?${q}`),
      headers: fc.record({ accept: fc.constantFrom('*/*', 'text/html', 'application/json', 'x/y') }),
    }),
  );
  fuzz(
    '/api/search?q=',
    'problem',
    fc.record({
      method: fc.constant('GET'),
      path: junkText.map((q) => `/api/search?q=${enc(q)}&limit=${enc(q.slice(0, 5))}`),
      headers: fc.constant({}),
    }),
  );
  fuzz(
    '/api/contact',
    'any',
    fc.record({
      method,
      path: fc.constant('/api/contact'),
      headers: fc.record({ 'content-type': contentType, accept: fc.constantFrom('application/json', 'text/html') }),
      body: fc.oneof(junkJson, formBody),
    }),
  );
  fuzz(
    '/api/tweets and unknown /api paths',
    'problem',
    fc.record({
      method,
      path: fc.oneof(
        queryString.map((q) => `/api/tweets?${q}`),
        webPath.map((p) => `/api${p}`),
      ),
      headers: fc.constant({}),
    }),
  );
  fuzz(
    '/mcp (bodies)',
    'jsonrpc',
    fc.record({
      method: fc.constant('POST'),
      path: fc.constant('/mcp'),
      headers: fc.record({
        'content-type': fc.constantFrom('application/json', 'application/json', 'text/plain'),
        accept: fc.constantFrom('application/json, text/event-stream', '*/*', 'text/html'),
      }),
      body: fc.oneof(
        junkJson,
        fc
          .record(
            {
              jsonrpc: fc.constantFrom('2.0', '1.0', 2),
              id: fc.oneof(fc.integer(), fc.string(), fc.constant(null)),
              method: fc.constantFrom('initialize', 'tools/list', 'tools/call', 'ping', 'server/discover', 'x'),
              params: fc.jsonValue({ maxDepth: 3 }),
            },
            { requiredKeys: [] },
          )
          .map((v) => JSON.stringify(v)),
        fc
          .record({
            name: fc.constantFrom('search_articles', 'get_article', 'list_products', 'get_company_info', 'export_article_index', 'nope'),
            arguments: fc.jsonValue({ maxDepth: 2 }),
          })
          .map((params) => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params })),
      ),
    }),
  );
  fuzz(
    '/mcp (headers)',
    'jsonrpc',
    fc.record({
      method: fc.constant('POST'),
      path: fc.constant('/mcp'),
      headers: fc.record(
        {
          'content-type': fc.constant('application/json'),
          'mcp-protocol-version': fc.oneof(fc.constantFrom('2026-07-28', '2025-11-25', '1999-01-01'), fc.string({ maxLength: 12 })),
          'mcp-method': fc.string({ maxLength: 12 }),
          'mcp-name': fc.string({ maxLength: 12 }),
          authorization: fc.oneof(fc.constant('Bearer x.y.z'), fc.string({ maxLength: 40 })),
          origin: fc.constantFrom('http://localhost:8899', 'https://evil.example', 'null'),
        },
        { requiredKeys: ['content-type'] },
      ),
      body: fc.constant(
        JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'search_articles', arguments: { query: 'llm' } } }),
      ),
    }),
  );
  fuzz(
    '/a2a (bodies)',
    'jsonrpc',
    fc.record({
      method: fc.constantFrom('POST', 'POST', 'GET', 'OPTIONS'),
      path: fc.constant('/a2a'),
      headers: fc.record(
        {
          'content-type': fc.constantFrom('application/json', 'application/json', 'text/plain'),
          'a2a-version': fc.oneof(fc.constantFrom('1.0', '1.0', '0.3', '1.0.1'), fc.string({ maxLength: 8 })),
          origin: fc.constantFrom('http://localhost:8899', 'https://evil.example'),
        },
        { requiredKeys: ['content-type'] },
      ),
      body: fc.oneof(
        junkJson,
        fc
          .record(
            {
              jsonrpc: fc.constantFrom('2.0', '1.0'),
              id: fc.oneof(fc.integer(), fc.string(), fc.constant(null), fc.double()),
              method: fc.constantFrom(
                'SendMessage',
                'GetTask',
                'ListTasks',
                'CancelTask',
                'SendStreamingMessage',
                'SubscribeToTask',
                'GetExtendedAgentCard',
                'CreateTaskPushNotificationConfig',
                'x',
              ),
              params: fc.jsonValue({ maxDepth: 3 }),
            },
            { requiredKeys: [] },
          )
          .map((v) => JSON.stringify(v)),
        fc
          .record(
            {
              messageId: fc.oneof(fc.string(), fc.jsonValue({ maxDepth: 1 })),
              role: fc.constantFrom('ROLE_USER', 'ROLE_AGENT', 1, 'user'),
              parts: fc.array(
                fc.oneof(
                  fc.record({ text: junkText }),
                  fc.record({ data: fc.jsonValue({ maxDepth: 3 }) }),
                  fc.record({
                    data: fc.record({
                      skill: fc.constantFrom('search_articles', 'get_article', 'list_products', 'export_article_index', 'x'),
                      arguments: fc.jsonValue({ maxDepth: 2 }),
                    }),
                  }),
                  fc.record({ url: fc.string(), mediaType: fc.string({ maxLength: 12 }) }),
                ),
                { maxLength: 3 },
              ),
              taskId: fc.string({ maxLength: 8 }),
            },
            { requiredKeys: ['parts'] },
          )
          .map((message) => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message } })),
      ),
    }),
  );
  fuzz(
    '/oauth/register',
    'oauth',
    fc.record({
      method: fc.constantFrom('POST', 'POST', 'GET', 'PUT'),
      path: fc.constant('/oauth/register'),
      headers: fc.record({ 'content-type': contentType }),
      body: fc.oneof(
        junkJson,
        fc
          .record(
            {
              client_name: fc.jsonValue({ maxDepth: 1 }),
              grant_types: fc.jsonValue({ maxDepth: 2 }),
              redirect_uris: fc.array(fc.oneof(fc.webUrl(), junkText), { maxLength: 3 }),
              token_endpoint_auth_method: fc.jsonValue({ maxDepth: 1 }),
              scope: fc.jsonValue({ maxDepth: 1 }),
            },
            { requiredKeys: [] },
          )
          .map((v) => JSON.stringify(v)),
      ),
    }),
  );
  fuzz(
    '/oauth/token',
    'oauth',
    fc.record({
      method: fc.constantFrom('POST', 'POST', 'GET'),
      path: fc.oneof(
        fc.constant('/oauth/token'),
        queryString.map((q) => `/oauth/token?${q}`),
      ),
      headers: fc.record(
        {
          'content-type': contentType,
          authorization: fc.oneof(
            fc.constant('Basic Zm9vOmJhcg=='),
            fc.string({ maxLength: 40 }).map((s) => `Basic ${s}`),
            fc.string({ maxLength: 30 }),
          ),
        },
        { requiredKeys: ['content-type'] },
      ),
      body: formBody,
    }),
  );
  fuzz(
    '/oauth/revoke',
    'oauth',
    fc.record({
      method: fc.constantFrom('POST', 'GET'),
      path: fc.constant('/oauth/revoke'),
      headers: fc.record(
        { 'content-type': contentType, authorization: fc.string({ maxLength: 40 }).map((s) => `Basic ${s}`) },
        { requiredKeys: ['content-type'] },
      ),
      body: formBody,
    }),
  );
  fuzz(
    '/oauth/claim',
    'oauth',
    fc.record({
      method: fc.constantFrom('POST', 'POST', 'GET', 'DELETE'),
      path: fc.constant('/oauth/claim'),
      headers: fc.record({ 'content-type': contentType }),
      body: fc.oneof(
        junkJson,
        fc
          .record(
            {
              claim_token: fc.oneof(
                junkText,
                fc.string().map((s) => `clm_${s}`),
              ),
              claim_attempt_id: fc.oneof(
                junkText,
                fc.string().map((s) => `cla_${s}`),
              ),
            },
            { requiredKeys: [] },
          )
          .map((v) => JSON.stringify(v)),
      ),
    }),
  );
  fuzz(
    '/oauth/authorize and /oauth/claim/verify',
    'html',
    fc
      .record({
        method: fc.constantFrom('GET', 'POST', 'PUT'),
        path: fc.oneof(
          queryString.map((q) => `/oauth/authorize?${q}`),
          queryString.map((q) => `/oauth/authorize?response_type=code&client_id=agt_x&${q}`),
          junkText.map((c) => `/oauth/claim/verify?user_code=${enc(c)}`),
          fc.constant('/oauth/claim/verify'),
        ),
        headers: fc.record({
          'content-type': contentType,
          cookie: fc.string({ maxLength: 40 }),
          origin: fc.constantFrom('http://localhost:8899', 'https://evil.example'),
        }),
        body: formBody,
      })
      .filter((c) => !(c.method === 'POST' && c.path.startsWith('/oauth/authorize?response_type'))),
  );
  fuzz(
    'discovery documents (/.well-known)',
    'any',
    fc.record({
      method,
      path: fc.oneof(
        fc.constantFrom(
          '/.well-known/api-catalog',
          '/.well-known/ai-catalog.json',
          '/.well-known/ard.json',
          '/.well-known/agent-skills/index.json',
          '/.well-known/agent-card.json',
          '/.well-known/mcp/server-card.json',
          '/mcp/server-card',
          '/.well-known/oauth-authorization-server',
          '/oauth/jwks.json',
        ),
        webPath.map((p) => `/.well-known/agent-skills${p}`),
        webPath.map((p) => `/.well-known${p}`),
      ),
      headers: fc.record(
        {
          'if-none-match': fc.oneof(fc.constantFrom('*', 'W/"x"', '""', ','), fc.string({ maxLength: 40 })),
          accept: fc.string({ maxLength: 40 }),
        },
        { requiredKeys: [] },
      ),
      body: junkText,
    }),
  );
  fuzz(
    'negotiation and unknown paths',
    'any',
    fc.record({
      method: fc.constantFrom('GET', 'HEAD'),
      path: fc.oneof(fc.constantFrom('/', '/blog', '/contact', '/docs/api', '/llms.txt', '/auth.md', '/index.md'), webPath),
      headers: fc.record({
        accept: fc.oneof(
          fc.constantFrom('text/markdown', 'text/html;q=0', 'application/x-nothing', '*/*;q=0', 'text/*;q=0.5, text/markdown;q=0.9'),
          fc.string({ maxLength: 40 }),
        ),
      }),
    }),
  );
});
