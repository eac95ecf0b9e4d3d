import { beforeEach, describe, expect, it } from 'vitest';
import { useBlobs } from '../../../tests/support/blobs.ts';
import { sendJson, useFakeUpstream } from '../../../tests/support/fake-upstream.ts';
import {
  FEED_KEY,
  handleTweets,
  LAST_REFRESH_KEY,
  parseTweetFeed,
  refreshTweetFeed,
  type TweetFeed,
  type UpstreamConfig,
} from './tweets.ts';

const blobs = useBlobs();
const upstream = useFakeUpstream();

const tweet = (id: string, created: string) => ({
  id,
  text: `post ${id}`,
  author: { name: 'Example', username: 'example_1' },
  created_at: created,
  url: `https://x.com/example_1/status/${id}`,
});
const snapshot: TweetFeed = parseTweetFeed({ updated_at: '2026-01-01T00:00:00Z', tweets: [tweet('1', '2026-01-01T00:00:00Z')] });
const jsonUpstream = (): UpstreamConfig => ({ kind: 'json', url: `${upstream.url}/feed.json`, timeoutMs: 300 });
let clock = Date.parse('2026-11-20T10:00:00Z');
const now = (): number => (clock += 1000);

async function served(store = blobs.store('tweets')): Promise<{ source: string | null; feed: TweetFeed }> {
  const res = await handleTweets(new Request('http://x/api/tweets'), { store, snapshot });
  return { source: res.headers.get('x-feed-source'), feed: await res.json() };
}

// Every test starts from an empty store and seeds what it needs: each stands alone, in any order.
beforeEach(async () => {
  const store = blobs.store('tweets');
  for (const key of await store.list()) await store.delete(key);
});

/** A feed stored by an earlier refresh. */
const storedFeed = (): TweetFeed => parseTweetFeed({ updated_at: '2026-11-02T00:00:00Z', tweets: [tweet('11', '2026-11-02T00:00:00Z')] });

describe('tweet feed refresh against a fake upstream on loopback', () => {
  it('serves the snapshot before any refresh', async () => {
    expect((await served()).source).toBe('snapshot');
  });

  it('stores a valid feed newest first, and serves it', async () => {
    upstream.respondWith((_req, _body, res) =>
      sendJson(res, 200, {
        tweets: [tweet('10', '2026-11-01T00:00:00Z'), tweet('11', '2026-11-02T00:00:00Z'), tweet('10', '2026-11-01T00:00:00Z')],
      }),
    );
    const outcome = await refreshTweetFeed({ store: blobs.store('tweets'), upstream: jsonUpstream(), fetch, now });
    expect(outcome).toMatchObject({ status: 'updated', count: 2 });
    const { source, feed } = await served();
    expect(source).toBe('live');
    expect(feed.tweets.map((t) => t.id)).toEqual(['11', '10']);
  });

  it.each([
    ['timeout', 'timeout', (res: import('node:http').ServerResponse) => setTimeout(() => sendJson(res, 200, { tweets: [] }), 1500)],
    ['5xx', 'http_error', (res: import('node:http').ServerResponse) => sendJson(res, 503, { error: 'down' })],
    ['malformed JSON', 'invalid_payload', (res: import('node:http').ServerResponse) => sendJson(res, 200, '{"tweets": [')],
    [
      'an invalid item',
      'invalid_payload',
      (res: import('node:http').ServerResponse) =>
        sendJson(res, 200, { tweets: [tweet('12', '2026-11-03T00:00:00Z'), { ...tweet('13', 'yesterday') }] }),
    ],
    ['wrong shape', 'invalid_payload', (res: import('node:http').ServerResponse) => sendJson(res, 200, { data: 'nope' })],
    ['an empty list', 'empty', (res: import('node:http').ServerResponse) => sendJson(res, 200, { tweets: [] })],
  ])('keeps the last good feed on %s', async (_name, reason, respond) => {
    const store = blobs.store('tweets');
    await store.set(FEED_KEY, storedFeed());
    const before = await store.get<TweetFeed>(FEED_KEY);
    upstream.respondWith((_req, _body, res) => respond(res));
    const outcome = await refreshTweetFeed({ store, upstream: jsonUpstream(), fetch, now });
    expect(outcome).toMatchObject({ status: 'kept', reason });
    expect((await store.get<TweetFeed>(FEED_KEY))!.value).toEqual(before!.value);
    expect((await store.get<{ reason: string }>(LAST_REFRESH_KEY))!.value.reason).toBe(reason);
    expect((await served()).source).toBe('live');
  });

  it('maps the X API v2 shape and sends the bearer token', async () => {
    upstream.respondWith((_req, _body, res) =>
      sendJson(res, 200, {
        data: [
          {
            id: '77',
            text: 'hello agents',
            author_id: 'u1',
            created_at: '2026-11-05T00:00:00.000Z',
            public_metrics: { like_count: 3, retweet_count: 1, reply_count: 0 },
          },
        ],
        includes: { users: [{ id: 'u1', name: 'Agent Person', username: 'agent_person' }] },
        meta: { result_count: 1 },
      }),
    );
    const store = blobs.store('tweets');
    const outcome = await refreshTweetFeed({
      store,
      upstream: { kind: 'x', bearerToken: 'secret-token', query: 'LLM', apiBase: upstream.url, timeoutMs: 1000 },
      fetch,
      now,
    });
    expect(outcome.status).toBe('updated');
    const last = upstream.requests.at(-1)!;
    expect(last.url).toMatch(/^\/2\/tweets\/search\/recent\?/);
    expect(last.headers.authorization).toBe('Bearer secret-token');
    expect((await served()).feed.tweets[0]).toEqual({
      id: '77',
      text: 'hello agents',
      author: { name: 'Agent Person', username: 'agent_person' },
      created_at: '2026-11-05T00:00:00.000Z',
      url: 'https://x.com/agent_person/status/77',
      metrics: { likes: 3, reposts: 1, replies: 0 },
    });
  });

  it('records not_configured when no upstream is set, and keeps serving', async () => {
    await blobs.store('tweets').set(FEED_KEY, storedFeed());
    const outcome = await refreshTweetFeed({ store: blobs.store('tweets'), upstream: null, fetch, now });
    expect(outcome).toMatchObject({ status: 'kept', reason: 'not_configured' });
    expect((await served()).feed.tweets.map((t) => t.id)).toEqual(['11']);
  });
});
