/**
 * The document tells the truth: a table of real requests per operation, successes and errors,
 * through the local runtime; every answer's status must be documented for its operation, its
 * content type must be a documented media type, its body must validate against the documented
 * schema (ajv, JSON Schema 2020-12) and its required documented headers must be present and valid.
 */
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_ORIGIN } from '../support/origin.ts';
import { useRuntime } from '../support/runtime.ts';

const site = useRuntime();

type Json = Record<string, unknown>;
interface OpenApiResponse {
  description: string;
  headers?: Record<string, { $ref: string }>;
  content?: Record<string, { schema: Json }>;
}
interface OpenApiDoc {
  paths: Record<string, Record<string, { responses: Record<string, OpenApiResponse> }>>;
  components: { headers: Record<string, { required?: boolean; schema: Json }> };
}

const BASE = 'https://openapi.test/openapi.json';
let doc: OpenApiDoc;
const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
// The formats the document uses (no ajv-formats dependency): strict enough to catch a wrong shape.
const parsesAsUrl = (value: string, base?: string): boolean => URL.canParse(value, base);
ajv.addFormat('uri', (s: string) => parsesAsUrl(s));
ajv.addFormat('uri-reference', (s: string) => parsesAsUrl(s, TEST_ORIGIN));
ajv.addFormat('date', (s: string) => /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(s)));
ajv.addFormat(
  'date-time',
  (s: string) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(s) && !Number.isNaN(Date.parse(s)),
);
ajv.addFormat('email', (s: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s));

const pointer = (...parts: string[]): string => parts.map((p) => `/${p.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
function validator(path: string): ValidateFunction {
  const validate = ajv.getSchema(`${BASE}#${path}`);
  if (!validate) throw new Error(`no schema at ${path}`);
  return validate;
}

/** Checks one live answer against the operation `method path` of the document. */
async function expectDocumented(method: string, path: string, res: Response): Promise<void> {
  const op = doc.paths[path]?.[method];
  expect(op, `${method} ${path} is documented`).toBeDefined();
  const status = String(res.status);
  const documented = op!.responses[status];
  expect(documented, `${method} ${path} answered ${status}; documented: ${Object.keys(op!.responses).join(', ')}`).toBeDefined();
  for (const [name, ref] of Object.entries(documented!.headers ?? {})) {
    const component = ref.$ref.split('/').pop()!;
    const value = res.headers.get(name);
    if (value === null) {
      expect(doc.components.headers[component]!.required ?? false, `${method} ${path} ${status}: header ${name} is required`).toBe(false);
      continue;
    }
    const schema = doc.components.headers[component]!.schema;
    const typed = schema.type === 'integer' ? Number(value) : value;
    const validate = validator(pointer('components', 'headers', component, 'schema'));
    expect(validate(typed), `${method} ${path} ${status}: ${name}: ${value}: ${ajv.errorsText(validate.errors)}`).toBe(true);
  }
  const body = await res.text();
  if (!documented!.content) {
    expect(body, `${method} ${path} ${status} has no documented body`).toBe('');
    return;
  }
  const mediaType = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  expect(Object.keys(documented!.content), `${method} ${path} ${status} content type`).toContain(mediaType);
  const validate = validator(pointer('paths', path, method, 'responses', status, 'content', mediaType, 'schema'));
  const value: unknown = mediaType.endsWith('json') ? JSON.parse(body) : body;
  expect(validate(value), `${method} ${path} ${status} body ${body.slice(0, 300)}: ${ajv.errorsText(validate.errors)}`).toBe(true);
}

// ---------------------------------------------------------------------------------------------
// Requests.

let ip = 0;
/** A fresh client IP per request that is rate limited per IP. */
const freshIp = (): string => `198.51.100.${++ip}`;
const jsonPost = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-forwarded-for': freshIp(), ...headers },
  body: typeof body === 'string' ? body : JSON.stringify(body),
});
const formPost = (fields: Record<string, string>, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': freshIp(), ...headers },
  body: new URLSearchParams(fields).toString(),
});
const basic = (id: string, secret: string): string => `Basic ${btoa(`${id}:${secret}`)}`;

const MCP_ACCEPT = 'application/json, text/event-stream';
const MODERN_VERSION = '2026-07-28';
const MODERN_META = { 'io.modelcontextprotocol/protocolVersion': MODERN_VERSION, 'io.modelcontextprotocol/clientCapabilities': {} };
const mcp = (message: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', accept: MCP_ACCEPT, ...headers },
  body: typeof message === 'string' ? message : JSON.stringify(message),
});
const call = (name: string, args: Json = {}): Json => ({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name, arguments: args } });
const modern = (method: string, params: Json = {}, extra: Record<string, string> = {}): RequestInit =>
  mcp(
    { jsonrpc: '2.0', id: 9, method, params: { ...params, _meta: MODERN_META } },
    { 'mcp-protocol-version': MODERN_VERSION, 'mcp-method': method, ...extra },
  );

const a2a = (message: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', 'a2a-version': '1.0', ...headers },
  body: typeof message === 'string' ? message : JSON.stringify(message),
});
const send = (parts: unknown[], extra: Json = {}): Json => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'SendMessage',
  params: { message: { messageId: 'm-1', role: 'ROLE_USER', parts }, ...extra },
});

const REDIRECT_URI = 'http://127.0.0.1:9/callback';
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

/** Clients and tokens the table uses, registered through the API (those answers are checked too). */
const state = {
  confidential: { id: '', secret: '', claimToken: '' },
  post: { id: '', secret: '' },
  publicClientId: '',
  exportToken: '',
  readToken: '',
  claimAttemptId: '',
  jwksEtag: '',
};

async function checked(method: string, path: string, init: RequestInit): Promise<Json> {
  const res = await site.fetchPath(path, init);
  await expectDocumented(method, path, res.clone());
  return (await res.json()) as Json;
}

beforeAll(async () => {
  doc = (await (await site.fetchPath('/openapi.json')).json()) as OpenApiDoc;
  ajv.addSchema({ ...doc, $id: BASE });

  const confidential = await checked(
    'post',
    '/oauth/register',
    jsonPost({ client_name: 'openapi test', grant_types: ['client_credentials'], token_endpoint_auth_method: 'client_secret_basic' }),
  );
  state.confidential = {
    id: String(confidential.client_id),
    secret: String(confidential.client_secret),
    claimToken: String(confidential.claim_token),
  };
  const post = await checked(
    'post',
    '/oauth/register',
    jsonPost({ grant_types: ['client_credentials'], token_endpoint_auth_method: 'client_secret_post', scope: 'articles:read' }),
  );
  state.post = { id: String(post.client_id), secret: String(post.client_secret) };
  const publicClient = await checked(
    'post',
    '/oauth/register',
    jsonPost({ grant_types: ['authorization_code'], redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' }),
  );
  state.publicClientId = String(publicClient.client_id);

  const exportToken = await checked(
    'post',
    '/oauth/token',
    formPost(
      { grant_type: 'client_credentials', scope: 'content:export' },
      { authorization: basic(state.confidential.id, state.confidential.secret) },
    ),
  );
  state.exportToken = String(exportToken.access_token);
  const readToken = await checked(
    'post',
    '/oauth/token',
    formPost({ grant_type: 'client_credentials', client_id: state.post.id, client_secret: state.post.secret }),
  );
  state.readToken = String(readToken.access_token);
});

interface Case {
  /** `method path` of the documented operation. */
  op: string;
  name: string;
  status: number;
  request: () => [string, RequestInit?];
}

const authorizeQuery = (overrides: Record<string, string | null> = {}): string => {
  const params = {
    response_type: 'code',
    client_id: state.publicClientId,
    redirect_uri: REDIRECT_URI,
    code_challenge: CHALLENGE,
    code_challenge_method: 'S256',
    state: 'xyz',
    ...overrides,
  };
  return `/oauth/authorize?${new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== null)).toString()}`;
};
const contactIp = freshIp();
const enquiry = { name: 'Li Wei', email: 'li.wei@example.com', message: 'A sizing workshop, please.' };

const CASES: Case[] = [
  { op: 'get /api/search', name: 'English query with integer limit', status: 200, request: () => ['/api/search?q=llm&limit=2'] },
  { op: 'get /api/search', name: 'Chinese query', status: 200, request: () => [`/api/search?q=${encodeURIComponent('私有化部署')}`] },
  { op: 'get /api/search', name: 'no q', status: 400, request: () => ['/api/search'] },
  { op: 'get /api/search', name: 'limit out of range', status: 400, request: () => ['/api/search?q=llm&limit=0'] },
  { op: 'get /api/search', name: 'limit not a number', status: 400, request: () => ['/api/search?q=llm&limit=two'] },
  { op: 'get /api/search', name: 'q twice', status: 400, request: () => ['/api/search?q=a&q=b'] },
  { op: 'get /api/search', name: 'wrong method', status: 405, request: () => ['/api/search?q=llm', { method: 'POST' }] },

  { op: 'get /api/tweets', name: 'the feed', status: 200, request: () => ['/api/tweets'] },
  { op: 'get /api/tweets', name: 'wrong method', status: 405, request: () => ['/api/tweets', { method: 'DELETE' }] },

  {
    op: 'post /api/contact',
    name: 'JSON enquiry',
    status: 200,
    request: () => ['/api/contact', jsonPost(enquiry, { 'x-forwarded-for': contactIp })],
  },
  {
    op: 'post /api/contact',
    name: 'second enquiry within the minute',
    status: 429,
    request: () => ['/api/contact', jsonPost(enquiry, { 'x-forwarded-for': contactIp })],
  },
  {
    op: 'post /api/contact',
    name: 'browser form post',
    status: 303,
    request: () => ['/api/contact', formPost(enquiry, { accept: 'text/html' })],
  },
  {
    op: 'post /api/contact',
    name: 'browser form post with errors',
    status: 400,
    request: () => ['/api/contact', formPost({ name: '', email: 'nope' }, { accept: 'text/html' })],
  },
  { op: 'post /api/contact', name: 'missing fields', status: 400, request: () => ['/api/contact', jsonPost({ message: 'hi' })] },
  { op: 'post /api/contact', name: 'malformed JSON', status: 400, request: () => ['/api/contact', jsonPost('{"name":')] },
  {
    op: 'post /api/contact',
    name: 'wrong content type',
    status: 415,
    request: () => ['/api/contact', jsonPost('hello', { 'content-type': 'text/plain' })],
  },
  {
    op: 'post /api/contact',
    name: 'over-size body',
    status: 413,
    request: () => ['/api/contact', jsonPost({ ...enquiry, message: 'x'.repeat(60 * 1024) })],
  },
  { op: 'post /api/contact', name: 'wrong method', status: 405, request: () => ['/api/contact'] },

  {
    op: 'post /api/feedback',
    name: 'JSON feedback',
    status: 201,
    request: () => [
      '/api/feedback',
      jsonPost({ page: '/blog/', kind: 'missing', text: 'No RSS link.' }, { 'x-forwarded-for': '198.51.100.77' }),
    ],
  },
  {
    op: 'post /api/feedback',
    name: 'browser form post',
    status: 303,
    request: () => [
      '/api/feedback',
      formPost({ page: '/blog/', kind: 'helpful' }, { accept: 'text/html', 'x-forwarded-for': '198.51.100.78' }),
    ],
  },
  {
    op: 'post /api/feedback',
    name: 'no text for wrong',
    status: 400,
    request: () => ['/api/feedback', jsonPost({ page: '/', kind: 'wrong' })],
  },
  {
    op: 'post /api/feedback',
    name: 'from another site',
    status: 403,
    request: () => ['/api/feedback', formPost({ page: '/', kind: 'helpful' }, { 'sec-fetch-site': 'cross-site' })],
  },
  {
    op: 'post /api/feedback',
    name: 'wrong content type',
    status: 415,
    request: () => ['/api/feedback', jsonPost('hello', { 'content-type': 'text/plain' })],
  },
  {
    op: 'post /api/feedback',
    name: 'over-size body',
    status: 413,
    request: () => ['/api/feedback', jsonPost({ page: '/', kind: 'missing', text: 'x'.repeat(5000) })],
  },
  { op: 'post /api/feedback', name: 'wrong method', status: 405, request: () => ['/api/feedback'] },

  { op: 'get /health', name: 'healthy', status: 200, request: () => ['/health'] },
  { op: 'get /health', name: 'wrong method', status: 405, request: () => ['/health', { method: 'POST' }] },

  {
    op: 'post /mcp',
    name: 'initialize',
    status: 200,
    request: () => [
      '/mcp',
      mcp({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
    ],
  },
  { op: 'post /mcp', name: 'ping', status: 200, request: () => ['/mcp', mcp({ jsonrpc: '2.0', id: 2, method: 'ping' })] },
  { op: 'post /mcp', name: 'tools/list', status: 200, request: () => ['/mcp', mcp({ jsonrpc: '2.0', id: 2, method: 'tools/list' })] },
  {
    op: 'post /mcp',
    name: 'tools/call search_articles',
    status: 200,
    request: () => ['/mcp', mcp(call('search_articles', { query: 'agent', limit: 2 }))],
  },
  { op: 'post /mcp', name: 'tool error (bad arguments)', status: 200, request: () => ['/mcp', mcp(call('get_article', { slug: 42 }))] },
  { op: 'post /mcp', name: 'unknown tool', status: 200, request: () => ['/mcp', mcp(call('no_such_tool'))] },
  {
    op: 'post /mcp',
    name: 'unknown method (handshake era)',
    status: 200,
    request: () => ['/mcp', mcp({ jsonrpc: '2.0', id: 4, method: 'prompts/list' })],
  },
  {
    op: 'post /mcp',
    name: 'notification',
    status: 202,
    request: () => ['/mcp', mcp({ jsonrpc: '2.0', method: 'notifications/initialized' })],
  },
  { op: 'post /mcp', name: 'server/discover (2026-07-28)', status: 200, request: () => ['/mcp', modern('server/discover')] },
  {
    op: 'post /mcp',
    name: 'tools/call (2026-07-28)',
    status: 200,
    request: () => ['/mcp', modern('tools/call', { name: 'list_products', arguments: {} }, { 'mcp-name': 'list_products' })],
  },
  { op: 'post /mcp', name: 'unknown method (2026-07-28)', status: 404, request: () => ['/mcp', modern('prompts/list')] },
  { op: 'post /mcp', name: 'header mismatch', status: 400, request: () => ['/mcp', modern('tools/list', {}, { 'mcp-method': 'ping' })] },
  { op: 'post /mcp', name: 'malformed JSON', status: 400, request: () => ['/mcp', mcp('{"jsonrpc":')] },
  { op: 'post /mcp', name: 'batch', status: 400, request: () => ['/mcp', mcp([{ jsonrpc: '2.0', id: 1, method: 'ping' }])] },
  { op: 'post /mcp', name: 'export without a token', status: 401, request: () => ['/mcp', mcp(call('export_article_index'))] },
  {
    op: 'post /mcp',
    name: 'export with a garbage token',
    status: 401,
    request: () => ['/mcp', mcp(call('export_article_index'), { authorization: 'Bearer not-a-token' })],
  },
  {
    op: 'post /mcp',
    name: 'tools/list with a garbage token',
    status: 401,
    request: () => ['/mcp', mcp({ jsonrpc: '2.0', id: 5, method: 'tools/list' }, { authorization: 'Bearer not-a-token' })],
  },
  {
    op: 'post /mcp',
    name: 'export without the scope',
    status: 403,
    request: () => ['/mcp', mcp(call('export_article_index'), { authorization: `Bearer ${state.readToken}` })],
  },
  {
    op: 'post /mcp',
    name: 'export with the scope',
    status: 200,
    request: () => ['/mcp', mcp(call('export_article_index', { limit: 2 }), { authorization: `Bearer ${state.exportToken}` })],
  },
  {
    op: 'post /mcp',
    name: 'foreign Origin',
    status: 403,
    request: () => ['/mcp', mcp({ jsonrpc: '2.0', id: 6, method: 'ping' }, { origin: 'https://attacker.example' })],
  },
  {
    op: 'post /mcp',
    name: 'wrong method',
    status: 405,
    request: () => ['/mcp', { method: 'GET', headers: { accept: 'text/event-stream' } }],
  },
  {
    op: 'post /mcp',
    name: 'Accept without JSON',
    status: 406,
    request: () => ['/mcp', mcp({ jsonrpc: '2.0', id: 7, method: 'ping' }, { accept: 'text/html' })],
  },
  { op: 'post /mcp', name: 'wrong content type', status: 415, request: () => ['/mcp', mcp('ping', { 'content-type': 'text/plain' })] },
  {
    op: 'post /mcp',
    name: 'over-size body',
    status: 413,
    request: () => ['/mcp', mcp(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"${'x'.repeat(1024 * 1024)}"}}`)],
  },

  { op: 'post /a2a', name: 'SendMessage: a search', status: 200, request: () => ['/a2a', a2a(send([{ text: 'agent orchestration' }]))] },
  {
    op: 'post /a2a',
    name: 'SendMessage: an article by URL',
    status: 200,
    request: () => ['/a2a', a2a(send([{ text: `${TEST_ORIGIN}/blog/building-reliable-ai-agents` }]))],
  },
  {
    op: 'post /a2a',
    name: 'SendMessage: a skill by data part, text/plain only',
    status: 200,
    request: () => ['/a2a', a2a(send([{ data: { skill: 'list_products' } }], { configuration: { acceptedOutputModes: ['text/plain'] } }))],
  },
  { op: 'post /a2a', name: 'SendMessage: invalid params', status: 200, request: () => ['/a2a', a2a(send([]))] },
  {
    op: 'post /a2a',
    name: 'SendMessage: a file part',
    status: 200,
    request: () => ['/a2a', a2a(send([{ url: 'https://x.example/a.pdf' }]))],
  },
  {
    op: 'post /a2a',
    name: 'SendMessage without A2A-Version',
    status: 200,
    request: () => ['/a2a', a2a(send([{ text: 'x' }]), { 'a2a-version': '' })],
  },
  {
    op: 'post /a2a',
    name: 'GetTask',
    status: 200,
    request: () => ['/a2a', a2a({ jsonrpc: '2.0', id: 2, method: 'GetTask', params: { id: 'task-1' } })],
  },
  {
    op: 'post /a2a',
    name: 'ListTasks',
    status: 200,
    request: () => ['/a2a', a2a({ jsonrpc: '2.0', id: 3, method: 'ListTasks', params: {} })],
  },
  {
    op: 'post /a2a',
    name: 'SendStreamingMessage',
    status: 200,
    request: () => ['/a2a', a2a({ ...send([{ text: 'x' }]), method: 'SendStreamingMessage' })],
  },
  {
    op: 'post /a2a',
    name: 'CreateTaskPushNotificationConfig',
    status: 200,
    request: () => [
      '/a2a',
      a2a({ jsonrpc: '2.0', id: 4, method: 'CreateTaskPushNotificationConfig', params: { taskId: 't', url: 'https://hook.example' } }),
    ],
  },
  {
    op: 'post /a2a',
    name: 'unknown method',
    status: 200,
    request: () => ['/a2a', a2a({ jsonrpc: '2.0', id: 5, method: 'tasks/get', params: {} })],
  },
  {
    op: 'post /a2a',
    name: 'notification',
    status: 202,
    request: () => ['/a2a', a2a({ jsonrpc: '2.0', method: 'GetTask', params: { id: 't' } })],
  },
  { op: 'post /a2a', name: 'malformed JSON', status: 400, request: () => ['/a2a', a2a('{"jsonrpc":')] },
  { op: 'post /a2a', name: 'batch', status: 400, request: () => ['/a2a', a2a([send([{ text: 'x' }])])] },
  {
    op: 'post /a2a',
    name: 'foreign Origin',
    status: 403,
    request: () => ['/a2a', a2a(send([{ text: 'x' }]), { origin: 'https://attacker.example' })],
  },
  { op: 'post /a2a', name: 'wrong method', status: 405, request: () => ['/a2a', { method: 'GET' }] },
  { op: 'post /a2a', name: 'over-size body', status: 413, request: () => ['/a2a', a2a(send([{ text: 'x'.repeat(70 * 1024) }]))] },
  { op: 'post /a2a', name: 'wrong content type', status: 415, request: () => ['/a2a', a2a('x', { 'content-type': 'text/plain' })] },

  {
    op: 'post /oauth/register',
    name: 'public client',
    status: 201,
    request: () => [
      '/oauth/register',
      jsonPost({
        grant_types: ['authorization_code'],
        redirect_uris: ['https://agent.example/cb'],
        token_endpoint_auth_method: 'none',
        client_uri: 'https://agent.example',
      }),
    ],
  },
  {
    op: 'post /oauth/register',
    name: 'unsupported grant',
    status: 400,
    request: () => ['/oauth/register', jsonPost({ grant_types: ['password'] })],
  },
  {
    op: 'post /oauth/register',
    name: 'no redirect URI for authorization_code',
    status: 400,
    request: () => ['/oauth/register', jsonPost({ grant_types: ['authorization_code'] })],
  },
  { op: 'post /oauth/register', name: 'malformed JSON', status: 400, request: () => ['/oauth/register', jsonPost('{')] },
  {
    op: 'post /oauth/register',
    name: 'wrong content type',
    status: 400,
    request: () => ['/oauth/register', formPost({ client_name: 'x' })],
  },
  { op: 'post /oauth/register', name: 'wrong method', status: 405, request: () => ['/oauth/register'] },

  {
    op: 'post /oauth/token',
    name: 'client_credentials with Basic',
    status: 200,
    request: () => [
      '/oauth/token',
      formPost({ grant_type: 'client_credentials' }, { authorization: basic(state.confidential.id, state.confidential.secret) }),
    ],
  },
  {
    op: 'post /oauth/token',
    name: 'client_secret_post',
    status: 200,
    request: () => [
      '/oauth/token',
      formPost({ grant_type: 'client_credentials', client_id: state.post.id, client_secret: state.post.secret }),
    ],
  },
  {
    op: 'post /oauth/token',
    name: 'wrong secret (Basic)',
    status: 401,
    request: () => [
      '/oauth/token',
      formPost({ grant_type: 'client_credentials' }, { authorization: basic(state.confidential.id, 'wrong') }),
    ],
  },
  {
    op: 'post /oauth/token',
    name: 'no client authentication',
    status: 401,
    request: () => ['/oauth/token', formPost({ grant_type: 'client_credentials' })],
  },
  {
    op: 'post /oauth/token',
    name: 'unsupported grant',
    status: 400,
    request: () => ['/oauth/token', formPost({ grant_type: 'password' })],
  },
  {
    op: 'post /oauth/token',
    name: 'unknown scope',
    status: 400,
    request: () => [
      '/oauth/token',
      formPost(
        { grant_type: 'client_credentials', scope: 'admin' },
        { authorization: basic(state.confidential.id, state.confidential.secret) },
      ),
    ],
  },
  { op: 'post /oauth/token', name: 'grant_type missing', status: 400, request: () => ['/oauth/token', formPost({})] },
  {
    op: 'post /oauth/token',
    name: 'JSON body',
    status: 400,
    request: () => ['/oauth/token', jsonPost({ grant_type: 'client_credentials' })],
  },
  {
    op: 'post /oauth/token',
    name: 'over-size body',
    status: 413,
    request: () => ['/oauth/token', formPost({ grant_type: 'client_credentials', pad: 'x'.repeat(17 * 1024) })],
  },
  { op: 'post /oauth/token', name: 'wrong method', status: 405, request: () => ['/oauth/token'] },

  {
    op: 'post /oauth/revoke',
    name: 'revoke a token',
    status: 200,
    request: () => [
      '/oauth/revoke',
      formPost({ token: state.exportToken }, { authorization: basic(state.confidential.id, state.confidential.secret) }),
    ],
  },
  {
    op: 'post /oauth/revoke',
    name: 'revoke garbage',
    status: 200,
    request: () => ['/oauth/revoke', formPost({ token: 'garbage', client_id: state.post.id, client_secret: state.post.secret })],
  },
  {
    op: 'post /oauth/revoke',
    name: 'token missing',
    status: 400,
    request: () => ['/oauth/revoke', formPost({}, { authorization: basic(state.confidential.id, state.confidential.secret) })],
  },
  {
    op: 'post /oauth/revoke',
    name: 'wrong secret',
    status: 401,
    request: () => ['/oauth/revoke', formPost({ token: 'x', client_id: state.post.id, client_secret: 'wrong' })],
  },
  { op: 'post /oauth/revoke', name: 'wrong method', status: 405, request: () => ['/oauth/revoke', { method: 'PUT' }] },

  { op: 'get /oauth/authorize', name: 'consent page', status: 200, request: () => [authorizeQuery()] },
  { op: 'get /oauth/authorize', name: 'unknown client', status: 400, request: () => [authorizeQuery({ client_id: 'agt_unknown' })] },
  {
    op: 'get /oauth/authorize',
    name: 'no PKCE: back to the client',
    status: 303,
    request: () => [authorizeQuery({ code_challenge: null })],
  },
  { op: 'get /oauth/authorize', name: 'too long', status: 414, request: () => [authorizeQuery({ state: 'x'.repeat(9000) })] },
  { op: 'get /oauth/authorize', name: 'wrong method', status: 405, request: () => [authorizeQuery(), { method: 'PUT' }] },
  {
    op: 'post /oauth/authorize',
    name: 'not form-encoded',
    status: 415,
    request: () => ['/oauth/authorize', jsonPost({ decision: 'approve' })],
  },
  { op: 'post /oauth/authorize', name: 'no decision', status: 400, request: () => ['/oauth/authorize', formPost({ ticket: 'x' })] },
  {
    op: 'post /oauth/authorize',
    name: 'foreign origin',
    status: 403,
    request: () => ['/oauth/authorize', formPost({ ticket: 'x', decision: 'approve' }, { origin: 'https://attacker.example' })],
  },

  {
    op: 'post /oauth/claim',
    name: 'start',
    status: 200,
    request: () => ['/oauth/claim', jsonPost({ claim_token: state.confidential.claimToken })],
  },
  {
    op: 'post /oauth/claim',
    name: 'unknown claim token',
    status: 400,
    request: () => ['/oauth/claim', jsonPost({ claim_token: `clm_${'a'.repeat(32)}` })],
  },
  { op: 'post /oauth/claim', name: 'neither field', status: 400, request: () => ['/oauth/claim', jsonPost({})] },
  { op: 'post /oauth/claim', name: 'wrong content type', status: 415, request: () => ['/oauth/claim', formPost({ claim_token: 'clm_x' })] },
  { op: 'post /oauth/claim', name: 'wrong method', status: 405, request: () => ['/oauth/claim', { method: 'GET' }] },

  { op: 'get /oauth/jwks.json', name: 'key set', status: 200, request: () => ['/oauth/jwks.json'] },
  { op: 'get /oauth/jwks.json', name: 'wrong method', status: 405, request: () => ['/oauth/jwks.json', { method: 'POST' }] },
  {
    op: 'get /.well-known/oauth-authorization-server',
    name: 'metadata',
    status: 200,
    request: () => ['/.well-known/oauth-authorization-server'],
  },
  {
    op: 'get /.well-known/oauth-authorization-server',
    name: 'wrong method',
    status: 405,
    request: () => ['/.well-known/oauth-authorization-server', { method: 'DELETE' }],
  },
  {
    op: 'get /.well-known/openid-configuration',
    name: 'metadata at the OpenID discovery path',
    status: 200,
    request: () => ['/.well-known/openid-configuration'],
  },
  {
    op: 'get /.well-known/openid-configuration',
    name: 'wrong method',
    status: 405,
    request: () => ['/.well-known/openid-configuration', { method: 'DELETE' }],
  },
  {
    op: 'get /.well-known/oauth-protected-resource',
    name: 'site metadata',
    status: 200,
    request: () => ['/.well-known/oauth-protected-resource'],
  },
  {
    op: 'get /.well-known/oauth-protected-resource/mcp',
    name: 'MCP metadata',
    status: 200,
    request: () => ['/.well-known/oauth-protected-resource/mcp'],
  },
  {
    op: 'get /.well-known/oauth-protected-resource/mcp',
    name: 'wrong method',
    status: 405,
    request: () => ['/.well-known/oauth-protected-resource/mcp', { method: 'POST' }],
  },
];

async function runCase(c: Case): Promise<Response> {
  const [path, init] = c.request();
  const res = await site.fetchPath(path, { redirect: 'manual', ...init });
  expect(res.status, `${c.op}: ${c.name}`).toBe(c.status);
  const [method, documentedPath] = c.op.split(' ') as [string, string];
  await expectDocumented(method, documentedPath, res.clone());
  return res;
}

describe('live answers match /openapi.json', () => {
  it('the table covers every documented operation', () => {
    const documented = Object.entries(doc.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method} ${path}`));
    const covered = new Set(CASES.map((c) => c.op));
    expect(documented.filter((op) => !covered.has(op))).toEqual([]);
    expect([...covered].filter((op) => !documented.includes(op))).toEqual([]);
  });

  it.each(CASES.map((c) => [`${c.op}: ${c.name} → ${c.status}`, c] as const))('%s', async (_, c) => {
    await runCase(c);
  });

  it('claim polling: too fast is slow_down (400), then pending (200)', async () => {
    const started = (await (await site.fetchPath('/oauth/claim', jsonPost({ claim_token: state.confidential.claimToken }))).json()) as Json;
    state.claimAttemptId = String(started.claim_attempt_id);
    const poll = (): Case => ({
      op: 'post /oauth/claim',
      name: 'poll',
      status: 0,
      request: () => ['/oauth/claim', jsonPost({ claim_attempt_id: state.claimAttemptId })],
    });
    await runCase({ ...poll(), status: 400 });
    await new Promise((resolve) => setTimeout(resolve, 5_100)); // CLAIM_POLL_INTERVAL_SECONDS
    await runCase({ ...poll(), status: 200 });
  });

  it('metadata revalidation: If-None-Match with the ETag is 304', async () => {
    const first = await runCase({ op: 'get /oauth/jwks.json', name: 'key set', status: 200, request: () => ['/oauth/jwks.json'] });
    const etag = first.headers.get('etag')!;
    await runCase({
      op: 'get /oauth/jwks.json',
      name: 'not modified',
      status: 304,
      request: () => ['/oauth/jwks.json', { headers: { 'if-none-match': etag } }],
    });
  });

  it('the schemas can fail: a different shape is refused', () => {
    const searchOk = validator(pointer('paths', '/api/search', 'get', 'responses', '200', 'content', 'application/json', 'schema'));
    expect(searchOk([{ slug: 'x' }])).toBe(false);
    const problem400 = validator(
      pointer('paths', '/api/search', 'get', 'responses', '400', 'content', 'application/problem+json', 'schema'),
    );
    expect(problem400({ type: 'about:blank', title: 'Method Not Allowed', status: 405, detail: 'Use GET.' })).toBe(false);
    const tokenError = validator(pointer('paths', '/oauth/token', 'post', 'responses', '401', 'content', 'application/json', 'schema'));
    expect(tokenError({ error: 'invalid_grant', error_description: 'x' })).toBe(false);
    const mcpUnauthorized = validator(pointer('paths', '/mcp', 'post', 'responses', '401', 'content', 'application/json', 'schema'));
    expect(mcpUnauthorized({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'ok' }] } })).toBe(false);
    const revoked = validator(pointer('paths', '/oauth/revoke', 'post', 'responses', '200', 'content', 'application/json', 'schema'));
    expect(revoked({ revoked: true })).toBe(false);
  });
});
