/**
 * POST /a2a in-process (Request → Response): transport rejections, A2A-Version, SendMessage
 * answers (search, article, skills by data part), every error the spec names for a server that
 * keeps no tasks, and the SDK client's reading of those errors.
 */
import { AgentCard, GetTaskRequest, SendMessageRequest } from '@a2a-js/sdk';
import { ClientFactory, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { TaskNotFoundError, VersionNotSupportedError } from '@a2a-js/sdk/errors';
import { describe, expect, it } from 'vitest';
import { FIXTURE_DEPS, FIXTURE_ORIGIN, memoryFeedbackSink } from '../../../tests/support/core-fixtures.ts';
import { memoryStore } from '../kernel/memory-store.ts';
import { agentCard } from './card.ts';
import type { ParsedJson } from '../../../tests/support/parsed-json.ts';
import { edge } from '../kernel/handler.ts';
import { a2aEdge, handleA2a, MAX_BODY_BYTES, type A2aDeps } from './server.ts';

const CARD_JSON = agentCard({
  origin: FIXTURE_ORIGIN,
  version: '9.9.9',
  siteName: 'Acme AI',
  categorySlugs: ['rag', 'ai-agents'],
  exampleSlug: 'rag-chunking',
  exampleQuery: 'RAG',
});
const DEPS: A2aDeps = { ...FIXTURE_DEPS, card: AgentCard.fromJSON(CARD_JSON) };
const A2A_URL = `${FIXTURE_ORIGIN}/a2a`;
/** A request to /a2a through its edge (OPTIONS and CORS are the edge's: kernel/handler.ts). */
const serveA2a = (req: Request, deps: A2aDeps): Promise<Response> => edge((r: Request) => handleA2a(r, deps), a2aEdge(deps))(req);
const V1 = { 'content-type': 'application/json', 'a2a-version': '1.0' };

function post(body: unknown, headers: Record<string, string> = V1, url = A2A_URL): Promise<Response> {
  return serveA2a(new Request(url, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) }), DEPS);
}
const rpc = (method: string, params?: unknown, id: number | string = 1) => ({
  jsonrpc: '2.0',
  id,
  method,
  ...(params === undefined ? {} : { params }),
});
const userMessage = (parts: unknown[], extra: Record<string, unknown> = {}) => ({
  message: { messageId: 'm-1', role: 'ROLE_USER', parts, ...extra },
});
const sendText = (text: string) => rpc('SendMessage', userMessage([{ text }]));

async function json(res: Response): Promise<ParsedJson> {
  return JSON.parse(await res.text());
}

/** The reply Message of a successful SendMessage. */
async function reply(
  res: Response,
): Promise<{ role: string; contextId: string; taskId?: string; parts: { text?: string; data?: ParsedJson; mediaType: string }[] }> {
  expect(res.status).toBe(200);
  const body = await json(res);
  expect(body.error).toBeUndefined();
  expect(Object.keys(body.result)).toEqual(['message']);
  return body.result.message;
}

describe('transport', () => {
  it.each(['GET', 'PUT', 'DELETE'])('%s -> 405 with Allow and a JSON-RPC error', async (method) => {
    const res = await serveA2a(new Request(A2A_URL, { method }), DEPS);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST, OPTIONS');
    expect((await json(res)).error.code).toBe(-32600);
  });

  it('OPTIONS is a CORS preflight naming A2A-Version; the site origin is reflected, and so is another on a public https site', async () => {
    const pre = await serveA2a(
      new Request(A2A_URL, { method: 'OPTIONS', headers: { origin: FIXTURE_ORIGIN, 'access-control-request-method': 'POST' } }),
      DEPS,
    );
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe(FIXTURE_ORIGIN);
    expect(pre.headers.get('access-control-allow-headers')).toContain('A2A-Version');
    const ok = await post(sendText('RAG'), { ...V1, origin: FIXTURE_ORIGIN });
    expect(ok.headers.get('access-control-allow-origin')).toBe(FIXTURE_ORIGIN);
    const agent = await post(sendText('RAG'), { ...V1, origin: 'https://agent.example' });
    expect(agent.status).toBe(200);
    expect(agent.headers.get('access-control-allow-origin')).toBe('https://agent.example');
    const strict = { ...DEPS, browserOrigins: { kind: 'listed' as const, origins: [] } };
    const foreign = await serveA2a(
      new Request(A2A_URL, { method: 'POST', headers: { ...V1, origin: 'https://evil.example' }, body: JSON.stringify(sendText('RAG')) }),
      strict,
    );
    expect(foreign.status).toBe(403);
    expect((await json(foreign)).error.code).toBe(-32600);
  });

  it.each([
    ['malformed JSON', '{"jsonrpc":', 400, -32700],
    ['a batch', [rpc('SendMessage')], 400, -32600],
    ['not JSON-RPC 2.0', { id: 1, method: 'SendMessage' }, 400, -32600],
    ['a response object', { jsonrpc: '2.0', id: 1, result: {} }, 400, -32600],
    ['params not an object', { jsonrpc: '2.0', id: 1, method: 'SendMessage', params: [1] }, 400, -32600],
  ])('%s -> %i %i, never a 500', async (_name, body, status, code) => {
    const res = await post(body);
    expect(res.status).toBe(status);
    expect((await json(res)).error.code).toBe(code);
  });

  it('other content types -> 415 with Accept-Post; an oversize body -> 413', async () => {
    const wrongType = await post(sendText('x'), { 'content-type': 'text/plain', 'a2a-version': '1.0' });
    expect(wrongType.status).toBe(415);
    expect(wrongType.headers.get('accept-post')).toBe('application/json');
    const big = await post(rpc('SendMessage', userMessage([{ text: 'x'.repeat(MAX_BODY_BYTES) }])));
    expect(big.status).toBe(413);
  });

  it('a request with a null id (JSON-RPC 2.0 allows it, so does the SDK) is answered with id null, in 1.0 and 0.3', async () => {
    const modern = await post({ ...sendText('RAG'), id: null });
    expect((await json(modern)).id).toBeNull();
    const legacy = await post(
      {
        jsonrpc: '2.0',
        id: null,
        method: 'message/send',
        params: { message: { kind: 'message', messageId: 'm-1', role: 'user', parts: [{ kind: 'text', text: 'RAG' }] } },
      },
      { 'content-type': 'application/json' },
    );
    const answer = await json(legacy);
    expect(answer.id).toBeNull();
    expect(answer.result.kind).toBe('message');
  });

  it('a notification (no id) is accepted and not answered', async () => {
    const res = await post({ jsonrpc: '2.0', method: 'SendMessage', params: userMessage([{ text: 'RAG' }]) });
    expect(res.status).toBe(202);
    expect(await res.text()).toBe('');
  });
});

describe('A2A-Version', () => {
  it.each([
    ['absent (means 0.3)', { 'content-type': 'application/json' }, /No A2A-Version header.*0\.3.*A2A-Version: 1\.0/],
    [
      '0.3',
      { 'content-type': 'application/json', 'a2a-version': '0.3' },
      /"0\.3" asks for A2A 0\.3, but SendMessage is an A2A 1\.0 method: send A2A-Version: 1\.0/,
    ],
    ['2.0', { 'content-type': 'application/json', 'a2a-version': '2.0' }, /"2\.0" is not supported/],
    ['garbage', { 'content-type': 'application/json', 'a2a-version': 'latest' }, /"latest" is not supported/],
  ])('%s -> VersionNotSupportedError -32009 echoing the id', async (_name, headers, message) => {
    const res = await post(sendText('RAG'), headers);
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.id).toBe(1);
    expect(body.error.code).toBe(-32009);
    expect(body.error.message).toMatch(message);
    expect(body.error.data[0]).toMatchObject({
      '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
      reason: 'VERSION_NOT_SUPPORTED',
      domain: 'a2a-protocol.org',
    });
  });

  it('1.0 with a patch number, or as the query parameter, is 1.0', async () => {
    await reply(await post(sendText('RAG'), { 'content-type': 'application/json', 'a2a-version': '1.0.7' }));
    await reply(await post(sendText('RAG'), { 'content-type': 'application/json' }, `${A2A_URL}?A2A-Version=1.0`));
  });
});

describe('A2A 0.3 at the same endpoint (the SDK compat layer)', () => {
  const legacyMessage = (parts: unknown[], extra: Record<string, unknown> = {}) => ({
    message: { kind: 'message', messageId: 'm-03', role: 'user', parts, ...extra },
  });
  const NO_VERSION = { 'content-type': 'application/json' };

  it.each([
    ['no A2A-Version (0.3 by A2A §3.6.2)', NO_VERSION],
    ['A2A-Version: 0.3', { ...NO_VERSION, 'a2a-version': '0.3' }],
  ])('message/send with %s answers in 0.3 shapes: kind message, role agent, text and data parts', async (_name, headers) => {
    const res = await post(rpc('message/send', legacyMessage([{ kind: 'text', text: 'Which products does Acme AI offer?' }])), headers);
    expect(res.status).toBe(200);
    expect(res.headers.get('vary')).toContain('A2A-Version');
    const { result } = await json(res);
    expect(result).toMatchObject({ kind: 'message', role: 'agent' });
    expect(result.parts[0]).toMatchObject({ kind: 'text' });
    expect(result.parts[0].text).toMatch(/\(Answered by the skill list_products: [^)]+\.\)$/);
    expect(result.parts[1]).toMatchObject({ kind: 'data', data: { skill: 'list_products' } });
  });

  it('a 0.3 data part calls a skill; a 0.3 file part is refused -32005; a bad message -32602, in 0.3 error shapes', async () => {
    const data = await json(
      await post(rpc('message/send', legacyMessage([{ kind: 'data', data: { skill: 'get_company_info' } }])), NO_VERSION),
    );
    expect(data.result.parts[1].data.skill).toBe('get_company_info');
    const file = await json(
      await post(
        rpc('message/send', legacyMessage([{ kind: 'file', file: { uri: 'https://x.example/a.pdf', mimeType: 'application/pdf' } }])),
        NO_VERSION,
      ),
    );
    expect(file.error.code).toBe(-32005);
    const empty = await json(await post(rpc('message/send', legacyMessage([])), NO_VERSION));
    expect(empty.error.code).toBe(-32602);
    expect(Array.isArray(empty.error.data)).toBe(false);
  });

  it('0.3 methods the agent does not offer: tasks/get -32001, message/stream -32004; a 0.3 method under A2A-Version: 1.0 is -32601', async () => {
    expect((await json(await post(rpc('tasks/get', { id: 't-1' }), NO_VERSION))).error.code).toBe(-32001);
    const stream = await post(rpc('message/stream', legacyMessage([{ kind: 'text', text: 'RAG' }])), NO_VERSION);
    expect((await json(stream)).error.code).toBe(-32004);
    expect((await json(await post(rpc('message/send', legacyMessage([{ kind: 'text', text: 'RAG' }]))))).error.code).toBe(-32601);
  });
});

describe('SendMessage', () => {
  it('a search query: a Message (not a Task) with markdown links to pages and twins, and the results as data', async () => {
    const message = await reply(await post(sendText('chunking strategies')));
    expect(message.role).toBe('ROLE_AGENT');
    expect(message.contextId).toMatch(/\S/);
    expect(message.taskId).toBeUndefined();
    const [text, data] = message.parts;
    expect(text!.mediaType).toBe('text/markdown');
    expect(text!.text).toContain(
      `[RAG chunking strategies](${FIXTURE_ORIGIN}/blog/rag-chunking) (markdown: ${FIXTURE_ORIGIN}/blog/rag-chunking.md)`,
    );
    expect(data!.mediaType).toBe('application/json');
    expect(data!.data.skill).toBe('search_articles');
    expect(data!.data.result.results[0].slug).toBe('rag-chunking');
    expect(data!.data.links[0]).toEqual({
      title: 'RAG chunking strategies',
      url: `${FIXTURE_ORIGIN}/blog/rag-chunking`,
      markdown_url: `${FIXTURE_ORIGIN}/blog/rag-chunking.md`,
    });
  });

  it('a question longer than a query is searched for by its words, its last clause included', async () => {
    const question =
      'We are a regional bank that has to keep every prompt inside our own data centre for regulatory reasons, and we ' +
      'are comparing approaches for retrieval over our policy documents. Which chunking strategies work best for that?';
    expect(question.length).toBeGreaterThan(200);
    const message = await reply(await post(sendText(question)));
    const data = message.parts[1]!.data;
    expect(data.skill).toBe('search_articles');
    expect(data.result.query.length).toBeLessThanOrEqual(200);
    expect(data.result.query).toMatch(/chunking strategies work best$/);
    expect(data.result.results[0].slug).toBe('rag-chunking');
  });

  it('keeps the caller contextId', async () => {
    const message = await reply(await post(rpc('SendMessage', userMessage([{ text: 'RAG' }], { contextId: 'ctx-42' }))));
    expect(message.contextId).toBe('ctx-42');
  });

  it('no hit: says so and points at llms.txt', async () => {
    const message = await reply(await post(sendText('zzzqqq')));
    expect(message.parts[0]!.text).toContain(`${FIXTURE_ORIGIN}/llms.txt`);
    expect(message.parts[1]!.data.result.results).toEqual([]);
  });

  it.each([
    ['its page URL', `Please read ${FIXTURE_ORIGIN}/blog/rag-chunking.`],
    ['its markdown twin URL', `${FIXTURE_ORIGIN}/blog/rag-chunking.md`],
    ['a root-relative path', '/blog/rag-chunking'],
    ['its slug', '`rag-chunking`'],
  ])('an article by %s: the markdown body with its page and twin links; metadata as data', async (_name, text) => {
    const message = await reply(await post(sendText(text)));
    const [body, data] = message.parts;
    expect(body!.text).toMatch(/^# RAG chunking strategies\n/);
    expect(body!.text).toContain(`- Markdown: ${FIXTURE_ORIGIN}/blog/rag-chunking.md`);
    expect(body!.text).toContain('Split documents by structure for better recall.');
    expect(data!.data.skill).toBe('get_article');
    expect(data!.data.result.markdown).toBeUndefined();
    expect(data!.data.links).toEqual([
      {
        title: 'RAG chunking strategies',
        url: `${FIXTURE_ORIGIN}/blog/rag-chunking`,
        markdown_url: `${FIXTURE_ORIGIN}/blog/rag-chunking.md`,
      },
    ]);
  });

  it('a URL of another origin is searched, not read', async () => {
    const message = await reply(await post(sendText('https://other.example/blog/rag-chunking')));
    expect(message.parts[1]!.data.skill).toBe('search_articles');
  });

  it('a data part calls any public skill by id, with its arguments', async () => {
    const products = await reply(await post(rpc('SendMessage', userMessage([{ data: { skill: 'list_products' } }]))));
    expect(products.parts[0]!.text).toMatch(/^- \[LLM Platform\]\(https:\/\/acme-ai\.example\/products\/platform\)/);
    expect(products.parts[1]!.data.result.products).toHaveLength(2);
    const company = await reply(
      await post(rpc('SendMessage', userMessage([{ data: { skill: 'get_company_info' }, mediaType: 'application/json' }]))),
    );
    expect(company.parts[0]!.text).toMatch(/^# Acme AI/);
    const search = await reply(
      await post(
        rpc(
          'SendMessage',
          userMessage([
            { text: 'ignored when a data part names a skill' },
            { data: { skill: 'search_articles', arguments: { query: 'vector', limit: 1 } } },
          ]),
        ),
      ),
    );
    expect(search.parts[1]!.data.result.results).toHaveLength(1);
    expect(search.parts[1]!.data.result.results[0].slug).toBe('vector-search');
  });

  it.each([
    ['Which products does Acme AI offer?', 'list_products', /^- \[LLM Platform\]/],
    ['艾克米智能有哪些产品？', 'list_products', /^- \[LLM Platform\]/],
    ['How do I contact Acme AI sales?', 'get_company_info', /sales@acme-ai\.example/],
    ['怎么联系艾克米智能的销售？', 'get_company_info', /sales@acme-ai\.example/],
    ['vector search', 'search_articles', /vector-search/],
    ['搜索 RAG', 'search_articles', /rag-chunking/],
  ])('plain text reaches every skill: %s -> %s, and the reply says which skill answered', async (text, skill, content) => {
    const message = await reply(await post(sendText(text)));
    expect(message.parts[1]!.data.skill).toBe(skill);
    expect(message.parts[0]!.text).toMatch(content);
    expect(message.parts[0]!.text).toMatch(new RegExp(`\\n\\n\\(Answered by the skill ${skill}: [^)]+\\.\\)$`));
  });

  it('a text part that is exactly a {"skill": ...} object is read as the data part it spells', async () => {
    const products = await reply(await post(sendText('{"skill": "list_products"}')));
    expect(products.parts[1]!.data.skill).toBe('list_products');
    const search = await reply(await post(sendText(' {"skill":"search_articles","arguments":{"query":"vector","limit":1}} ')));
    expect(search.parts[1]!.data.result.results.map((r: { slug: string }) => r.slug)).toEqual(['vector-search']);
    // A bad call is refused as the data part would be, not searched for its JSON.
    const unknown = await json(await post(sendText('{"skill":"export_article_index"}')));
    expect(unknown.error.code).toBe(-32602);
    expect(unknown.error.message).toContain('It needs an OAuth token');
    const badArgs = await json(await post(sendText('{"skill":"search_articles","arguments":{"limit":1}}')));
    expect(badArgs.error.code).toBe(-32602);
    // JSON that is not a skill call, and text around JSON, stay text.
    expect((await reply(await post(sendText('{"query": "vector"}')))).parts[1]!.data.skill).toBe('search_articles');
    expect((await reply(await post(sendText('call {"skill":"list_products"}')))).parts[1]!.data.skill).toBe('search_articles');
  });

  it('an unknown slug is an answer the caller can act on, not an error', async () => {
    const message = await reply(
      await post(rpc('SendMessage', userMessage([{ data: { skill: 'get_article', arguments: { slug: 'nope' } } }]))),
    );
    expect(message.parts[0]!.text).toContain('search_articles');
    expect(message.parts[1]!.data).toMatchObject({ skill: 'get_article', error: expect.stringContaining('nope') });
  });

  it('acceptedOutputModes: text/plain only gets the text as text/plain and no data part', async () => {
    const message = await reply(
      await post(rpc('SendMessage', { ...userMessage([{ text: 'RAG' }]), configuration: { acceptedOutputModes: ['text/plain'] } })),
    );
    expect(message.parts.map((p) => p.mediaType)).toEqual(['text/plain']);
  });

  it.each([
    ['no message', {}, 'message'],
    ['no messageId', { message: { role: 'ROLE_USER', parts: [{ text: 'x' }] } }, 'message.messageId'],
    ['agent role', userMessage([{ text: 'x' }], { role: 'ROLE_AGENT' }), 'message.role'],
    ['no parts', userMessage([]), 'message.parts'],
    ['a part with two contents', userMessage([{ text: 'x', data: {} }]), 'message.parts.0'],
    ['only blank text', userMessage([{ text: '   ' }]), 'message.parts'],
    ['a query over 200 characters', userMessage([{ text: 'q'.repeat(201) }]), 'message.parts.query'],
    ['two data parts', userMessage([{ data: { skill: 'list_products' } }, { data: { skill: 'list_products' } }]), 'message.parts'],
    ['a data part without skill', userMessage([{ data: { query: 'x' } }]), 'message.parts.0.data.skill'],
    ['an unknown skill', userMessage([{ data: { skill: 'delete_everything' } }]), 'message.parts.0.data.skill'],
    ['the OAuth-only export tool', userMessage([{ data: { skill: 'export_article_index' } }]), 'message.parts.0.data.skill'],
    [
      'bad skill arguments',
      userMessage([{ data: { skill: 'search_articles', arguments: { query: 'x', limit: 500 } } }]),
      'message.parts.0.data.arguments.limit',
    ],
  ])('%s -> -32602 with ErrorInfo and a BadRequest naming %s', async (_name, params, field) => {
    const res = await post(rpc('SendMessage', params, 'req-7'));
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.id).toBe('req-7');
    expect(body.error.code).toBe(-32602);
    expect(body.error.data[0]).toMatchObject({ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'INVALID_PARAMS' });
    expect(body.error.data[1]['@type']).toBe('type.googleapis.com/google.rpc.BadRequest');
    expect(body.error.data[1].fieldViolations.map((v: { field: string }) => v.field)).toContain(field);
  });

  it.each([
    ['a file part (url)', [{ url: 'https://x.example/a.pdf', mediaType: 'application/pdf' }]],
    ['a file part (raw)', [{ raw: 'aGk=' }]],
    ['text of another media type', [{ text: '<p>x</p>', mediaType: 'text/html' }]],
    ['data of another media type', [{ data: { skill: 'list_products' }, mediaType: 'application/xml' }]],
  ])('%s -> ContentTypeNotSupportedError -32005', async (_name, parts) => {
    const body = await json(await post(rpc('SendMessage', userMessage(parts))));
    expect(body.error.code).toBe(-32005);
    expect(body.error.data[0].reason).toBe('CONTENT_TYPE_NOT_SUPPORTED');
  });

  it('a message naming a task -> TaskNotFoundError -32001 (no task is kept)', async () => {
    const body = await json(await post(rpc('SendMessage', userMessage([{ text: 'RAG' }], { taskId: 'task-1' }))));
    expect(body.error.code).toBe(-32001);
  });
});

describe('submit_feedback over A2A', () => {
  const withFeedback = () => {
    const store = memoryStore();
    const deps: A2aDeps = {
      ...DEPS,
      feedback: memoryFeedbackSink('a2a', store),
    };
    const send = (text: string) =>
      serveA2a(new Request(A2A_URL, { method: 'POST', headers: V1, body: JSON.stringify(sendText(text)) }), deps);
    return { store, send };
  };

  it('text that starts as feedback stores it under the page it names, with its kind and the rest as the text', async () => {
    const { store, send } = withFeedback();
    const message = await reply(await send(`Feedback on ${FIXTURE_ORIGIN}/blog/vector-search/: the recall figures are outdated`));
    expect(message.parts[1]!.data).toMatchObject({
      skill: 'submit_feedback',
      result: { status: 'stored', page: '/blog/vector-search', kind: 'outdated' },
    });
    const [key] = await store.list('feedback/');
    expect((await store.get<{ text: string; channel: string }>(key!))?.value).toMatchObject({
      text: 'the recall figures are outdated',
      channel: 'a2a',
    });
    const zh = await reply(await send('反馈：/blog/agent-tools-zh缺少示例代码'));
    expect(zh.parts[1]!.data).toMatchObject({ result: { page: '/blog/agent-tools-zh', kind: 'missing' } });
  });

  it('feedback naming no page is -32602 saying how; a path that is no page is the skill refusing, nothing stored', async () => {
    const { store, send } = withFeedback();
    const body = await json(await send('Feedback: the gateway article is wrong about quotas'));
    expect(body.error).toMatchObject({ code: -32602, message: expect.stringContaining('Say which page the feedback is about') });
    const refused = await reply(await send('Feedback on /wp-admin/: broken'));
    expect(refused.parts[1]!.data).toMatchObject({ skill: 'submit_feedback', error: expect.stringContaining('page must be a page of') });
    expect(await store.list()).toEqual([]);
  });

  it('a search about feedback stays a search', async () => {
    const { store, send } = withFeedback();
    expect((await reply(await send('feedback loops in agents'))).parts[1]!.data).toMatchObject({ skill: 'search_articles' });
    expect(await store.list()).toEqual([]);
  });
});

describe('tasks are not kept; optional capabilities are refused as the spec says', () => {
  it.each([
    ['GetTask', { id: 'task-1' }, -32001],
    ['CancelTask', { id: 'task-1' }, -32001],
    ['SendStreamingMessage', userMessage([{ text: 'RAG' }]), -32004],
    ['SubscribeToTask', { id: 'task-1' }, -32004],
    ['GetExtendedAgentCard', {}, -32004],
    ['CreateTaskPushNotificationConfig', { taskId: 'task-1', url: 'https://hook.example/a2a' }, -32003],
    ['GetTaskPushNotificationConfig', { taskId: 'task-1', id: 'c' }, -32003],
    ['ListTaskPushNotificationConfigs', { taskId: 'task-1' }, -32003],
    ['DeleteTaskPushNotificationConfig', { taskId: 'task-1', id: 'c' }, -32003],
    ['tasks/get', { id: 'task-1' }, -32601],
  ])('%s -> %i as JSON, HTTP 200', async (method, params, code) => {
    const res = await post(rpc(method, params, 5));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    const body = await json(res);
    expect(body).toMatchObject({ jsonrpc: '2.0', id: 5, error: { code } });
  });

  it('ListTasks -> the empty page (A2A §3.1.4 has no error for it); a bad pageSize -> -32602', async () => {
    const body = await json(await post(rpc('ListTasks', { pageSize: 10 })));
    expect(body.result).toEqual({ tasks: [], nextPageToken: '', pageSize: 10, totalSize: 0 });
    expect((await json(await post(rpc('ListTasks', { pageSize: 1000 })))).error.code).toBe(-32602);
  });
});

describe('the SDK client, in-process', () => {
  const fetchImpl: typeof fetch = async (input, init) => {
    const req = new Request(input, init);
    if (new URL(req.url).pathname === '/.well-known/agent-card.json') return Response.json(CARD_JSON);
    return serveA2a(req, DEPS);
  };
  const client = () => new ClientFactory({ transports: [new JsonRpcTransportFactory({ fetchImpl })] }).createFromAgentCard(DEPS.card);
  const say = (text: string) =>
    SendMessageRequest.fromJSON({ message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }] } });

  it('reads the answer as a Message and the refusals as the SDK error classes', async () => {
    const c = await client();
    const answer = await c.sendMessage(say('vector search'));
    expect('messageId' in answer && answer.parts[0]!.content?.$case).toBe('text');
    await expect(c.getTask(GetTaskRequest.fromJSON({ id: 'task-1' }))).rejects.toBeInstanceOf(TaskNotFoundError);
    await expect(c.getAgentCard()).resolves.toMatchObject({ name: 'Acme AI site' });
    // The client falls back to SendMessage when the card declares no streaming.
    const streamed = await c.sendMessageStream(say('RAG')).next();
    expect(streamed.value).toMatchObject({ payload: { $case: 'message', value: { role: 2 } } });
  });

  it('a client that sends no A2A-Version (a 0.3 client) gets VersionNotSupportedError', async () => {
    const withoutVersion: typeof fetch = (input, init) => {
      const headers = new Headers(init?.headers);
      headers.delete('a2a-version');
      return fetchImpl(input, { ...init, headers });
    };
    const c = await new ClientFactory({ transports: [new JsonRpcTransportFactory({ fetchImpl: withoutVersion })] }).createFromAgentCard(
      DEPS.card,
    );
    await expect(c.sendMessage(say('x'))).rejects.toBeInstanceOf(VersionNotSupportedError);
  });
});

describe('failures inside the SDK', () => {
  it('an internal error the SDK caught is rethrown, so the endpoint logs it and answers through its own writer', async () => {
    const { dispatch } = await import('./sdk-fetch-adapter.ts');
    const { ServerCallContext } = await import('@a2a-js/sdk/server');
    const failing = {
      handle: async () => ({ jsonrpc: '2.0', id: 7, error: { code: -32603, message: 'Maximum call stack size exceeded' } }),
    } as unknown as Parameters<typeof dispatch>[0];
    await expect(dispatch(failing, { id: 7, method: 'SendMessage', params: {} }, new ServerCallContext())).rejects.toThrow(
      'A2A handler failed: Maximum call stack size exceeded',
    );
  });

  it('a message nesting metadata thousands deep is a 400 -32600 (it was an unlogged 500)', async () => {
    const logged: unknown[] = [];
    const deep = `${'{"a":'.repeat(4000)}1${'}'.repeat(4000)}`;
    const body = JSON.stringify(sendText('hello')).replace(/\}$/, `,"metadata":${deep}}`);
    const res = await serveA2a(new Request(A2A_URL, { method: 'POST', headers: V1, body }), {
      ...DEPS,
      log: (...args) => logged.push(args),
    });
    expect(res.status).toBe(400);
    expect(((await json(res)) as { error: { code: number } }).error.code).toBe(-32600);
    expect(logged).toEqual([]);
  });
});
