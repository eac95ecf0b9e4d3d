/**
 * Usage counts without a write per request: each function or edge instance adds to counters in
 * memory, and at most once per {@link METRICS_FLUSH_INTERVAL_MS} (after answering a request: the
 * adapter hands the flush to `context.waitUntil`) writes what it counted since as one record,
 * `raw/<UTC day>/<instance>/<sequence>` in the `analytics` store. A daily roll-up
 * (src/core/analytics/rollup.ts) merges a day's records into one and deletes them.
 *
 * Nothing that identifies a person is counted: counters are names (`mcp.tool.search_articles`),
 * user agents are reduced to a known family or `other` before they become a name, and a search
 * query keeps, besides its count, only a short keyed digest of each client network that asked it,
 * so the roll-up can keep queries several networks asked and drop the rest (and drops the digests).
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
  flushIntervalMs?: number;
  log?: (message: string) => void;
}

/** The counters of one instance. */
export class Metrics {
  readonly #options: MetricsOptions;
  #counts = new Map<string, number>();
  #queries = new Map<string, { n: number; zero: number; networks: Set<string> }>();
  #since: number | null = null;
  #lastFlushMs: number;
  #sequence = 0;
  #flushing: Promise<void> | null = null;

  constructor(options: MetricsOptions) {
    this.#options = options;
    this.#lastFlushMs = options.clock();
  }

  /** Adds `n` to the counter `name` (dotted: `family.kind.value`). */
  count(name: string, n = 1): void {
    this.#since ??= this.#options.clock();
    this.#counts.set(name, (this.#counts.get(name) ?? 0) + n);
  }

  /** Counts a search query: its normalized text, whether it found nothing, and who asked (a keyed network digest, shortened). */
  query(text: string, hits: number, networkDigest: string): void {
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
    if (entry.networks.size < MAX_NETWORKS_PER_QUERY) entry.networks.add(networkDigest.slice(0, QUERY_NETWORK_DIGEST_CHARS));
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
    const record: MetricsRecord = {
      from_ms: since,
      to_ms: now,
      counts: Object.fromEntries(counts),
      queries: Object.fromEntries([...queries].map(([q, e]) => [q, { n: e.n, zero: e.zero, networks: [...e.networks] }])),
    };
    const key = `${rawMetricsPrefix(utcDay(since))}${this.#options.instanceId}/${String(++this.#sequence).padStart(6, '0')}`;
    this.#flushing = this.#options
      .store()
      .set(key, record)
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
