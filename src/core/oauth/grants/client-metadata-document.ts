/**
 * Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document; MCP 2026-07-28
 * authorization): a `client_id` that is an https URL names a JSON document, served there by the
 * client, holding its metadata. The server fetches it (see the adapter's hardened fetcher), checks
 * that its `client_id` is exactly its URL, and treats the client as a public client whose
 * `redirect_uris` come from the document. Nothing is stored: the document is the registration.
 *
 * Only https URLs are accepted, except that a server whose own origin is loopback (`npm start`,
 * the tests) also accepts an http URL on a loopback host, so a local client can serve its document.
 * @module
 */
import { addressKind, clientNetwork } from '../../kernel/ip-ranges.ts';
import { isLoopbackOrigin, LOOPBACK_HOSTNAMES } from '../../kernel/origin.ts';
import { busyText, consume, type RateLimitRule } from '../../kernel/rate-limit.ts';
import type { Store } from '../../kernel/store.ts';
import { OAuthError } from '../errors.ts';
import { intersectScope, SCOPES } from '../config.ts';
import { clientNameProblem, type ClientRecord, type GrantType } from './clients.ts';
import { redirectUriProblem } from './redirect-uris.ts';
import type { Usage } from '../../kernel/metrics.ts';

/** Largest document accepted (the draft suggests a small limit; real documents are well under 2 KB). */
export const CLIENT_METADATA_MAX_BYTES = 5 * 1024;
/** Time allowed for the whole fetch. */
export const CLIENT_METADATA_TIMEOUT_MS = 3000;
/** A document is reused for at most this long, whatever its Cache-Control says. */
export const CLIENT_METADATA_MAX_CACHE_SECONDS = 24 * 3600;
/** Without caching headers a document is reused this long. */
export const CLIENT_METADATA_DEFAULT_CACHE_SECONDS = 300;
/**
 * A URL whose document could not be used is not fetched again for this long (per instance): a
 * client fixing its document waits a minute; a stranger repeating a request gets the cached answer.
 */
export const CLIENT_METADATA_FAILURE_CACHE_SECONDS = 60;
/**
 * Documents fetched for one client network (an IPv4 address or an IPv6 /64, src/core/kernel/ip-digest.ts)
 * in a window: a real client needs a few per authorization (documents are cached), a scan needs many.
 */
export const CLIENT_METADATA_FETCHES_PER_NETWORK: RateLimitRule = { limit: 30, windowSeconds: 600 };
/** Documents fetched from one host in a window, whoever asks: the server is nobody's traffic generator. */
export const CLIENT_METADATA_FETCHES_PER_HOST: RateLimitRule = { limit: 120, windowSeconds: 600 };
/**
 * Sent as the fetcher's User-Agent. A request that carries it came from a metadata fetcher of this
 * software (this site under another name, or another deployment): it gets no fetch of its own, so a
 * `client_id` that nests metadata URLs costs at most one fetch, not one per level.
 */
export const CLIENT_METADATA_FETCHER_AGENT = 'agent-ready-site-client-metadata-fetcher/1';
/** Most documents (and failures) one instance keeps; beyond it the cache starts again (documents are cheap to fetch again). */
const CACHE_MAX_ENTRIES = 1000;

/** Whether a `client_id` is meant as a metadata document URL (rather than a registered `agt_…` id). */
export function isClientIdUrl(clientId: string): boolean {
  return /^https?:\/\//i.test(clientId);
}

/**
 * Why `clientId` cannot be used as a metadata document URL by the server at `issuer`, or null. An
 * http URL on a loopback host is accepted only with `allowLoopback` (a site on a loopback origin
 * asked by a client on the same machine).
 */
export function clientIdUrlProblem(clientId: string, issuer: string, allowLoopback = isLoopbackOrigin(issuer)): string | null {
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return 'is not a URL';
  }
  if (url.href !== clientId) return 'must be written in canonical form';
  if (url.hash || url.username || url.password) return 'must not have a fragment or userinfo';
  if (url.pathname === '/') return 'must have a path (draft-ietf-oauth-client-id-metadata-document §3)';
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && allowLoopback && LOOPBACK_HOSTNAMES.includes(url.hostname)) return null;
  return 'must be an https URL';
}

/** The lifetime a response's Cache-Control allows (no-store/no-cache: 0), capped. */
export function cacheLifetimeSeconds(cacheControl: string | null): number {
  if (!cacheControl) return CLIENT_METADATA_DEFAULT_CACHE_SECONDS;
  const directives = cacheControl
    .toLowerCase()
    .split(',')
    .map((d) => d.trim());
  if (directives.some((d) => d === 'no-store' || d === 'no-cache')) return 0;
  const maxAge = directives.map((d) => /^max-age=(\d+)$/.exec(d)?.[1]).find((v) => v !== undefined);
  return maxAge === undefined ? CLIENT_METADATA_DEFAULT_CACHE_SECONDS : Math.min(Number(maxAge), CLIENT_METADATA_MAX_CACHE_SECONDS);
}

/** A fetched document, as the adapter's fetcher returns it. */
export interface FetchedDocument {
  status: number;
  contentType: string | null;
  cacheControl: string | null;
  body: string;
}

/** What the resolver tells the fetcher for one fetch. */
export interface FetchOptions {
  /** Accept loopback addresses (and http to them): only for a loopback site asked from the same machine. */
  allowLoopback: boolean;
  /**
   * Called with the address the connection will go to, after name resolution and before connecting;
   * throws to refuse (a limit per target host, the site's own address). A name and an IP literal,
   * any port, are one host here, however the URL spells them.
   */
  admit(address: string, port: number): Promise<void>;
}

/** Fetches a document URL with the SSRF limits; throws an Error whose message says why it refused. */
export type ClientMetadataFetcher = (url: string, options: FetchOptions) => Promise<FetchedDocument>;

/**
 * Why a document could not be used, in the few fixed phrases a stranger is told: whether a host
 * refused the connection, timed out, spoke TLS or answered 404 stays in the log (with the reference
 * the answer quotes), so the fetcher answers no questions about other people's networks.
 */
export const CLIENT_METADATA_FAILURES = {
  fetch: 'it could not be fetched',
  notJson: 'it is not a JSON document',
  notItsOwn: 'its client_id is not exactly its URL',
} as const;

/** A document that cannot be used: the public phrase, and the detail for the log only. */
export class ClientMetadataFailure extends Error {
  readonly publicReason: string;
  constructor(publicReason: string, detail: string) {
    super(detail);
    this.name = 'ClientMetadataFailure';
    this.publicReason = publicReason;
  }
}

const fail = (url: string, why: string): OAuthError =>
  new OAuthError('invalid_client', `The client metadata document at ${url} cannot be used: ${why}.`);

/**
 * Turns a fetched document into the client it describes; throws `invalid_client` saying what is
 * wrong. Until the document names itself (`client_id` equal to its URL) a failure is one of the
 * fixed {@link CLIENT_METADATA_FAILURES} (a {@link ClientMetadataFailure}); after that the document
 * is the client's own, and the answer says exactly which field to fix.
 */
export function clientFromDocument(url: string, fetched: FetchedDocument, nowSeconds: number): ClientRecord {
  if (fetched.status !== 200) throw new ClientMetadataFailure(CLIENT_METADATA_FAILURES.fetch, `it answered HTTP ${fetched.status}`);
  if (!/^application\/(?:[\w.+-]*\+)?json\b/i.test(fetched.contentType ?? ''))
    throw new ClientMetadataFailure(CLIENT_METADATA_FAILURES.notJson, `its Content-Type is ${fetched.contentType ?? 'missing'}`);
  let doc: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(fetched.body);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
    doc = parsed as Record<string, unknown>;
  } catch {
    throw new ClientMetadataFailure(CLIENT_METADATA_FAILURES.notJson, 'the body is not a JSON object');
  }
  if (doc.client_id !== url)
    throw new ClientMetadataFailure(CLIENT_METADATA_FAILURES.notItsOwn, `its client_id is ${JSON.stringify(doc.client_id)}`);
  for (const secret of ['client_secret', 'client_secret_expires_at']) if (secret in doc) throw fail(url, `it must not contain ${secret}`);
  const method = doc.token_endpoint_auth_method ?? 'none';
  if (method !== 'none') throw fail(url, `token_endpoint_auth_method "${String(method)}" is not supported here (only "none")`);
  const grantTypes = doc.grant_types ?? ['authorization_code'];
  if (
    !Array.isArray(grantTypes) ||
    grantTypes.some((g) => g !== 'authorization_code' && g !== 'refresh_token') ||
    !grantTypes.includes('authorization_code')
  ) {
    throw fail(url, 'grant_types must be authorization_code, optionally with refresh_token');
  }
  const redirectUris = doc.redirect_uris;
  if (!Array.isArray(redirectUris) || redirectUris.length === 0 || redirectUris.some((u) => typeof u !== 'string'))
    throw fail(url, 'redirect_uris must be a non-empty array of URIs');
  for (const uri of redirectUris as string[]) {
    const problem = redirectUriProblem(uri);
    if (problem) throw fail(url, `redirect_uri "${uri}" ${problem}`);
  }
  const name = typeof doc.client_name === 'string' && doc.client_name.trim() ? doc.client_name.trim().slice(0, 100) : new URL(url).host;
  const nameProblem = clientNameProblem(name);
  if (nameProblem) throw fail(url, nameProblem);
  const scope = intersectScope(SCOPES, typeof doc.scope === 'string' ? doc.scope : undefined) ?? [...SCOPES];
  return {
    client_id: url,
    client_secret_sha256: null,
    client_name: name,
    grant_types: [...new Set(grantTypes as GrantType[])],
    response_types: ['code'],
    redirect_uris: [...new Set(redirectUris as string[])],
    token_endpoint_auth_method: 'none',
    scope,
    client_id_issued_at: nowSeconds,
    registration_type: 'metadata_document',
    claim: { status: 'unclaimed', token_sha256: null, token_expires_at: nowSeconds },
    expires_at: null,
    last_used_at: nowSeconds,
  };
}

/** Who asks for a URL client_id to be resolved (the adapter builds it per request). */
export interface MetadataRequester {
  /** Keyed digest of the requesting client's network (src/core/kernel/ip-digest.ts). */
  network: () => Promise<string>;
  /** The origin the request reached this site under: never fetched, whatever other name the site has. */
  requestOrigin: string;
  /** The request carries {@link CLIENT_METADATA_FETCHER_AGENT}: it was made by a metadata fetcher, so it may cause none. */
  fromMetadataFetcher: boolean;
  /** Other hosts this site answers under (its deploy URLs, `<name>.netlify.app`): a document there would be the site itself. */
  isOwnHost?: (host: string) => boolean;
  /**
   * The client is on this machine (a loopback address). Only then may a site on a loopback origin
   * (`npm start`) fetch documents from loopback: a local MCP client testing with a local document.
   * Anyone else, even with the site's port exposed beyond loopback, gets public addresses only.
   */
  fromLoopbackClient?: boolean;
  /** What the request counts (kernel/metrics.ts): a document fetched and accepted counts as a CIMD registration. */
  usage?: Pick<Usage, 'count'>;
}

export interface ClientMetadataPolicy {
  fetch: ClientMetadataFetcher;
  issuer: string;
  /** Where fetch admissions per network and per host are counted (opened per use: a platform store may not exist at module load). */
  limits: () => Store;
  /** Where the reason a stranger is not told goes, with the reference the answer quotes. */
  log?: (message: string) => void;
}

const ownSite = (): OAuthError => new OAuthError('invalid_client', 'A URL client_id must not point at this site itself.');

/** Host and port, with every loopback name of one port counted as one host (localhost:8888 is 127.0.0.1:8888). */
function hostIdentity(url: URL): string {
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return LOOPBACK_HOSTNAMES.includes(url.hostname) || hostname === '::1' ? `loopback:${port}` : `${hostname.toLowerCase()}:${port}`;
}

/**
 * Resolves metadata-document clients through the fetcher, keeping each document as long as its
 * HTTP caching allows and each failure {@link CLIENT_METADATA_FAILURE_CACHE_SECONDS} (per instance).
 * Before any fetch: a URL on one of the site's own hosts is refused, a request made by a metadata
 * fetcher causes none, and the fetch must fit the limits per client network and per target host.
 */
export class ClientMetadataResolver {
  readonly #policy: ClientMetadataPolicy;
  readonly #cache = new Map<string, { client: ClientRecord; until: number } | { failure: string; until: number }>();
  /**
   * The fetch under way per cache key: requests for a document being fetched wait for that fetch, as
   * they would take its cached answer. Null: the request that started it was refused before fetching
   * (its network's limit), so a waiting request goes on by itself.
   */
  readonly #inFlight = new Map<string, Promise<{ client: ClientRecord } | { error: unknown } | null>>();

  constructor(policy: ClientMetadataPolicy) {
    this.#policy = policy;
  }

  async resolve(clientId: string, nowSeconds: number, requester: MetadataRequester): Promise<ClientRecord> {
    const allowLoopback = isLoopbackOrigin(this.#policy.issuer) && requester.fromLoopbackClient === true;
    const problem = clientIdUrlProblem(clientId, this.#policy.issuer, allowLoopback);
    if (problem) throw new OAuthError('invalid_client', `A URL client_id ${problem}.`);
    const url = new URL(clientId);
    const target = hostIdentity(url);
    const own = [this.#policy.issuer, requester.requestOrigin].map((o) => hostIdentity(new URL(o)));
    if (own.includes(target) || requester.isOwnHost?.(url.host.toLowerCase())) throw ownSite();
    // What a loopback client may fetch is never served to anyone else from the cache, and the other way round.
    const cacheKey = `${allowLoopback ? 'local' : 'public'} ${clientId}`;
    const cached = this.#cache.get(cacheKey);
    if (cached && cached.until > nowSeconds) {
      if ('client' in cached) return cached.client;
      throw new OAuthError('invalid_client', cached.failure);
    }
    const underWay = this.#inFlight.get(cacheKey);
    const shared = underWay ? await underWay : null;
    if (shared) {
      if ('client' in shared) return shared.client;
      throw shared.error;
    }
    if (requester.fromMetadataFetcher)
      throw new OAuthError(
        'invalid_client',
        'This request was made by a client metadata fetcher; it cannot name another client metadata document.',
      );
    // Registered before the first await, so a request arriving meanwhile waits for this fetch rather than starting its own.
    let share: (outcome: { client: ClientRecord } | { error: unknown } | null) => void = () => {};
    const sharing = new Promise<{ client: ClientRecord } | { error: unknown } | null>((resolve) => {
      share = resolve;
    });
    this.#inFlight.set(cacheKey, sharing);
    let outcome: { client: ClientRecord } | { error: unknown } | null = null;
    try {
      // Only this request's network pays for the fetch; those waiting for it pay nothing, as for a cached answer.
      await this.#admit(`cimd-network/${await requester.network()}`, CLIENT_METADATA_FETCHES_PER_NETWORK, 'for your network', nowSeconds);
      outcome = await this.#fetch(clientId, cacheKey, allowLoopback, nowSeconds, requester).then(
        (client) => ({ client }),
        (error: unknown) => ({ error }),
      );
    } finally {
      share(outcome);
      if (this.#inFlight.get(cacheKey) === sharing) this.#inFlight.delete(cacheKey);
    }
    if ('client' in outcome) return outcome.client;
    throw outcome.error;
  }

  /** Fetches and checks the document (admitted per target host), and remembers the answer as its caching allows. */
  async #fetch(
    clientId: string,
    cacheKey: string,
    allowLoopback: boolean,
    nowSeconds: number,
    requester: MetadataRequester,
  ): Promise<ClientRecord> {
    const issuer = new URL(this.#policy.issuer);
    const issuerPort = Number(issuer.port || (issuer.protocol === 'https:' ? 443 : 80));
    const admit = async (address: string, port: number): Promise<void> => {
      // Any other name of this machine on the site's own port is the site itself.
      if (allowLoopback && addressKind(address) === 'loopback' && port === issuerPort) throw ownSite();
      // One budget per target network (an IPv4 address or an IPv6 /64), whatever name or port the URL uses.
      await this.#admit(`cimd-host/${clientNetwork(address)}`, CLIENT_METADATA_FETCHES_PER_HOST, "from the document's host", nowSeconds);
    };

    let client: ClientRecord;
    let fetched: FetchedDocument;
    try {
      fetched = await this.#policy.fetch(clientId, { allowLoopback, admit });
      client = clientFromDocument(clientId, fetched, nowSeconds);
    } catch (error) {
      const refused = this.#refusal(clientId, error);
      // A limit is about the moment, not the document: it is not remembered as the document's failure.
      if (refused.code !== 'rate_limited')
        this.#remember(cacheKey, { failure: refused.message, until: nowSeconds + CLIENT_METADATA_FAILURE_CACHE_SECONDS });
      throw refused;
    }
    requester.usage?.count('oauth.registration.cimd');
    const lifetime = cacheLifetimeSeconds(fetched.cacheControl);
    if (lifetime > 0) this.#remember(cacheKey, { client, until: nowSeconds + lifetime });
    else this.#cache.delete(cacheKey);
    return client;
  }

  /**
   * The answer for a document that could not be used. A problem with a document that names itself is
   * the client's to fix and is said as is; anything else (the connection, TLS, the address, the
   * status, the type) is one of the fixed phrases, with the detail logged under a reference.
   */
  #refusal(clientId: string, error: unknown): OAuthError {
    if (error instanceof OAuthError) return error;
    const publicReason = error instanceof ClientMetadataFailure ? error.publicReason : CLIENT_METADATA_FAILURES.fetch;
    const reference = crypto.randomUUID();
    const detail = error instanceof Error ? error.message : String(error);
    (this.#policy.log ?? console.warn)(`[${reference}] client metadata document ${clientId}: ${detail}`);
    return fail(clientId, `${publicReason} (reference ${reference})`);
  }

  #remember(cacheKey: string, entry: { client: ClientRecord; until: number } | { failure: string; until: number }): void {
    if (this.#cache.size >= CACHE_MAX_ENTRIES) this.#cache.clear();
    this.#cache.set(cacheKey, entry);
  }

  async #admit(key: string, rule: RateLimitRule, scope: string, nowSeconds: number): Promise<void> {
    const decision = await consume(this.#policy.limits(), key, rule, nowSeconds * 1000);
    if (!decision.allowed)
      throw new OAuthError(
        'rate_limited',
        decision.contended
          ? busyText('Fetching client metadata documents is')
          : `Too many client metadata documents fetched ${scope} (at most ${rule.limit} per ${rule.windowSeconds} s); retry in ${decision.retryAfterSeconds} s.`,
        { headers: { 'retry-after': String(decision.retryAfterSeconds) } },
      );
  }
}
