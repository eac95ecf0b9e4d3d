/**
 * The one environment schema: every variable the site reads, at build time (astro.config.mjs, the
 * content config, the build hook), in the functions, in the local runtime and in the operator
 * scripts, with its default and its check. Core code never reads `process.env`: each entry point
 * (the Astro config, a function adapter, a script) passes its environment record in and picks the
 * variables it uses, so a bad value fails there with a message naming the variable.
 * docs/configuration.md lists exactly these variables (config.test.ts checks both ways).
 * @module
 */
import * as v from 'valibot';
import { DEFAULT_UPSTREAM_TIMEOUT_MS, type UpstreamConfig } from './tweets/tweets.ts';
import { type BrowserOriginPolicy, parseBrowserOriginPolicy } from './kernel/browser-origin.ts';
import { IP_DIGEST_SECRET_MIN_LENGTH } from './kernel/ip-digest.ts';
import { DEFAULT_LOCAL_PORT, resolveOrigin } from './kernel/origin.ts';
import { ACCESS_TOKEN_TTL_SECONDS } from './oauth/config.ts';
import { METRICS_FLUSH_INTERVAL_MS } from './kernel/metrics.ts';
import { DEFAULT_READ_PER_SECOND } from './kernel/read-limit.ts';
import { OPS_SECRET_MIN_LENGTH } from './analytics/ops.ts';
import { parseKeyRecords } from './oauth/grants/keys.ts';
import { type SigningJwk, SigningJwksSchema } from './web-bot-auth/keys.ts';

/** Bounds of OAUTH_ACCESS_TOKEN_TTL_SECONDS: short enough to test refresh, at most a day. */
const ACCESS_TOKEN_TTL_RANGE_SECONDS = { min: 2, max: 86_400 } as const;

const optionalUrl = v.optional(v.pipe(v.string(), v.trim(), v.url('must be a URL')));
const optionalText = v.optional(v.pipe(v.string(), v.trim(), v.minLength(1)));
const folder = (fallback: string) => v.optional(v.pipe(v.string(), v.trim(), v.minLength(1)), fallback);

/** Valid when `parse` accepts the text; its error message becomes the issue. */
const parsedBy = (parse: (text: string) => unknown) =>
  v.rawCheck<string>(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    try {
      parse(dataset.value);
    } catch (error) {
      addIssue({ message: (error as Error).message });
    }
  });

export const EnvSchema = v.object({
  // The public origin (kernel/origin.ts resolveOrigin): SITE_URL, else Netlify's URL / DEPLOY_PRIME_URL by CONTEXT, else localhost:PORT.
  SITE_URL: optionalUrl,
  URL: optionalUrl,
  DEPLOY_PRIME_URL: optionalUrl,
  CONTEXT: optionalText,
  PORT: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.transform(Number),
      v.integer('must be a port number'),
      v.minValue(0, 'must be a port number (0: any free port)'),
      v.maxValue(65_535, 'must be a port number'),
    ),
    String(DEFAULT_LOCAL_PORT),
  ),
  // Build.
  CONTENT_DIR: folder('./content'),
  OG_IMAGES: v.optional(
    v.picklist(
      ['on-demand', 'build', 'off'],
      'must be on-demand (a card per page, drawn by a function on first request), build (every card drawn in the build) or off (one site-wide image)',
    ),
    'on-demand',
  ),
  SHOW_DRAFTS: v.optional(
    v.pipe(
      v.picklist(['0', '1'], 'must be 1 (build drafts) or 0'),
      v.transform((value) => value === '1'),
    ),
    '0',
  ),
  COMMIT_REF: optionalText,
  ASTRO_OUT_DIR: folder('./dist'),
  ASTRO_CACHE_DIR: folder('./node_modules/.astro'),
  GENERATED_DIR: folder('./generated'),
  DEPLOY_BLOBS_DIR: folder('./.netlify/v1/blobs/deploy'),
  // Functions.
  TWEETS_SOURCE: v.optional(v.picklist(['x', 'json', 'none'], 'must be x, json or none'), 'none'),
  TWEETS_X_BEARER_TOKEN: optionalText,
  // No default: what the feed is about is the site's own subject (docs/forking.md), so TWEETS_SOURCE=x needs it.
  TWEETS_X_QUERY: optionalText,
  TWEETS_X_API_BASE: v.optional(v.pipe(v.string(), v.url()), 'https://api.x.com'),
  TWEETS_FEED_URL: optionalUrl,
  TWEETS_TIMEOUT_MS: v.optional(
    v.pipe(v.string(), v.transform(Number), v.integer(), v.minValue(100), v.maxValue(30_000)),
    String(DEFAULT_UPSTREAM_TIMEOUT_MS),
  ),
  CONTACT_WEBHOOK_URL: optionalUrl,
  /** A Netlify build hook: the daily publish-scheduled function posts to it when a held-back entry's day has come. */
  BUILD_HOOK_URL: optionalUrl,
  /** Browser origins that may call /mcp and /a2a: auto, *, same-origin or a list (kernel/browser-origin.ts). */
  AGENT_BROWSER_ORIGINS: v.optional(v.pipe(v.string(), v.trim(), parsedBy(parseBrowserOriginPolicy)), 'auto'),
  IP_DIGEST_SECRET: v.optional(
    v.pipe(v.string(), v.trim(), v.minLength(IP_DIGEST_SECRET_MIN_LENGTH, `must be at least ${IP_DIGEST_SECRET_MIN_LENGTH} characters`)),
  ),
  OAUTH_ACCESS_TOKEN_TTL_SECONDS: v.optional(
    v.pipe(
      v.string(),
      v.transform(Number),
      v.integer('must be an integer'),
      v.minValue(ACCESS_TOKEN_TTL_RANGE_SECONDS.min),
      v.maxValue(ACCESS_TOKEN_TTL_RANGE_SECONDS.max),
    ),
    String(ACCESS_TOKEN_TTL_SECONDS),
  ),
  /** The operator secret of the /ops/ page (src/core/analytics/ops.ts); unset: the page refuses every sign-in. */
  OPS_SECRET: v.optional(
    v.pipe(v.string(), v.trim(), v.minLength(OPS_SECRET_MIN_LENGTH, `must be at least ${OPS_SECRET_MIN_LENGTH} characters`)),
  ),
  ANALYTICS_FLUSH_SECONDS: v.optional(
    v.pipe(v.string(), v.transform(Number), v.integer('must be an integer'), v.minValue(1), v.maxValue(3600)),
    String(METRICS_FLUSH_INTERVAL_MS / 1000),
  ),
  READ_LIMIT_PER_SECOND: v.optional(
    v.pipe(v.string(), v.transform(Number), v.integer('must be an integer'), v.minValue(0), v.maxValue(10_000)),
    String(DEFAULT_READ_PER_SECOND),
  ),
  /** A JSON array of key records, as `npm run keys` prints it; checked here, parsed where keys load. */
  OAUTH_SIGNING_KEYS: v.optional(v.pipe(v.string(), v.trim(), parsedBy(parseKeyRecords))),
  /** A JWKS of private Ed25519 JWKs, newest first, as `npm run keys -- --web-bot-auth` prints it. */
  WEB_BOT_AUTH_SIGNING_KEYS: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.parseJson(undefined, 'must be JSON (the value `npm run keys -- --web-bot-auth` prints)'),
      SigningJwksSchema,
    ),
  ),
  // The local runtime (`npm start`) and the operator scripts.
  HOST: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1)), 'localhost'),
  /** IPs and CIDR ranges, comma-separated; scripts/runtime/http.ts TrustedProxies checks each entry. */
  TRUSTED_PROXIES: optionalText,
  NETLIFY_LOCAL_BLOBS_DIR: optionalText,
  NETLIFY_SITE_ID: optionalText,
  NETLIFY_AUTH_TOKEN: optionalText,
});

/** Every variable the site reads. */
export type EnvName = keyof typeof EnvSchema.entries;
export const ENV_NAMES = Object.keys(EnvSchema.entries) as EnvName[];
/** The parsed variables (defaults applied, numbers and flags converted). */
export type Env = v.InferOutput<typeof EnvSchema>;

/** What each entry point reads. */
export const ORIGIN_VARIABLES = ['SITE_URL', 'URL', 'DEPLOY_PRIME_URL', 'CONTEXT', 'PORT'] as const satisfies readonly EnvName[];
export const BUILD_VARIABLES = [
  ...ORIGIN_VARIABLES,
  'CONTENT_DIR',
  'SHOW_DRAFTS',
  'OG_IMAGES',
  'COMMIT_REF',
  'ASTRO_OUT_DIR',
  'ASTRO_CACHE_DIR',
  'GENERATED_DIR',
  'DEPLOY_BLOBS_DIR',
] as const satisfies readonly EnvName[];
export const FUNCTION_VARIABLES = [
  'TWEETS_SOURCE',
  'TWEETS_X_BEARER_TOKEN',
  'TWEETS_X_QUERY',
  'TWEETS_X_API_BASE',
  'TWEETS_FEED_URL',
  'TWEETS_TIMEOUT_MS',
  'CONTACT_WEBHOOK_URL',
  'BUILD_HOOK_URL',
  'AGENT_BROWSER_ORIGINS',
  'IP_DIGEST_SECRET',
  'OAUTH_ACCESS_TOKEN_TTL_SECONDS',
  'OAUTH_SIGNING_KEYS',
  'WEB_BOT_AUTH_SIGNING_KEYS',
  'ANALYTICS_FLUSH_SECONDS',
  'READ_LIMIT_PER_SECOND',
  'OPS_SECRET',
] as const satisfies readonly EnvName[];
export const LOCAL_RUNTIME_VARIABLES = [
  ...ORIGIN_VARIABLES,
  'HOST',
  'TRUSTED_PROXIES',
  'NETLIFY_LOCAL_BLOBS_DIR',
] as const satisfies readonly EnvName[];

/**
 * Parses the named variables of `env` (only those: a build never fails on a function's variable,
 * nor a function on a build one). Unset variables take their defaults; empty strings count as unset.
 * @throws Error naming the variable and the problem, so a misconfigured deploy fails loudly.
 */
export function parseEnv<K extends EnvName>(env: Readonly<Record<string, string | undefined>>, names: readonly K[]): Pick<Env, K> {
  const cleaned = Object.fromEntries(names.flatMap((name) => (env[name] === undefined || env[name] === '' ? [] : [[name, env[name]]])));
  const result = v.safeParse(v.pick(EnvSchema, names as unknown as [K, ...K[]]), cleaned);
  if (!result.success) {
    const issue = result.issues[0];
    throw new Error(`Invalid environment variable ${v.getDotPath(issue) ?? ''}: ${issue.message}`);
  }
  return result.output as unknown as Pick<Env, K>;
}

/** Where each page's Open Graph image comes from (`OG_IMAGES`). */
export type OgImagesMode = 'on-demand' | 'build' | 'off';

/** What the build reads (astro.config.mjs, src/content.config.ts, src/astro/collection-catalog.ts, the build hook). */
export interface BuildConfig {
  origin: string;
  port: number;
  contentDir: string;
  showDrafts: boolean;
  /**
   * Each page's Open Graph image: `on-demand`, drawn by the og-image function on its first request
   * (the build draws only the site-wide one); `build`, every card drawn in the build (a fork without
   * functions); `off`, every page shows the site-wide image.
   */
  ogImages: OgImagesMode;
  /** The commit built; null: ask git. */
  commitRef: string | null;
  outDir: string;
  cacheDir: string;
  generatedDir: string;
  /** Where the build leaves the deploy-scoped blobs (the bodies) for Netlify's upload. */
  deployBlobsDir: string;
}

export function parseBuildConfig(env: Readonly<Record<string, string | undefined>>): BuildConfig {
  const e = parseEnv(env, BUILD_VARIABLES);
  return {
    origin: resolveOrigin({ ...e, PORT: String(e.PORT) }),
    port: e.PORT,
    contentDir: e.CONTENT_DIR,
    showDrafts: e.SHOW_DRAFTS,
    ogImages: e.OG_IMAGES,
    commitRef: e.COMMIT_REF ?? null,
    outDir: e.ASTRO_OUT_DIR,
    cacheDir: e.ASTRO_CACHE_DIR,
    generatedDir: e.GENERATED_DIR,
    deployBlobsDir: e.DEPLOY_BLOBS_DIR,
  };
}

/** What `npm start` reads besides the functions' variables. */
export interface LocalRuntimeConfig {
  origin: string;
  port: number;
  host: string;
  trustedProxies: string | null;
  /** Where local Blobs live; null: .netlify/blobs-serve. */
  blobsDir: string | null;
}

export function parseLocalRuntimeConfig(env: Readonly<Record<string, string | undefined>>): LocalRuntimeConfig {
  const e = parseEnv(env, LOCAL_RUNTIME_VARIABLES);
  return {
    origin: resolveOrigin({ ...e, PORT: String(e.PORT) }),
    port: e.PORT,
    host: e.HOST,
    trustedProxies: e.TRUSTED_PROXIES ?? null,
    blobsDir: e.NETLIFY_LOCAL_BLOBS_DIR ?? null,
  };
}

export interface RuntimeConfig {
  tweets: UpstreamConfig | null;
  contactWebhookUrl: string | null;
  /** The build hook publish-scheduled posts to (src/core/publish/scheduled-publish.ts); null: unset. */
  buildHookUrl: string | null;
  /** Operator-set key for IP digests; null: generated and kept in Blobs. */
  ipDigestSecret: string | null;
  accessTokenTtlSeconds: number;
  /** Keys that sign outbound requests (Web Bot Auth); null: generated and kept in Blobs. */
  webBotAuthKeys: SigningJwk[] | null;
  /** The OAUTH_SIGNING_KEYS value (checked); null: generated and kept in Blobs. */
  oauthSigningKeys: string | null;
  /** How often each instance writes its usage counters (kernel/metrics.ts). */
  analyticsFlushIntervalMs: number;
  /** Requests a second an anonymous network may keep up on the read endpoints (0: no limit; kernel/read-limit.ts). */
  readLimitPerSecond: number;
  /** The operator secret of /ops/; null: unset (every sign-in refused). */
  opsSecret: string | null;
  /** Which browser origins may call /mcp and /a2a (AGENT_BROWSER_ORIGINS). */
  browserOrigins: BrowserOriginPolicy;
}

/** Environment variables the functions read (docs/configuration.md). */
export type RuntimeEnv = Partial<Record<(typeof FUNCTION_VARIABLES)[number], string>>;

/**
 * Parses the functions' variables. Unset variables take their defaults; empty strings count as unset.
 * @throws Error naming the variable and the problem, so a misconfigured deploy fails loudly.
 */
export function parseRuntimeConfig(env: Readonly<Record<string, string | undefined>>): RuntimeConfig {
  const e = parseEnv(env, FUNCTION_VARIABLES);
  let tweets: UpstreamConfig | null = null;
  if (e.TWEETS_SOURCE === 'x') {
    if (!e.TWEETS_X_BEARER_TOKEN) throw new Error('TWEETS_SOURCE=x needs TWEETS_X_BEARER_TOKEN');
    if (!e.TWEETS_X_QUERY) throw new Error('TWEETS_SOURCE=x needs TWEETS_X_QUERY (the X recent-search query: what the feed is about)');
    tweets = {
      kind: 'x',
      bearerToken: e.TWEETS_X_BEARER_TOKEN,
      query: e.TWEETS_X_QUERY,
      apiBase: e.TWEETS_X_API_BASE.replace(/\/$/, ''),
      timeoutMs: e.TWEETS_TIMEOUT_MS,
    };
  } else if (e.TWEETS_SOURCE === 'json') {
    if (!e.TWEETS_FEED_URL) throw new Error('TWEETS_SOURCE=json needs TWEETS_FEED_URL');
    tweets = { kind: 'json', url: e.TWEETS_FEED_URL, timeoutMs: e.TWEETS_TIMEOUT_MS };
  }
  return {
    tweets,
    contactWebhookUrl: e.CONTACT_WEBHOOK_URL ?? null,
    buildHookUrl: e.BUILD_HOOK_URL ?? null,
    ipDigestSecret: e.IP_DIGEST_SECRET ?? null,
    accessTokenTtlSeconds: e.OAUTH_ACCESS_TOKEN_TTL_SECONDS,
    webBotAuthKeys: e.WEB_BOT_AUTH_SIGNING_KEYS?.keys ?? null,
    oauthSigningKeys: e.OAUTH_SIGNING_KEYS ?? null,
    analyticsFlushIntervalMs: e.ANALYTICS_FLUSH_SECONDS * 1000,
    readLimitPerSecond: e.READ_LIMIT_PER_SECOND,
    opsSecret: e.OPS_SECRET ?? null,
    browserOrigins: parseBrowserOriginPolicy(e.AGENT_BROWSER_ORIGINS),
  };
}
