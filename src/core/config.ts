/**
 * Runtime configuration of the functions, parsed once from environment variables. Core code
 * never reads `process.env`; the function adapters pass the variables in.
 * @module
 */
import * as v from 'valibot';
import { DEFAULT_UPSTREAM_TIMEOUT_MS, type UpstreamConfig } from './tweets/tweets.ts';
import { IP_DIGEST_SECRET_MIN_LENGTH } from './kernel/ip-digest.ts';
import { ACCESS_TOKEN_TTL_SECONDS } from './oauth/config.ts';
import { type SigningJwk, SigningJwksSchema } from './web-bot-auth/keys.ts';

/** Bounds of OAUTH_ACCESS_TOKEN_TTL_SECONDS: short enough to test refresh, at most a day. */
const ACCESS_TOKEN_TTL_RANGE_SECONDS = { min: 2, max: 86_400 } as const;

const optionalUrl = v.optional(v.pipe(v.string(), v.trim(), v.url()));

const EnvSchema = v.object({
  TWEETS_SOURCE: v.optional(v.picklist(['x', 'json', 'none']), 'none'),
  TWEETS_X_BEARER_TOKEN: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1))),
  TWEETS_X_QUERY: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1)), '("LLM" OR "AI agents" OR "MCP") lang:en -is:retweet'),
  TWEETS_X_API_BASE: v.optional(v.pipe(v.string(), v.url()), 'https://api.x.com'),
  TWEETS_FEED_URL: optionalUrl,
  TWEETS_TIMEOUT_MS: v.optional(v.pipe(v.string(), v.transform(Number), v.integer(), v.minValue(100), v.maxValue(30_000)), String(DEFAULT_UPSTREAM_TIMEOUT_MS)),
  CONTACT_WEBHOOK_URL: optionalUrl,
  IP_DIGEST_SECRET: v.optional(v.pipe(v.string(), v.trim(), v.minLength(IP_DIGEST_SECRET_MIN_LENGTH, `must be at least ${IP_DIGEST_SECRET_MIN_LENGTH} characters`))),
  OAUTH_ACCESS_TOKEN_TTL_SECONDS: v.optional(
    v.pipe(v.string(), v.transform(Number), v.integer('must be an integer'), v.minValue(ACCESS_TOKEN_TTL_RANGE_SECONDS.min), v.maxValue(ACCESS_TOKEN_TTL_RANGE_SECONDS.max)),
    String(ACCESS_TOKEN_TTL_SECONDS),
  ),
  /** A JWKS of private Ed25519 JWKs, newest first, as `npm run keys -- --web-bot-auth` prints it. */
  WEB_BOT_AUTH_SIGNING_KEYS: v.optional(v.pipe(v.string(), v.trim(), v.parseJson(undefined, 'must be JSON (the value `npm run keys -- --web-bot-auth` prints)'), SigningJwksSchema)),
});

export interface RuntimeConfig {
  tweets: UpstreamConfig | null;
  contactWebhookUrl: string | null;
  /** Operator-set key for IP digests; null: generated and kept in Blobs. */
  ipDigestSecret: string | null;
  accessTokenTtlSeconds: number;
  /** Keys that sign outbound requests (Web Bot Auth); null: generated and kept in Blobs. */
  webBotAuthKeys: SigningJwk[] | null;
}

/** Environment variables this module reads (README, "Configuration"). */
export type RuntimeEnv = Partial<Record<keyof v.InferInput<typeof EnvSchema>, string>>;

/**
 * Parses the environment. Unset variables take their defaults; empty strings count as unset.
 * @throws Error naming the variable and the problem, so a misconfigured deploy fails loudly.
 */
export function parseRuntimeConfig(env: Record<string, string | undefined>): RuntimeConfig {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const result = v.safeParse(EnvSchema, cleaned);
  if (!result.success) {
    const issue = result.issues[0];
    throw new Error(`Invalid environment variable ${v.getDotPath(issue) ?? ''}: ${issue.message}`);
  }
  const e = result.output;
  let tweets: UpstreamConfig | null = null;
  if (e.TWEETS_SOURCE === 'x') {
    if (!e.TWEETS_X_BEARER_TOKEN) throw new Error('TWEETS_SOURCE=x needs TWEETS_X_BEARER_TOKEN');
    tweets = { kind: 'x', bearerToken: e.TWEETS_X_BEARER_TOKEN, query: e.TWEETS_X_QUERY, apiBase: e.TWEETS_X_API_BASE.replace(/\/$/, ''), timeoutMs: e.TWEETS_TIMEOUT_MS };
  } else if (e.TWEETS_SOURCE === 'json') {
    if (!e.TWEETS_FEED_URL) throw new Error('TWEETS_SOURCE=json needs TWEETS_FEED_URL');
    tweets = { kind: 'json', url: e.TWEETS_FEED_URL, timeoutMs: e.TWEETS_TIMEOUT_MS };
  }
  return { tweets, contactWebhookUrl: e.CONTACT_WEBHOOK_URL ?? null, ipDigestSecret: e.IP_DIGEST_SECRET ?? null, accessTokenTtlSeconds: e.OAUTH_ACCESS_TOKEN_TTL_SECONDS, webBotAuthKeys: e.WEB_BOT_AUTH_SIGNING_KEYS?.keys ?? null };
}
