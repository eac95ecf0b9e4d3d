/**
 * Usage counts without a write per request: each function or edge instance adds to counters in
 * memory and writes what it counted as one record, `raw/<UTC day>/<instance>/<sequence>` in the
 * `analytics` store: after its first request (so an instance that serves a few requests and is
 * recycled still counts) and then at most once per {@link METRICS_FLUSH_INTERVAL_MS}, after
 * answering a request (the edge hands the write to `context.waitUntil`). What an instance counted
 * since its last write is lost if the platform recycles it: at most one interval of one instance.
 * The roll-up (src/core/analytics/rollup.ts) merges the records into one per day and deletes them.
 *
 * Nothing that identifies a person is counted: counters are names (`mcp.tool.search_articles`),
 * user agents are reduced to a known family or `other` before they become a name, and a search
 * query keeps, besides its count, only a short keyed digest of each client network that asked it
 * (the network is held in memory until the write, then digested), so the roll-up can keep queries
 * several networks asked and drop the rest (and drops the digests).
 * @module
 */
import type { Store } from './store.ts';

/** An instance writes its counts at most this often. */
export const METRICS_FLUSH_INTERVAL_MS = 60_000;
/** The most distinct search queries one instance holds between flushes (a flood of unique queries cannot grow memory). */
export const MAX_QUERIES_PER_FLUSH = 500;
/** Longest query kept, in characters (longer ones are cut: a query is a few words). */
export const MAX_QUERY_CHARS = 100;
/** Characters of a network digest kept beside a query: enough to tell a handful of networks apart, too few to identify one. */
export const QUERY_NETWORK_DIGEST_CHARS = 8;
/** The most networks remembered per query (the roll-up needs only to know there were several). */
const MAX_NETWORKS_PER_QUERY = 16;

/** The most distinct counters one instance holds between flushes; past it, new names count as `counters.dropped`. */
export const MAX_COUNTERS_PER_FLUSH = 2000;

/** What one flush writes. */
export interface MetricsRecord {
  /** When the first count in it was made and when it was written (ms). */
  from_ms: number;
  to_ms: number;
  counts: Record<string, number>;
  /** Search queries: how often asked, how often with no result, and short digests of the networks that asked. */
  queries: Record<string, { n: number; zero: number; networks: string[] }>;
}

export const rawMetricsPrefix = (day: string): string => `raw/${day}/`;
const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** How a query is counted: trimmed, spaces folded, lower case (so "LLM Gateway" and "llm  gateway" are one). */
export function normalizeQuery(text: string): string {
  return text.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase().slice(0, MAX_QUERY_CHARS);
}

export interface MetricsOptions {
  store: () => Store;
  clock: () => number;
  /** Names this instance's records (a random id per instance). */
  instanceId: string;
  /**
   * The keyed digest of a client network (kernel/ip-digest.ts), applied at the write; a query keeps
   * its first characters. Absent (an instance that counts no queries): networks are not kept.
   */
  networkDigest?: (network: string) => Promise<string>;
  flushIntervalMs?: number;
  log?: (message: string) => void;
}

/** What a handler counts for the request it serves: names, and the search query it answered. */
export interface Usage {
  /** Adds `n` to the counter `name` (dotted: `family.kind.value`, from a fixed vocabulary: never a string a client chose). */
  count(name: string, n?: number): void;
  /** Counts a search query and whether it found anything (the client's network is already bound). */
  query(text: string, hits: number): void;
}

/**
 * `deps` with the request's {@link Usage}: a new object whose prototype is `deps`, so lazy getters
 * on it (the catalogue, the engine) stay lazy and nothing is copied per request.
 */
export function withUsage<T extends object>(deps: T, usage: Usage): T & { usage: Usage } {
  return Object.create(deps, { usage: { value: usage, enumerable: true } }) as T & { usage: Usage };
}

/** Counts nothing: the default where no instance counts (tests, scripts). */
export const NO_USAGE: Usage = { count() {}, query() {} };

/** The counters of one instance. */
export class Metrics {
  readonly #options: MetricsOptions;
  #counts = new Map<string, number>();
  #queries = new Map<string, QueryEntry>();
  #since: number | null = null;
  /** Never written yet: the first request's counts go out at once. */
  #lastFlushMs = Number.NEGATIVE_INFINITY;
  #sequence = 0;
  #flushing: Promise<void> | null = null;

  constructor(options: MetricsOptions) {
    this.#options = options;
  }

  /** The {@link Usage} of one request from `network` (kernel/ip-ranges.ts clientNetwork). */
  usage(network: string): Usage {
    return { count: (name, n) => this.count(name, n), query: (text, hits) => this.query(text, hits, network) };
  }

  /** Adds `n` to the counter `name` (dotted: `family.kind.value`). */
  count(name: string, n = 1): void {
    this.#since ??= this.#options.clock();
    // Names carrying a client's word (a verified agent's directory) are bounded with everything else.
    const counted = this.#counts.has(name) || this.#counts.size < MAX_COUNTERS_PER_FLUSH ? name : 'counters.dropped';
    this.#counts.set(counted, (this.#counts.get(counted) ?? 0) + n);
  }

  /** Counts a search query: its normalized text, whether it found nothing, and the client network that asked. */
  query(text: string, hits: number, network: string): void {
    const key = normalizeQuery(text);
    if (!key) return;
    let entry = this.#queries.get(key);
    if (!entry) {
      if (this.#queries.size >= MAX_QUERIES_PER_FLUSH) {
        this.count('search.query.dropped');
        return;
      }
      entry = { n: 0, zero: 0, networks: new Set() };
      this.#queries.set(key, entry);
    }
    this.#since ??= this.#options.clock();
    entry.n++;
    if (hits === 0) entry.zero++;
    if (entry.networks.size < MAX_NETWORKS_PER_QUERY) entry.networks.add(network);
  }

  /** Whether anything was counted since the last flush. */
  get pending(): boolean {
    return this.#counts.size > 0 || this.#queries.size > 0;
  }

  /**
   * Writes what was counted when the interval since the last write has passed (or `force`), else
   * does nothing: call it after every request (the cost is a clock read). Never throws: a failed
   * write is logged and its counts are kept for the next one.
   */
  flushIfDue(force = false): Promise<void> | undefined {
    const now = this.#options.clock();
    if (this.#flushing || !this.pending) return this.#flushing ?? undefined;
    if (!force && now - this.#lastFlushMs < (this.#options.flushIntervalMs ?? METRICS_FLUSH_INTERVAL_MS)) return undefined;
    this.#lastFlushMs = now;
    const counts = this.#counts;
    const queries = this.#queries;
    const since = this.#since ?? now;
    this.#counts = new Map();
    this.#queries = new Map();
    this.#since = null;
    // The day the record is written, not begun: a record never lands in a day the roll-up has completed.
    const key = `${rawMetricsPrefix(utcDay(now))}${this.#options.instanceId}/${String(++this.#sequence).padStart(6, '0')}`;
    this.#flushing = this.#record(since, now, counts, queries)
      .then((record) => this.#options.store().set(key, record))
      .then(
        () => undefined,
        (error: unknown) => {
          // Kept for the next flush: a Blobs hiccup loses no counts.
          for (const [name, n] of counts) this.#counts.set(name, (this.#counts.get(name) ?? 0) + n);
          for (const [q, e] of queries) if (!this.#queries.has(q)) this.#queries.set(q, e);
          this.#since = Math.min(this.#since ?? since, since);
          (this.#options.log ?? console.warn)(`metrics: could not write ${key}: ${error instanceof Error ? error.message : String(error)}`);
        },
      )
      .finally(() => {
        this.#flushing = null;
      });
    return this.#flushing;
  }

  async #record(since: number, now: number, counts: Map<string, number>, queries: Map<string, QueryEntry>): Promise<MetricsRecord> {
    const digests = new Map<string, string>();
    const digest = this.#options.networkDigest;
    if (digest)
      for (const entry of queries.values())
        for (const network of entry.networks)
          if (!digests.has(network)) digests.set(network, (await digest(network)).slice(0, QUERY_NETWORK_DIGEST_CHARS));
    return {
      from_ms: since,
      to_ms: now,
      counts: Object.fromEntries(counts),
      queries: Object.fromEntries(
        [...queries].map(([q, e]) => [q, { n: e.n, zero: e.zero, networks: [...e.networks].flatMap((n) => digests.get(n) ?? []) }]),
      ),
    };
  }
}

/** One query between writes: how often, how often with nothing found, and the client networks (in memory only). */
interface QueryEntry {
  n: number;
  zero: number;
  networks: Set<string>;
}

/** Who sent a request, without saying who: the kinds of client the operator sees. */
export type Audience = 'browser' | 'markdown-agent' | 'known-agent' | 'verified-agent' | 'unknown';

/** AI and automation user agents worth naming, matched on a case-insensitive token; anything else is `other`. */
export const KNOWN_AGENT_FAMILIES: readonly [family: string, pattern: RegExp][] = [
  ['claude', /claude|anthropic/i],
  ['openai', /gptbot|chatgpt|oai-searchbot|openai/i],
  ['perplexity', /perplexity/i],
  ['google', /googlebot|google-extended|googleother|gemini/i],
  ['bing', /bingbot|bingpreview/i],
  ['apple', /applebot/i],
  ['meta', /meta-external|facebookexternalhit/i],
  ['amazon', /amazonbot/i],
  ['bytedance', /bytespider/i],
  ['common-crawl', /ccbot/i],
  ['mistral', /mistral/i],
  ['cohere', /cohere/i],
  ['duckduckgo', /duckassist|duckduckbot/i],
  ['cursor', /cursor/i],
  ['mcp-client', /\bmcp\b|modelcontextprotocol|mcp-remote/i],
  ['a2a-client', /\ba2a\b/i],
  ['curl', /^curl\//i],
  ['python', /python-requests|python-httpx|aiohttp|python-urllib/i],
  ['node', /node-fetch|undici|axios|^node\b/i],
  ['go', /go-http-client/i],
];

/** A user agent reduced to a known family, `browser`, or `other`: never the string itself. */
export function userAgentFamily(userAgent: string | null): string {
  const ua = userAgent ?? '';
  for (const [family, pattern] of KNOWN_AGENT_FAMILIES) if (pattern.test(ua)) return family;
  if (/^Mozilla\/5\.0 .*(Chrome|Firefox|Safari|Edg)\//.test(ua)) return 'browser';
  return 'other';
}

/**
 * The audience of a request: a verified signature first, then an agent asking for markdown, a
 * known agent family, a browser (browser user agent asking for HTML), and otherwise unknown.
 */
export function audienceOf(req: Request, options: { verified?: boolean } = {}): Audience {
  if (options.verified) return 'verified-agent';
  const accept = req.headers.get('accept') ?? '';
  if (/text\/markdown/i.test(accept)) return 'markdown-agent';
  const family = userAgentFamily(req.headers.get('user-agent'));
  if (family === 'browser' && /text\/html/i.test(accept)) return 'browser';
  if (family !== 'browser' && family !== 'other') return 'known-agent';
  return 'unknown';
}

/** The host of a verified agent's directory origin (`https://bot.example` → `bot.example`). */
function hostOf(origin: string): string {
  try {
    return new URL(origin).host;
  } catch {
    return 'other';
  }
}

/** Counter names end in a word from a fixed list; anything else a client sent counts as `other`. */
export function known(value: string, vocabulary: readonly string[]): string {
  return vocabulary.includes(value) ? value : 'other';
}

/** Set (to `1`) in the environment of `npm run dev` (astro.config.mjs): its requests are not the site's traffic. */
export const DEV_SERVER_ENV = 'SITE_DEV_SERVER';

/**
 * Whether requests are counted in this environment: not under `npm run dev`, whose edge function shares the local Blobs
 * of `npm start` (Netlify's dev emulation and npm start both use .netlify/blobs-serve), so its module requests and its
 * failed renders (a 500 while an article is broken) would show in `npm run stats` and /ops/ as the site's answers.
 */
export function countsUsage(env: Record<string, string | undefined>): boolean {
  return env[DEV_SERVER_ENV] !== '1';
}

/**
 * Counts one answered request at the edge of an endpoint: its audience, the agent family when one
 * is known, the surface, and an error status by surface (`errors.mcp.429`).
 */
export function countRequest(
  usage: Pick<Usage, 'count'>,
  surface: string,
  req: Request,
  status: number,
  options: { verified?: boolean; verifiedAgent?: string } = {},
): void {
  const verified = options.verified || options.verifiedAgent !== undefined;
  usage.count(`requests.audience.${audienceOf(req, { verified })}`);
  // A verified agent is named by its key directory's host: an operator's fact, not a person's.
  if (options.verifiedAgent) usage.count(`requests.verified.${hostOf(options.verifiedAgent)}`);
  usage.count(`requests.surface.${surface}`);
  const family = userAgentFamily(req.headers.get('user-agent'));
  if (family !== 'browser') usage.count(`requests.agent.${family}`);
  if (status >= 400) usage.count(`errors.${surface}.${status}`);
}
