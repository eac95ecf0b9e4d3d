/**
 * The AI-industry feed behind `GET /api/tweets`: refreshed hourly from a configurable upstream
 * (X API v2 or a JSON feed), validated item by item, stored in Blobs; a build-time snapshot
 * answers when nothing is stored.
 * @module
 */
import * as v from 'valibot';
import { PUBLIC_API_CORS } from '../kernel/cors.ts';
import type { EdgeOptions } from '../kernel/handler.ts';
import { PROBLEM_ERRORS } from '../kernel/problem.ts';
import { requireMethod } from '../kernel/respond.ts';
import type { Store } from '../kernel/store.ts';

const IsoDateTime = v.pipe(v.string(), v.isoTimestamp('expected an ISO 8601 timestamp'));

export const TweetSchema = v.object({
  id: v.pipe(v.string(), v.minLength(1), v.maxLength(64)),
  text: v.pipe(v.string(), v.minLength(1), v.maxLength(4000)),
  author: v.object({
    name: v.pipe(v.string(), v.minLength(1), v.maxLength(100)),
    username: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_]{1,50}$/, 'expected a handle of letters, digits and _')),
  }),
  created_at: IsoDateTime,
  url: v.pipe(v.string(), v.url(), v.startsWith('https://', 'expected an https URL')),
  metrics: v.optional(
    v.pipe(
      v.object({
        likes: v.pipe(v.number(), v.integer(), v.minValue(0)),
        reposts: v.pipe(v.number(), v.integer(), v.minValue(0)),
        replies: v.pipe(v.number(), v.integer(), v.minValue(0)),
      }),
      v.description('Engagement counts when the upstream gives them.'),
    ),
  ),
});
export type Tweet = v.InferOutput<typeof TweetSchema>;

export const TweetFeedSchema = v.object({
  updated_at: v.pipe(IsoDateTime, v.description('When the feed was last refreshed.')),
  tweets: v.pipe(v.array(TweetSchema), v.maxLength(200), v.description('Newest first.')),
});
export type TweetFeed = v.InferOutput<typeof TweetFeedSchema>;

/** Items kept in the feed. */
export const FEED_MAX_ITEMS = 50;
/** How long the CDN may serve a feed before asking again; the feed changes at most hourly. */
export const TWEETS_CACHE_CONTROL = 'public, max-age=60, s-maxage=300, stale-while-revalidate=600';
/** Upper bound on an upstream request, so a hung upstream cannot hold the scheduled function. */
export const DEFAULT_UPSTREAM_TIMEOUT_MS = 5000;
/** Blobs keys in the `tweets` store. */
export const FEED_KEY = 'feed';
export const LAST_REFRESH_KEY = 'last-refresh';

export type UpstreamConfig =
  | { kind: 'x'; bearerToken: string; query: string; apiBase: string; timeoutMs: number }
  | { kind: 'json'; url: string; timeoutMs: number };

/** Why an upstream refresh did not produce a feed. */
export class UpstreamError extends Error {
  readonly reason: 'timeout' | 'http_error' | 'invalid_payload' | 'network' | 'empty';
  constructor(reason: UpstreamError['reason'], message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'UpstreamError';
    this.reason = reason;
  }
}

/** Newest first, at most FEED_MAX_ITEMS, no duplicate ids. */
export function normaliseTweets(tweets: readonly Tweet[]): Tweet[] {
  const seen = new Set<string>();
  return [...tweets]
    .sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at) || (a.id < b.id ? 1 : -1))
    .filter((t) => !seen.has(t.id) && Boolean(seen.add(t.id)))
    .slice(0, FEED_MAX_ITEMS);
}

/** Parses a feed document (the build snapshot or a stored feed); throws with the first problem. */
export function parseTweetFeed(input: unknown): TweetFeed {
  const result = v.safeParse(TweetFeedSchema, input);
  if (!result.success) {
    const issue = result.issues[0];
    throw new Error(`Invalid tweet feed at ${v.getDotPath(issue) ?? '(root)'}: ${issue.message}`);
  }
  return { updated_at: result.output.updated_at, tweets: normaliseTweets(result.output.tweets) };
}

const XResponseSchema = v.object({
  data: v.optional(
    v.array(
      v.object({
        id: v.string(),
        text: v.string(),
        author_id: v.string(),
        created_at: v.string(),
        public_metrics: v.optional(v.object({ like_count: v.number(), retweet_count: v.number(), reply_count: v.number() })),
      }),
    ),
  ),
  includes: v.optional(v.object({ users: v.optional(v.array(v.object({ id: v.string(), name: v.string(), username: v.string() }))) })),
});

/** A JSON feed upstream: this API's own shape (`{tweets: [...]}`) or JSON Feed 1.1 (`{items: [...]}`). */
const JsonFeedItemsSchema = v.object({
  items: v.array(
    v.object({
      id: v.string(),
      url: v.string(),
      content_text: v.string(),
      date_published: v.string(),
      authors: v.pipe(
        v.array(v.object({ name: v.string(), username: v.optional(v.string()), url: v.optional(v.string()) })),
        v.minLength(1),
      ),
    }),
  ),
});

function validated(items: unknown[]): Tweet[] {
  const tweets: Tweet[] = [];
  for (const [i, item] of items.entries()) {
    const result = v.safeParse(TweetSchema, item);
    if (!result.success)
      throw new UpstreamError('invalid_payload', `item ${i}: ${v.getDotPath(result.issues[0]) ?? ''} ${result.issues[0].message}`.trim());
    tweets.push(result.output);
  }
  return tweets;
}

/** Maps a parsed upstream payload to tweets; every item must validate. */
export function tweetsFromPayload(kind: UpstreamConfig['kind'], payload: unknown): Tweet[] {
  if (kind === 'x') {
    const parsed = v.safeParse(XResponseSchema, payload);
    if (!parsed.success) throw new UpstreamError('invalid_payload', `X API response: ${parsed.issues[0].message}`);
    const users = new Map((parsed.output.includes?.users ?? []).map((u) => [u.id, u]));
    return validated(
      (parsed.output.data ?? []).map((t) => {
        const user = users.get(t.author_id);
        return {
          id: t.id,
          text: t.text,
          author: { name: user?.name ?? '', username: user?.username ?? '' },
          created_at: t.created_at,
          url: `https://x.com/${user?.username ?? 'i'}/status/${t.id}`,
          ...(t.public_metrics
            ? {
                metrics: {
                  likes: t.public_metrics.like_count,
                  reposts: t.public_metrics.retweet_count,
                  replies: t.public_metrics.reply_count,
                },
              }
            : {}),
        };
      }),
    );
  }
  if (payload && typeof payload === 'object' && 'tweets' in payload && Array.isArray((payload as { tweets: unknown }).tweets)) {
    return validated((payload as { tweets: unknown[] }).tweets);
  }
  const feed = v.safeParse(JsonFeedItemsSchema, payload);
  if (!feed.success) throw new UpstreamError('invalid_payload', 'expected {"tweets": [...]} or a JSON Feed with "items"');
  return validated(
    feed.output.items.map((item) => ({
      id: item.id,
      text: item.content_text,
      author: { name: item.authors[0]!.name, username: item.authors[0]!.username ?? '' },
      created_at: item.date_published,
      url: item.url,
    })),
  );
}

/** Fetches and validates the upstream feed. Throws {@link UpstreamError}. */
export async function fetchUpstream(config: UpstreamConfig, fetchImpl: typeof fetch): Promise<Tweet[]> {
  const url =
    config.kind === 'x'
      ? `${config.apiBase}/2/tweets/search/recent?${new URLSearchParams({
          query: config.query,
          max_results: '50',
          'tweet.fields': 'created_at,public_metrics,author_id',
          expansions: 'author_id',
          'user.fields': 'name,username',
        })}`
      : config.url;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (config.kind === 'x') headers.authorization = `Bearer ${config.bearerToken}`;
  let res: Response;
  try {
    res = await fetchImpl(url, { headers, signal: AbortSignal.timeout(config.timeoutMs) });
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    throw new UpstreamError(timedOut ? 'timeout' : 'network', timedOut ? `no answer within ${config.timeoutMs} ms` : 'request failed', {
      cause: error,
    });
  }
  if (!res.ok) throw new UpstreamError('http_error', `upstream answered ${res.status}`);
  let payload: unknown;
  try {
    payload = await res.json();
  } catch (error) {
    throw new UpstreamError(error instanceof Error && error.name === 'TimeoutError' ? 'timeout' : 'invalid_payload', 'body is not JSON', {
      cause: error,
    });
  }
  const tweets = tweetsFromPayload(config.kind, payload);
  if (tweets.length === 0) throw new UpstreamError('empty', 'upstream returned no items');
  return tweets;
}

export interface RefreshOutcome {
  status: 'updated' | 'kept';
  reason?: UpstreamError['reason'] | 'not_configured';
  detail?: string;
  count: number;
  at: string;
}

/**
 * The scheduled refresh: fetch, validate, store. Any failure, including an empty list, keeps the
 * last good feed; the outcome is recorded under `last-refresh` for operators.
 */
export async function refreshTweetFeed(deps: {
  store: Store;
  upstream: UpstreamConfig | null;
  fetch: typeof fetch;
  now: () => number;
}): Promise<RefreshOutcome> {
  const at = new Date(deps.now()).toISOString();
  let outcome: RefreshOutcome;
  if (!deps.upstream) {
    outcome = { status: 'kept', reason: 'not_configured', count: 0, at };
  } else {
    try {
      const tweets = normaliseTweets(await fetchUpstream(deps.upstream, deps.fetch));
      await deps.store.set<TweetFeed>(FEED_KEY, { updated_at: at, tweets });
      outcome = { status: 'updated', count: tweets.length, at };
    } catch (error) {
      if (!(error instanceof UpstreamError)) throw error;
      outcome = { status: 'kept', reason: error.reason, detail: error.message, count: 0, at };
    }
  }
  await deps.store.set(LAST_REFRESH_KEY, outcome);
  return outcome;
}

/** The edge of `GET /api/tweets`: problem JSON, open to every origin. */
export const TWEETS_EDGE: EdgeOptions = { errors: PROBLEM_ERRORS, cors: PUBLIC_API_CORS };

/** `GET /api/tweets`: the stored feed, else the build snapshot. */
export async function handleTweets(req: Request, deps: { store: Store; snapshot: TweetFeed }): Promise<Response> {
  requireMethod(req, ['GET']);
  const stored = await deps.store.get<unknown>(FEED_KEY);
  let feed = deps.snapshot;
  let source = 'snapshot';
  if (stored) {
    const parsed = v.safeParse(TweetFeedSchema, stored.value);
    // A stored feed that no longer validates (schema change) is ignored rather than served.
    if (parsed.success) {
      feed = { updated_at: parsed.output.updated_at, tweets: normaliseTweets(parsed.output.tweets) };
      source = 'live';
    }
  }
  const body = JSON.stringify(feed);
  return new Response(body, {
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': TWEETS_CACHE_CONTROL,
      'x-feed-source': source,
    },
  });
}
