/**
 * The A2A agent over real HTTP, driven by `@a2a-js/sdk`'s client at its default settings: it
 * resolves the agent card from the origin (`/.well-known/agent-card.json`), picks the JSON-RPC
 * interface the card names and sends `A2A-Version: 1.0` itself. On the test origin's port because
 * the card names absolute URLs of the test build (http://localhost:8899/a2a).
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
    ]);
    expect(card).not.toHaveProperty('url');
    expect(card.skills.map((s) => s.id)).toEqual(['search_articles', 'get_article', 'list_products', 'get_company_info']);
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

describe('the A2A endpoint, raw HTTP', () => {
  it('GET is 405 with Allow; a request without A2A-Version (0.3) is VersionNotSupported; the card revalidates', async () => {
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
