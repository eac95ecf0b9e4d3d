/**
 * Limits on the public read endpoints (`/api/search`, `/mcp`, `/a2a`), kept in each instance's
 * memory: a read must not cost a Blobs write (kernel/rate-limit.ts is for writes, where the limit
 * must hold exactly across instances). One token bucket per client: a client network (an IPv4
 * address or an IPv6 /64, kernel/ip-ranges.ts), or a verified agent's key directory
 * (web-bot-auth/verify.ts), which gets the larger allowance. Each instance keeps its own buckets,
 * so a client served by several instances at once can read more: the limit stops floods, it does
 * not meter (docs/limits.md).
 * @module
 */
import { envelopeResponse, failure, isRejection, type JsonRpcId, parseMessage } from './jsonrpc.ts';
import { problemResponse, tooManyRequests } from './problem.ts';
import { mediaTypeOf, readBody } from './respond.ts';

/** A token bucket: `burst` requests at once, then `perSecond` requests a second. */
export interface ReadRule {
  burst: number;
  perSecond: number;
}

/**
 * Requests a second an anonymous client (one network) may keep up (READ_LIMIT_PER_SECOND): a person
 * typing in the search box or an agent reading at the contract's 1 request a second never meets it;
 * a loop does within a minute.
 */
export const DEFAULT_READ_PER_SECOND = 2;
/** A client may send a minute's allowance at once. */
export const READ_BURST_SECONDS = 60;
/** Agents whose Web Bot Auth signature verifies get this many times the allowance, per key directory. */
export const VERIFIED_READ_FACTOR = 5;

/** The two allowances for a site's rate (0: no limit, for a site behind a limiter of its own). */
export interface ReadRules {
  anonymous: ReadRule;
  verified: ReadRule;
}

/** The allowances at `perSecond` requests a second for an anonymous client. */
export function readRules(perSecond = DEFAULT_READ_PER_SECOND): ReadRules {
  const rule = (rate: number): ReadRule => ({
    burst: rate * READ_BURST_SECONDS,
    perSecond: rate,
  });
  return {
    anonymous: rule(perSecond),
    verified: rule(perSecond * VERIFIED_READ_FACTOR),
  };
}

/** The allowances when READ_LIMIT_PER_SECOND is unset: what auth.md, llms.txt and the OpenAPI document state. */
export const DEFAULT_READ_RULES: ReadRules = readRules();

/** The allowances in words, for the public documents' descriptions of the 429. */
export function readAllowanceText(rules: ReadRules = DEFAULT_READ_RULES): string {
  return (
    `${rules.anonymous.burst} requests at once, then ${rules.anonymous.perSecond} a second per network by default; ` +
    `${rules.verified.burst} and ${rules.verified.perSecond} per key directory (and at most that from one network) for agents signing with Web Bot Auth, auth.md "Read limits"`
  );
}

/** Buckets one instance keeps; past this, the client seen longest ago is forgotten (it starts again with a full bucket). */
export const READ_LIMIT_MAX_CLIENTS = 10_000;

export interface ReadDecision {
  allowed: boolean;
  /** Whole seconds until one request is admitted again (0 when allowed). */
  retryAfterSeconds: number;
  /** Requests the client may still send at once. */
  remaining: number;
}

interface Bucket {
  tokens: number;
  atMs: number;
}

/** The buckets of one instance. */
export class ReadLimiter {
  /** In the order clients were last seen (each take moves its client to the end). */
  readonly #buckets = new Map<string, Bucket>();
  readonly #now: () => number;
  readonly #maxClients: number;

  constructor(options: { now?: () => number; maxClients?: number } = {}) {
    this.#now = options.now ?? Date.now;
    this.#maxClients = options.maxClients ?? READ_LIMIT_MAX_CLIENTS;
  }

  /** Takes one request from `client`'s bucket under `rule`. */
  take(client: string, rule: ReadRule): ReadDecision {
    const nowMs = this.#now();
    const bucket = this.#buckets.get(client) ?? this.#fresh(rule, nowMs);
    const refilled = Math.min(rule.burst, bucket.tokens + ((nowMs - bucket.atMs) / 1000) * rule.perSecond);
    this.#buckets.delete(client);
    if (refilled < 1) {
      this.#buckets.set(client, { tokens: refilled, atMs: nowMs });
      return {
        allowed: false,
        retryAfterSeconds: Math.max(1, Math.ceil((1 - refilled) / rule.perSecond)),
        remaining: 0,
      };
    }
    this.#buckets.set(client, { tokens: refilled - 1, atMs: nowMs });
    return {
      allowed: true,
      retryAfterSeconds: 0,
      remaining: Math.floor(refilled - 1),
    };
  }

  /** Clients this instance holds a bucket for. */
  get size(): number {
    return this.#buckets.size;
  }

  #fresh(rule: ReadRule, nowMs: number): Bucket {
    if (this.#buckets.size >= this.#maxClients) {
      const oldest = this.#buckets.keys().next();
      if (!oldest.done) this.#buckets.delete(oldest.value);
    }
    return { tokens: rule.burst, atMs: nowMs };
  }
}

/** What the edge learned before the handler ran: a refusal to send instead, and the verified agent when there is one. */
export interface Admitted {
  refused?: Response;
  /** The verified agent's key directory origin (Web Bot Auth), counted as `verified-agent`. */
  verifiedAgent?: string;
}

/** Decides, before an endpoint's handler runs, whether the request is admitted (kernel/handler.ts `admission`). */
export type Admission = (req: Request, context: unknown) => Promise<Admitted>;

/** How an endpoint words a refusal: an RFC 9457 problem (`/api/*`) or a JSON-RPC error (`/mcp`, `/a2a`). */
export type RefusalFamily = 'problem' | 'jsonrpc';

export interface ReadAdmissionOptions {
  limiter: ReadLimiter;
  rules: ReadRules;
  /** The client's network (kernel/ip-ranges.ts clientNetwork) from the platform's context. */
  network(context: unknown): string;
  /**
   * The verified agent's key directory origin, or null for an unsigned or unverified request; `network` is the
   * requester's (a directory fetched to verify comes out of that network's share, web-bot-auth/verify.ts).
   */
  verify?(req: Request, network: string): Promise<string | null>;
  refuseAs: RefusalFamily;
  /** Where a client reads how to get the larger allowance (auth.md's section). */
  moreAt: string;
  /**
   * Whether the endpoint refuses `req` before reading it anyway (a browser origin it does not allow):
   * such a request takes nothing from the allowance and gets the endpoint's own refusal, not a 429.
   */
  refusedAnyway?(req: Request): boolean;
  /**
   * The JSON-RPC endpoint's body limit: a refused request's body is read within it, so the 429 carries
   * the request's id (JSON-RPC 2.0 allows null only when the id cannot be read). Absent: the id is null.
   */
  maxBodyBytes?: number;
}

/**
 * The words of a refusal: which allowance was used up, when to come back, and how to get more. A
 * verified agent is refused either by its directory's allowance or by its network's share of verified
 * reading (`refusedBy: 'network'`), which every directory signed for from that network draws on.
 */
export function readLimitDetail(
  retryAfterSeconds: number,
  verified: boolean,
  rules: ReadRules,
  moreAt: string,
  refusedBy: 'directory' | 'network' = 'directory',
): string {
  const rule = verified ? rules.verified : rules.anonymous;
  const allowance = `${rule.burst} requests at once, then ${rule.perSecond} a second`;
  if (verified && refusedBy === 'network')
    return `Too many verified requests from your network (${allowance}, shared by every agent verified from one network). Retry after ${retryAfterSeconds} s.`;
  const whose = verified ? 'this verified agent' : 'your network';
  const more = verified
    ? ''
    : ` Agents that sign their requests with Web Bot Auth get ${rules.verified.burst} at once and ${rules.verified.perSecond} a second: ${moreAt}`;
  return `Too many requests from ${whose} (${allowance}). Retry after ${retryAfterSeconds} s.${more}`;
}

/** The JSON-RPC error code of a refused read (the implementation-defined server range, -32000 to -32099). */
export const RATE_LIMITED_CODE = -32029;

/**
 * The id of a JSON-RPC request, read from its body within `maxBodyBytes` (the endpoint's own limit, so
 * a refusal never reads more than an answer would). Null when it cannot be read: not a JSON POST, too
 * large, not JSON, a batch, or no valid id (a notification).
 */
export async function jsonRpcIdOf(req: Request, maxBodyBytes: number): Promise<JsonRpcId | null> {
  if (req.method !== 'POST' || mediaTypeOf(req) !== 'application/json') return null;
  const body = await readBody(req, maxBodyBytes);
  if (!body.ok) return null;
  const message = parseMessage(body.text);
  if (isRejection(message)) return message.id;
  return message.kind === 'request' ? message.id : null;
}

/** The 429 of a refused read, in the endpoint's family, readable by a browser client on another origin. */
export function readLimitRefusal(
  family: RefusalFamily,
  retryAfterSeconds: number,
  detail: string,
  path: string,
  id: JsonRpcId | null = null,
): Response {
  const headers = {
    'retry-after': String(retryAfterSeconds),
    'access-control-allow-origin': '*',
    'access-control-expose-headers': 'retry-after',
  };
  if (family === 'problem') {
    const problem = tooManyRequests(retryAfterSeconds, detail);
    const res = problemResponse(problem, path);
    for (const [name, value] of Object.entries(headers)) res.headers.set(name, value);
    return res;
  }
  return envelopeResponse(failure(id, RATE_LIMITED_CODE, detail, { retry_after: retryAfterSeconds }), 429, headers);
}

/**
 * One request from the network's bucket, then from the directory's: the network's first, so a
 * network past its share spends nothing of the directory's.
 */
function takeBoth(
  limiter: ReadLimiter,
  networkKey: string,
  directoryKey: string,
  rule: ReadRule,
): ReadDecision & { refusedBy: 'directory' | 'network' } {
  const fromNetwork = limiter.take(networkKey, rule);
  return fromNetwork.allowed ? { ...limiter.take(directoryKey, rule), refusedBy: 'directory' } : { ...fromNetwork, refusedBy: 'network' };
}

/**
 * The admission of a public read endpoint: a verified agent takes from its directory's bucket and
 * its network's verified share, anyone else from its network's; an empty bucket is a 429 with
 * Retry-After in the endpoint's family.
 */
export function readAdmission(options: ReadAdmissionOptions): Admission {
  // READ_LIMIT_PER_SECOND=0: no limit; a verified agent is still named (it is counted as such).
  const unlimited = options.rules.anonymous.perSecond === 0;
  return async (req, context) => {
    if (options.refusedAnyway?.(req)) return {};
    const network = options.network(context);
    // A verifier that fails is an unverified request, never a failed one.
    const verifiedAgent = options.verify ? await options.verify(req, network).catch(() => null) : null;
    if (unlimited) return verifiedAgent ? { verifiedAgent } : {};
    // A verified agent's allowance is its directory's, and no network gets more of it than one directory's:
    // anyone can stand up directories, so spelling one origin many ways (or running many) buys nothing.
    const decision: ReadDecision & { refusedBy?: 'directory' | 'network' } = verifiedAgent
      ? takeBoth(options.limiter, `verified-network ${network}`, `agent ${verifiedAgent}`, options.rules.verified)
      : options.limiter.take(`network ${network}`, options.rules.anonymous);
    const admitted: Admitted = verifiedAgent ? { verifiedAgent } : {};
    if (decision.allowed) return admitted;
    const detail = readLimitDetail(decision.retryAfterSeconds, verifiedAgent !== null, options.rules, options.moreAt, decision.refusedBy);
    const id = options.refuseAs === 'jsonrpc' && options.maxBodyBytes ? await jsonRpcIdOf(req, options.maxBodyBytes) : null;
    return {
      ...admitted,
      refused: readLimitRefusal(options.refuseAs, decision.retryAfterSeconds, detail, new URL(req.url).pathname, id),
    };
  };
}
