/**
 * The A2A agent over real HTTP, driven by both lines of `@a2a-js/sdk` at their default settings:
 * the 1.x client resolves the agent card from the origin (`/.well-known/agent-card.json`), picks the
 * JSON-RPC interface the card names and sends `A2A-Version: 1.0` itself; the 0.3 line (0.3.14,
 * installed as `a2a-sdk-03`) reads the card's top-level `url` (`A2AClient.fromCardUrl`) or its
 * `preferredTransport` (`ClientFactory`) and calls `message/send` without the header. On the test
 * origin's port because the card names absolute URLs of the test build (http://localhost:8899/a2a).
 */
import { performance } from 'node:perf_hooks';
import {
  CancelTaskRequest,
  GetTaskRequest,
  ListTasksRequest,
  Role,
  SendMessageRequest,
  TaskPushNotificationConfig,
  type Message,
} from '@a2a-js/sdk';
import { ClientFactory, type Client } from '@a2a-js/sdk/client';
import { PushNotificationNotSupportedError, TaskNotFoundError } from '@a2a-js/sdk/errors';
import { beforeAll, describe, expect, it } from 'vitest';
import { A2AClient as A2AClient03, ClientFactory as ClientFactory03 } from 'a2a-sdk-03/client';
import type { Message as Message03 } from 'a2a-sdk-03';
import { useServedSite } from '../support/browser.ts';

const site = useServedSite();
let client: Client;

beforeAll(async () => {
  client = await new ClientFactory().createFromUrl(site.origin);
});

const ask = (text: string): Promise<Message> =>
  client.sendMessage(
    SendMessageRequest.fromJSON({ message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }] } }),
  ) as Promise<Message>;

/** The text and the data of a reply. */
function partsOf(message: Message): {
  text: string;
  data: { skill: string; links: { title: string; url: string; markdown_url?: string }[]; result: Record<string, unknown> };
} {
  const text = message.parts.find((p) => p.content?.$case === 'text')?.content?.value as string;
  const data = message.parts.find((p) => p.content?.$case === 'data')?.content?.value;
  return { text, data };
}

describe('the A2A agent, through the SDK client', () => {
  it('resolves the v1.0 card from the origin: its JSON-RPC interface, no top-level url', async () => {
    const card = await client.getAgentCard();
    expect(card.supportedInterfaces).toEqual([
      expect.objectContaining({ url: `${site.origin}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }),
      expect.objectContaining({ url: `${site.origin}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '0.3' }),
    ]);
    expect(card).not.toHaveProperty('url');
    expect(card.skills.map((s) => s.id)).toEqual([
      'search_articles',
      'get_article',
      'list_products',
      'get_company_info',
      'submit_feedback',
    ]);
    expect(client.protocolVersion).toBe('1.0');
  });

  it('answers a search with a Message whose links lead to the article and its markdown twin', async () => {
    const started = performance.now();
    const reply = await ask('agent orchestration');
    const elapsedMs = performance.now() - started;
    expect(reply.role).toBe(Role.ROLE_AGENT);
    expect(reply.taskId).toBe('');
    const { text, data } = partsOf(reply);
    expect(data.skill).toBe('search_articles');
    const first = data.links[0]!;
    expect(first.url.startsWith(`${site.origin}/`)).toBe(true);
    expect(text).toContain(`[${first.title}](${first.url})`);
    const twin = await fetch(first.markdown_url!);
    expect(twin.status).toBe(200);
    expect(twin.headers.get('content-type')).toMatch(/^text\/markdown/);
    expect(await twin.text()).toContain(first.title);
    // A warm local runtime answers in a few milliseconds; this only catches a hang or a pathological path.
    expect(elapsedMs).toBeLessThan(5_000);
  });

  it('answers an article request (its page URL) with the article as markdown', async () => {
    const found = partsOf(await ask('reliable agents'));
    const link = found.data.links[0]!;
    const { text, data } = partsOf(await ask(link.url));
    expect(data.skill).toBe('get_article');
    expect(text.startsWith(`# ${link.title}\n`)).toBe(true);
    expect(text).toContain(`- Markdown: ${link.markdown_url}`);
    expect(text.length).toBeGreaterThan(500);
  });

  it.each([
    ['Which products does Acme AI offer?', 'list_products'],
    ['艾克米智能有哪些产品？', 'list_products'],
    ['How do I contact Acme AI sales?', 'get_company_info'],
    ['怎么联系艾克米智能的销售？', 'get_company_info'],
    ['agent orchestration', 'search_articles'],
  ])('plain text reaches its skill: %s -> %s, named in the reply', async (question, skill) => {
    const { text, data } = partsOf(await ask(question));
    expect(data.skill).toBe(skill);
    expect(text).toMatch(new RegExp(`\\(Answered by the skill ${skill}: [^)]+\\.\\)$`));
  });

  it('every example on the card, sent as text, is answered by its skill', async () => {
    for (const skill of (await client.getAgentCard()).skills)
      for (const example of skill.examples) expect(partsOf(await ask(example)).data.skill, example).toBe(skill.id);
  });

  it('keeps no task: GetTask and CancelTask are TaskNotFound, ListTasks is empty, push configs are not supported', async () => {
    await expect(client.getTask(GetTaskRequest.fromJSON({ id: 'task-1' }))).rejects.toBeInstanceOf(TaskNotFoundError);
    await expect(client.cancelTask(CancelTaskRequest.fromJSON({ id: 'task-1' }))).rejects.toBeInstanceOf(TaskNotFoundError);
    expect((await client.listTasks(ListTasksRequest.fromJSON({}))).tasks).toEqual([]);
    // The client reads the card's capabilities and refuses before sending (the server's -32003 is tested in-process).
    expect(() =>
      client.createTaskPushNotificationConfig(TaskPushNotificationConfig.fromJSON({ taskId: 'task-1', url: 'https://hook.example/a2a' })),
    ).toThrow(PushNotificationNotSupportedError);
  });

  it('streams nothing: the client falls back to SendMessage, as the card declares no streaming', async () => {
    const events = [];
    for await (const event of client.sendMessageStream(
      SendMessageRequest.fromJSON({ message: { messageId: 'm-s', role: 'ROLE_USER', parts: [{ text: 'RAG' }] } }),
    ))
      events.push(event);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ payload: { $case: 'message' } });
  });
});

describe('the A2A agent, through the 0.3 SDK line at its defaults', () => {
  const ask03 = (text: string): Message03 & { parts: { kind: string; text?: string; data?: Record<string, unknown> }[] } =>
    ({ message: { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text }] } }) as never;

  it('A2AClient.fromCardUrl reads the top-level url of the card it is served and gets 0.3 answers', async () => {
    const client03 = await A2AClient03.fromCardUrl(`${site.origin}/.well-known/agent-card.json`);
    const card = await client03.getAgentCard();
    expect(card).toMatchObject({ url: `${site.origin}/a2a`, protocolVersion: '0.3', preferredTransport: 'JSONRPC' });
    const answer = await client03.sendMessage(ask03('Which products does Acme AI offer?') as never);
    expect('error' in answer).toBe(false);
    const result = (
      answer as { result: { kind: string; role: string; parts: { kind: string; text?: string; data?: { skill: string } }[] } }
    ).result;
    expect(result).toMatchObject({ kind: 'message', role: 'agent' });
    expect(result.parts[1]).toMatchObject({ kind: 'data', data: { skill: 'list_products' } });
    expect(result.parts[0]!.text).toContain('(Answered by the skill list_products');
  });

  it('ClientFactory finds the JSON-RPC transport and sends message/send; tasks are not kept', async () => {
    const client03 = await new ClientFactory03().createFromUrl(site.origin);
    const reply = (await client03.sendMessage(ask03('How do I contact Acme AI sales?') as never)) as {
      kind: string;
      parts: { kind: string; data?: { skill: string } }[];
    };
    expect(reply.kind).toBe('message');
    expect(reply.parts[1]!.data!.skill).toBe('get_company_info');
    await expect(client03.getTask({ id: 'task-1' })).rejects.toThrow();
  });
});

describe('the A2A endpoint, raw HTTP', () => {
  it('GET is 405 with Allow; a 1.0 method without A2A-Version (0.3) is VersionNotSupported; the card revalidates', async () => {
    const get = await fetch(`${site.origin}/a2a`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST, OPTIONS');
    const noVersion = await fetch(`${site.origin}/a2a`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'SendMessage',
        params: { message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'x' }] } },
      }),
    });
    expect(((await noVersion.json()) as { error: { code: number } }).error.code).toBe(-32009);
    const card = await fetch(`${site.origin}/.well-known/agent-card.json`);
    expect(card.headers.get('access-control-allow-origin')).toBe('*');
    expect(card.headers.get('cache-control')).toMatch(/max-age=\d+/);
    const again = await fetch(`${site.origin}/.well-known/agent-card.json`, { headers: { 'if-none-match': card.headers.get('etag')! } });
    expect(again.status).toBe(304);
  });
});
