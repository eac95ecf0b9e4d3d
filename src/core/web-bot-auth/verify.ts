/**
 * Reads incoming Web Bot Auth signatures (RFC 9421 HTTP Message Signatures, the IETF webbotauth
 * httpsig-protocol draft): a request with `Signature-Agent: sig1="https://agent.example"` and a
 * signature `sig1` over `@authority` and `"signature-agent";key="sig1"` (the whole
 * `signature-agent` field, as the earlier drafts and Cloudflare's web-bot-auth 0.1.3 sign it),
 * with `created`, `expires`, `nonce`, `keyid` and `tag="web-bot-auth"`, verifies against the
 * Ed25519 key whose JWK thumbprint is `keyid` in the agent's key directory,
 * `<origin>/.well-known/http-message-signatures-directory`. The agent is then known by that origin.
 *
 * What one request can cost: at most one member of `Signature-Agent` is tried, and at most one
 * directory fetched, through the adapter's SSRF-hardened fetcher (the one client metadata documents
 * use), within a budget of new directories per client network and one per directory host, so no network can
 * spend what other agents need; a directory is kept for its Cache-Control lifetime (bounded), a failure for a
 * minute. A signature naming a key the cached copy lacks (the agent rotated its key) fetches that directory again,
 * at most once per
 * {@link AGENT_DIRECTORY_REFETCH_INTERVAL_SECONDS} and never twice for one request. A nonce is accepted once per instance while its
 * signature is valid: a replay to another instance within the window is not detected (no Blobs
 * write per read; docs/limits.md). Verification is done with http-message-sig 0.3.
 * @module
 */
import { component, type SignatureComponent, type VerifiedSignature, type Verifier, verifySignature, webcrypto } from 'http-message-sig';
import { parseDictionary, parseItem } from 'structured-headers';
import { clientNetwork } from '../kernel/ip-ranges.ts';
import { LOOPBACK_HOSTNAMES } from '../kernel/origin.ts';
import { ReadLimiter, type ReadRule } from '../kernel/read-limit.ts';
import { thumbprint } from './keys.ts';
import { SIGNATURE_ALGORITHM, WEB_BOT_AUTH_TAG } from './sign.ts';

/** Where an agent's keys are, below its origin. */
export const DIRECTORY_PATH = '/.well-known/http-message-signatures-directory';
/** The largest directory read (a JWKS of a few Ed25519 keys is well under 2 KB). */
export const AGENT_DIRECTORY_MAX_BYTES = 16 * 1024;
/** A directory without Cache-Control is kept this long; with one, at most {@link AGENT_DIRECTORY_MAX_CACHE_SECONDS}, at least a minute. */
export const AGENT_DIRECTORY_DEFAULT_CACHE_SECONDS = 300;
export const AGENT_DIRECTORY_MAX_CACHE_SECONDS = 86_400;
/** A directory that could not be used is not asked again for this long. */
export const AGENT_DIRECTORY_FAILURE_CACHE_SECONDS = 60;
/**
 * A cached directory that lacks the `keyid` a signature names is fetched again at most this often (per directory
 * and instance): the shortest time a directory is ever kept (the 60 s floor above), so a stream of unknown keyids
 * costs an agent's host at most one extra fetch a minute, and a rotation is seen at the first request signed with
 * the new key (or within a minute, if a re-fetch just happened).
 */
export const AGENT_DIRECTORY_REFETCH_INTERVAL_SECONDS = 60;
/** Directories one instance keeps; past it, the one used longest ago goes. */
export const AGENT_DIRECTORY_CACHE_ENTRIES = 1000;
/**
 * Directories one instance fetches for the requests of one client network (an IPv4 address or an IPv6 /64): 5 at
 * once, then one a minute. An agent needs one directory, fetched again when its copy expires or its key rotates; a
 * network naming junk directories spends only its own share, never another network's (docs/limits.md).
 */
export const AGENT_DIRECTORY_FETCHES_PER_NETWORK: ReadRule = { burst: 5, perSecond: 1 / 60 };
/**
 * Directories one instance fetches from one host (the IPv4 address or IPv6 /64 the name resolves to), whoever asks:
 * 20 at once, then 10 a minute, so that many networks together cannot make the site anybody's traffic generator.
 */
export const AGENT_DIRECTORY_FETCHES_PER_HOST: ReadRule = { burst: 20, perSecond: 1 / 6 };
/** Networks and hosts whose fetch budget one instance remembers; past it, the one seen longest ago starts afresh. */
export const AGENT_DIRECTORY_BUDGET_ENTRIES = 10_000;
/** The longest signature validity accepted (`expires` − `created`), as the draft bounds it. */
export const MAX_SIGNATURE_VALIDITY_SECONDS = 86_400;
/** Clock difference tolerated on `created` and `expires`. */
export const SIGNATURE_CLOCK_SKEW_SECONDS = 60;
/** Nonces one instance remembers; past it, the oldest is forgotten. */
export const NONCE_MEMORY_ENTRIES = 100_000;

/** A fetched directory, as the adapter's fetcher returns it (the shape of the client metadata fetcher's answer). */
export interface FetchedDirectory {
  status: number;
  cacheControl: string | null;
  body: string;
}

export interface AgentVerifierOptions {
  /**
   * Fetches a directory URL under the SSRF limits (https, public addresses, no redirects, size and time limits),
   * calling `admit` with the address it is about to connect to (it throws to refuse: that host's budget is spent).
   */
  fetchDirectory(url: string, admit: (address: string, port: number) => Promise<void>): Promise<FetchedDirectory>;
  /** Milliseconds since the epoch. */
  now(): number;
  /** A site on a loopback origin (`npm start`) also takes agents whose directory is on loopback, over http. */
  allowLoopback: boolean;
  /** Why a signature was not accepted, for the operator's log (never sent to the client). */
  log?(message: string): void;
}

/** One directory's keys by thumbprint (and when it was last re-fetched for an unknown key), until when. */
type KeysEntry = { keys: Map<string, CryptoKey>; untilMs: number; refetchedMs?: number };
/** One directory's keys, or why it could not be used, and until when. */
type DirectoryEntry = KeysEntry | { failure: string; untilMs: number };

/** A fetch the directory host's budget refused (not a failure of the directory: nothing is kept). */
const HOST_BUDGET_SPENT = Symbol('host budget spent');

/** Why a request is not from a verified agent; thrown inside, logged, never answered. */
class Unverified extends Error {}

/** The verifier of one instance: its directory cache, its nonce memory and its fetch budgets. */
export class AgentVerifier {
  readonly #options: AgentVerifierOptions;
  readonly #directories = new Map<string, DirectoryEntry>();
  readonly #fetching = new Map<string, Promise<DirectoryEntry>>();
  readonly #nonces = new Map<string, number>();
  readonly #fetchBudget: ReadLimiter;

  constructor(options: AgentVerifierOptions) {
    this.#options = options;
    this.#fetchBudget = new ReadLimiter({ now: options.now, maxClients: AGENT_DIRECTORY_BUDGET_ENTRIES });
  }

  /**
   * The origin of the agent that signed `req`, or null when it is unsigned or its signature does not verify.
   * `network` is the requester's client network (kernel/ip-ranges.ts clientNetwork): a directory fetched for
   * this request comes out of that network's budget.
   */
  async verify(req: Request, network = 'unknown'): Promise<string | null> {
    const agentField = req.headers.get('signature-agent');
    if (agentField === null || !req.headers.has('signature') || !req.headers.has('signature-input')) return null;
    try {
      return await this.#verify(req, agentField, network);
    } catch (error) {
      this.#options.log?.(`Web Bot Auth signature not accepted: ${reason(error)}`);
      return null;
    }
  }

  async #verify(req: Request, agentField: string, network: string): Promise<string> {
    const { label, origin, covers } = agentOf(agentField, req.headers.get('signature-input') ?? '', this.#options.allowLoopback);
    const nowSeconds = Math.floor(this.#options.now() / 1000);
    const required: SignatureComponent[] = ['@authority', covers];
    let nonceKey = '';
    await verifySignature(req, {
      label,
      policy: {
        algorithms: [SIGNATURE_ALGORITHM],
        requiredComponents: required,
        requiredParameters: ['created', 'expires', 'keyid', 'nonce', 'tag'],
        clockSkew: SIGNATURE_CLOCK_SKEW_SECONDS,
        now: nowSeconds,
        validate: (signature: VerifiedSignature) => {
          const { created, expires, nonce, tag } = signature.parameters;
          if (tag !== WEB_BOT_AUTH_TAG) throw new Unverified(`tag is ${String(tag)}, not ${WEB_BOT_AUTH_TAG}`);
          if (typeof created !== 'number' || typeof expires !== 'number') throw new Unverified('created and expires must be integers');
          if (created > nowSeconds + SIGNATURE_CLOCK_SKEW_SECONDS) throw new Unverified('created is in the future');
          if (expires < nowSeconds - SIGNATURE_CLOCK_SKEW_SECONDS) throw new Unverified('the signature has expired');
          if (expires - created > MAX_SIGNATURE_VALIDITY_SECONDS) throw new Unverified('the signature is valid for more than a day');
          nonceKey = `${origin} ${String(nonce)}`;
          if (this.#nonces.has(nonceKey)) throw new Unverified('the nonce was used before');
          return true;
        },
      },
      resolveVerifier: async (candidate): Promise<Verifier> => {
        const keyid = candidate.parameters.keyid;
        if (typeof keyid !== 'string') throw new Unverified('keyid must be a string');
        const { entry, fetchedNow } = await this.#directory(origin, network);
        if ('failure' in entry) throw new Unverified(`the directory of ${origin} ${entry.failure}`);
        let key = entry.keys.get(keyid);
        // A key the cached copy lacks: the agent may have rotated; look again, within the re-fetch interval.
        if (!key && !fetchedNow && this.#mayRefetch(entry)) {
          const again = await this.#fetchAndKeep(origin, network, entry);
          key = 'keys' in again ? again.keys.get(keyid) : undefined;
        }
        if (!key) throw new Unverified(`the directory of ${origin} has no key ${keyid}`);
        return webcrypto.verifier(key);
      },
    });
    this.#remember(nonceKey, nowSeconds);
    return origin;
  }

  /** Remembers a nonce until its signature could no longer be valid; the oldest goes when memory is full. */
  #remember(nonceKey: string, nowSeconds: number): void {
    const untilSeconds = nowSeconds + MAX_SIGNATURE_VALIDITY_SECONDS + SIGNATURE_CLOCK_SKEW_SECONDS;
    for (const [key, until] of this.#nonces) {
      if (until > nowSeconds && this.#nonces.size < NONCE_MEMORY_ENTRIES) break;
      this.#nonces.delete(key);
    }
    this.#nonces.set(nonceKey, untilSeconds);
  }

  /** The directory of `origin`: cached, or fetched once however many requests wait for it (`fetchedNow`: for this request). */
  async #directory(origin: string, network: string): Promise<{ entry: DirectoryEntry; fetchedNow: boolean }> {
    const cached = this.#directories.get(origin);
    if (cached && cached.untilMs > this.#options.now()) return { entry: cached, fetchedNow: false };
    return { entry: await this.#fetchAndKeep(origin, network), fetchedNow: true };
  }

  /** Whether a cached directory may be fetched again for an unknown key: not within the re-fetch interval. */
  #mayRefetch(entry: KeysEntry): boolean {
    return entry.refetchedMs === undefined || this.#options.now() - entry.refetchedMs >= AGENT_DIRECTORY_REFETCH_INTERVAL_SECONDS * 1000;
  }

  /**
   * Fetches the directory of `origin` (one fetch however many requests wait, within the requester network's budget
   * and the directory host's) and keeps the answer. A re-fetch of `kept` keeps its keys if the new answer fails, and
   * notes when it happened either way. A spent budget is about the moment, not the directory: it is not kept.
   */
  #fetchAndKeep(origin: string, network: string, kept?: KeysEntry): Promise<DirectoryEntry> {
    const pending = this.#fetching.get(origin);
    if (pending) return pending;
    if (!this.#fetchBudget.take(`network ${network}`, AGENT_DIRECTORY_FETCHES_PER_NETWORK).allowed)
      return Promise.resolve(kept ?? { failure: 'was not fetched: this network asked for too many new directories', untilMs: 0 });
    const fetching = this.#fetchDirectory(origin)
      .then((fetched) => {
        if (fetched === HOST_BUDGET_SPENT)
          return kept ?? { failure: 'was not fetched: too many directories asked from its host', untilMs: 0 };
        const refetchedMs = this.#options.now();
        const entry: DirectoryEntry = kept ? ('failure' in fetched ? { ...kept, refetchedMs } : { ...fetched, refetchedMs }) : fetched;
        this.#keep(origin, entry);
        return entry;
      })
      .finally(() => this.#fetching.delete(origin));
    this.#fetching.set(origin, fetching);
    return fetching;
  }

  /** Caches a directory entry; past {@link AGENT_DIRECTORY_CACHE_ENTRIES}, the one used longest ago goes. */
  #keep(origin: string, entry: DirectoryEntry): void {
    this.#directories.delete(origin);
    if (this.#directories.size >= AGENT_DIRECTORY_CACHE_ENTRIES) {
      const oldest = this.#directories.keys().next();
      if (!oldest.done) this.#directories.delete(oldest.value);
    }
    this.#directories.set(origin, entry);
  }

  /** The directory of `origin` as fetched, or {@link HOST_BUDGET_SPENT} when its host's budget refused the fetch. */
  async #fetchDirectory(origin: string): Promise<DirectoryEntry | typeof HOST_BUDGET_SPENT> {
    const failed = (failure: string): DirectoryEntry => ({
      failure,
      untilMs: this.#options.now() + AGENT_DIRECTORY_FAILURE_CACHE_SECONDS * 1000,
    });
    let hostBudgetSpent = false;
    const admit = async (address: string): Promise<void> => {
      // One budget per target network, whatever name or port the directory URL uses (as client metadata documents).
      if (this.#fetchBudget.take(`host ${clientNetwork(address)}`, AGENT_DIRECTORY_FETCHES_PER_HOST).allowed) return;
      hostBudgetSpent = true;
      throw new Error('too many directories asked from this host');
    };
    let fetched: FetchedDirectory;
    try {
      fetched = await this.#options.fetchDirectory(`${origin}${DIRECTORY_PATH}`, admit);
    } catch (error) {
      if (hostBudgetSpent) return HOST_BUDGET_SPENT;
      return failed(`could not be fetched (${error instanceof Error ? error.message : String(error)})`);
    }
    if (fetched.status !== 200) return failed(`answered HTTP ${fetched.status}`);
    let keys: Map<string, CryptoKey>;
    try {
      keys = await directoryKeys(fetched.body, Math.floor(this.#options.now() / 1000));
    } catch (error) {
      return failed(`is not a key directory (${error instanceof Error ? error.message : String(error)})`);
    }
    return { keys, untilMs: this.#options.now() + directoryLifetimeSeconds(fetched.cacheControl) * 1000 };
  }
}

/**
 * The signature label, the agent's origin and the component that binds them, from
 * `Signature-Agent` and `Signature-Input`: the first Dictionary member that names a signature, or
 * a bare string (earlier drafts) with the first signature. The URL must be an https origin (or http
 * on loopback for a loopback site), or that origin's directory URL.
 */
export function agentOf(
  agentField: string,
  signatureInput: string,
  allowLoopback: boolean,
): { label: string; origin: string; covers: SignatureComponent } {
  const inputs = safe(() => parseDictionary(signatureInput), 'Signature-Input is not a Dictionary');
  const labels = [...inputs.keys()];
  let label: string | undefined;
  let value: unknown;
  let covers: SignatureComponent;
  const dictionary = (() => {
    try {
      return parseDictionary(agentField);
    } catch {
      return null;
    }
  })();
  if (dictionary && dictionary.size > 0 && [...dictionary.values()].every((member) => !Array.isArray(member[0]))) {
    label = [...dictionary.keys()].find((name) => labels.includes(name));
    if (label === undefined) throw new Unverified('no Signature-Agent member names a signature');
    value = (dictionary.get(label) as [unknown, unknown])[0];
    // The draft's member component, or the whole field (which signs every member): Cloudflare's
    // web-bot-auth 0.1.3 covers the whole field by default, whatever form Signature-Agent takes.
    covers = coversWholeField(inputs.get(label)) ? 'signature-agent' : component('signature-agent', { key: label });
  } else {
    value = safe(() => parseItem(agentField), 'Signature-Agent is neither a Dictionary nor a String')[0];
    label = labels[0];
    if (label === undefined) throw new Unverified('Signature-Input names no signature');
    covers = 'signature-agent';
  }
  if (typeof value !== 'string') throw new Unverified('the Signature-Agent value is not a String');
  return { label, origin: agentOrigin(value, allowLoopback), covers };
}

/** Whether a Signature-Input member's component list holds the whole `signature-agent` field (no `key` parameter). */
function coversWholeField(member: unknown): boolean {
  const items = Array.isArray(member) && Array.isArray(member[0]) ? (member[0] as unknown[]) : [];
  return items.some(
    (item) =>
      Array.isArray(item) && item[0] === 'signature-agent' && item[1] instanceof Map && !(item[1] as Map<string, unknown>).has('key'),
  );
}

/** The agent's origin from its `Signature-Agent` URL, or why it is refused. */
function agentOrigin(value: string, allowLoopback: boolean): string {
  const url = safe(() => new URL(value), 'the Signature-Agent value is not a URL');
  if (url.username || url.password || url.search || url.hash) throw new Unverified('the Signature-Agent URL must be an origin');
  if (url.pathname !== '/' && url.pathname !== DIRECTORY_PATH)
    throw new Unverified('the Signature-Agent URL must be an origin or its directory');
  const loopback = LOOPBACK_HOSTNAMES.includes(url.hostname);
  if (url.protocol === 'https:' && (!loopback || allowLoopback)) return url.origin;
  if (url.protocol === 'http:' && loopback && allowLoopback) return url.origin;
  throw new Unverified('the Signature-Agent URL must be https on a public host');
}

/** The Ed25519 keys of a directory (a JWKS) by their RFC 7638 thumbprint; keys outside their `nbf`/`exp` are left out. */
export async function directoryKeys(body: string, nowSeconds: number): Promise<Map<string, CryptoKey>> {
  const parsed = JSON.parse(body) as { keys?: unknown };
  if (!Array.isArray(parsed.keys)) throw new Error('no keys array');
  const keys = new Map<string, CryptoKey>();
  for (const jwk of parsed.keys.slice(0, 16) as Record<string, unknown>[]) {
    if (jwk?.kty !== 'OKP' || jwk.crv !== 'Ed25519' || typeof jwk.x !== 'string') continue;
    if (typeof jwk.nbf === 'number' && jwk.nbf > nowSeconds + SIGNATURE_CLOCK_SKEW_SECONDS) continue;
    if (typeof jwk.exp === 'number' && jwk.exp < nowSeconds - SIGNATURE_CLOCK_SKEW_SECONDS) continue;
    const publicJwk = { kty: 'OKP' as const, crv: 'Ed25519' as const, x: jwk.x };
    try {
      keys.set(await thumbprint(publicJwk), await crypto.subtle.importKey('jwk', publicJwk, { name: 'Ed25519' }, false, ['verify']));
    } catch {
      // A key that does not import is skipped; the others still count.
    }
  }
  if (keys.size === 0) throw new Error('no usable Ed25519 key');
  return keys;
}

/** How long a directory is kept: its max-age within [60 s, a day], or the default. */
export function directoryLifetimeSeconds(cacheControl: string | null): number {
  const maxAge = /(?:^|,)\s*max-age=(\d+)/i.exec(cacheControl ?? '')?.[1];
  if (maxAge === undefined) return AGENT_DIRECTORY_DEFAULT_CACHE_SECONDS;
  return Math.min(AGENT_DIRECTORY_MAX_CACHE_SECONDS, Math.max(60, Number(maxAge)));
}

/** An error's message for the log, with its cause's (http-message-sig wraps what the key resolution threw). */
function reason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.cause instanceof Error ? `${error.message}: ${error.cause.message}` : error.message;
}

function safe<T>(read: () => T, problem: string): T {
  try {
    return read();
  } catch {
    throw new Unverified(problem);
  }
}
