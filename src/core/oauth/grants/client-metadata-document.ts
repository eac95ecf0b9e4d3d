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
import { isLoopbackOrigin, LOOPBACK_HOSTNAMES } from '../../kernel/origin.ts';
import { OAuthError } from '../errors.ts';
import { intersectScope, SCOPES } from '../config.ts';
import { type ClientRecord, type GrantType, plainClientName } from './clients.ts';
import { redirectUriProblem } from './redirect-uris.ts';

/** Largest document accepted (the draft suggests a small limit; real documents are well under 2 KB). */
export const CLIENT_METADATA_MAX_BYTES = 5 * 1024;
/** Time allowed for the whole fetch. */
export const CLIENT_METADATA_TIMEOUT_MS = 3000;
/** A document is reused for at most this long, whatever its Cache-Control says. */
export const CLIENT_METADATA_MAX_CACHE_SECONDS = 24 * 3600;
/** Without caching headers a document is reused this long. */
export const CLIENT_METADATA_DEFAULT_CACHE_SECONDS = 300;

/** Whether a `client_id` is meant as a metadata document URL (rather than a registered `agt_…` id). */
export function isClientIdUrl(clientId: string): boolean {
  return /^https?:\/\//i.test(clientId);
}

/** Why `clientId` cannot be used as a metadata document URL by the server at `issuer`, or null. */
export function clientIdUrlProblem(clientId: string, issuer: string): string | null {
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
  if (url.protocol === 'http:' && isLoopbackOrigin(issuer) && LOOPBACK_HOSTNAMES.includes(url.hostname)) return null;
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

/** Fetches a document URL with the SSRF limits; throws an Error whose message says why it refused. */
export type ClientMetadataFetcher = (url: string) => Promise<FetchedDocument>;

const fail = (url: string, why: string): OAuthError =>
  new OAuthError('invalid_client', `The client metadata document at ${url} cannot be used: ${why}.`);

/** Turns a fetched document into the client it describes; throws `invalid_client` saying what is wrong. */
export function clientFromDocument(url: string, fetched: FetchedDocument, nowSeconds: number): ClientRecord {
  if (fetched.status !== 200) throw fail(url, `it answered HTTP ${fetched.status}`);
  if (!/^application\/(?:[\w.+-]*\+)?json\b/i.test(fetched.contentType ?? '')) throw fail(url, 'its Content-Type is not JSON');
  let doc: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(fetched.body);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
    doc = parsed as Record<string, unknown>;
  } catch {
    throw fail(url, 'it is not a JSON object');
  }
  if (doc.client_id !== url) throw fail(url, 'its client_id is not exactly its URL');
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
  if (plainClientName(name) !== name) throw fail(url, 'client_name contains control or bidirectional-formatting characters');
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

/**
 * Resolves metadata-document clients through the fetcher, keeping each document as long as its
 * HTTP caching allows (per instance). Failed fetches are not cached.
 */
export class ClientMetadataResolver {
  readonly #fetch: ClientMetadataFetcher;
  readonly #issuer: string;
  readonly #cache = new Map<string, { client: ClientRecord; until: number }>();

  constructor(fetcher: ClientMetadataFetcher, issuer: string) {
    this.#fetch = fetcher;
    this.#issuer = issuer;
  }

  async resolve(clientId: string, nowSeconds: number): Promise<ClientRecord> {
    const problem = clientIdUrlProblem(clientId, this.#issuer);
    if (problem) throw new OAuthError('invalid_client', `A URL client_id ${problem}.`);
    const cached = this.#cache.get(clientId);
    if (cached && cached.until > nowSeconds) return cached.client;
    let fetched: FetchedDocument;
    try {
      fetched = await this.#fetch(clientId);
    } catch (error) {
      throw fail(clientId, error instanceof Error ? error.message : 'the fetch failed');
    }
    const client = clientFromDocument(clientId, fetched, nowSeconds);
    const lifetime = cacheLifetimeSeconds(fetched.cacheControl);
    if (lifetime > 0) {
      if (this.#cache.size > 1000) this.#cache.clear(); // bounded: documents are cheap to fetch again
      this.#cache.set(clientId, { client, until: nowSeconds + lifetime });
    }
    return client;
  }
}
