/**
 * Client authentication at the token and revocation endpoints (RFC 6749 §2.3). A confidential
 * client sends its secret with HTTP Basic or in the form body (`client_secret_post`), whichever it
 * registered: both carry the same secret over TLS, and clients differ in their default (the
 * contract and openid-client post it, oauth4webapi's examples and the MCP SDK use Basic), so
 * refusing one would only break clients. A public client (`none`) sends `client_id` alone.
 * @module
 */
import { mediaTypeOf, readBody } from '../../kernel/respond.ts';
import type { Store } from '../../kernel/store.ts';
import { type ClientLookupDeps, findClient } from './client-lookup.ts';
import { clientKey, idleLifetimeSeconds, isExpired, type ClientRecord } from './clients.ts';
import { bodyTooLargeError, contentCodingError, OAuthError } from '../errors.ts';
import { sha256Hex, timingSafeEqual } from '../../kernel/crypto.ts';

const BASIC_CHALLENGE = 'Basic realm="oauth", charset="UTF-8"';

/** Largest token or revocation request body. */
export const OAUTH_FORM_LIMIT_BYTES = 16 * 1024;

/** Reads an `application/x-www-form-urlencoded` body; a repeated parameter is `invalid_request` (RFC 6749 §3.2). */
export async function readOAuthForm(req: Request, limitBytes = OAUTH_FORM_LIMIT_BYTES): Promise<Map<string, string>> {
  if (mediaTypeOf(req) !== 'application/x-www-form-urlencoded')
    throw new OAuthError('invalid_request', 'Send the parameters as application/x-www-form-urlencoded.');
  const read = await readBody(req, limitBytes);
  if (!read.ok && read.problem === 'encoded') throw contentCodingError(read.coding);
  if (!read.ok && read.problem === 'too-large') throw bodyTooLargeError(limitBytes);
  if (!read.ok) throw new OAuthError('invalid_request', 'The body is not valid UTF-8.');
  const form = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(read.text)) {
    if (form.has(name)) throw new OAuthError('invalid_request', `Parameter ${name} appears more than once.`);
    form.set(name, value);
  }
  return form;
}

function decodeBasic(header: string): { id: string; secret: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!match) return null;
  let decoded: string;
  try {
    decoded = atob(match[1]!);
  } catch {
    return null;
  }
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  try {
    return {
      id: decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' ')),
      secret: decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' ')),
    };
  } catch {
    return null;
  }
}

/**
 * Authenticates the client of a token or revocation request. Failures are 401 `invalid_client`,
 * with `WWW-Authenticate: Basic` when the client used Basic.
 */
export async function authenticateClient(
  req: Request,
  form: Map<string, string>,
  deps: ClientLookupDeps & { nowSeconds: number },
): Promise<ClientRecord> {
  const header = req.headers.get('authorization');
  const basic = header ? decodeBasic(header) : null;
  if (header && !basic)
    throw new OAuthError('invalid_client', 'The Authorization header is not valid HTTP Basic.', {
      headers: { 'www-authenticate': BASIC_CHALLENGE },
    });
  if (basic && (form.has('client_secret') || (form.has('client_id') && form.get('client_id') !== basic.id))) {
    throw new OAuthError('invalid_request', 'Use one client authentication method per request.');
  }
  const method = basic ? 'client_secret_basic' : form.has('client_secret') ? 'client_secret_post' : 'none';
  const clientId = basic?.id ?? form.get('client_id');
  const fail = (why: string): OAuthError =>
    new OAuthError('invalid_client', why, basic ? { headers: { 'www-authenticate': BASIC_CHALLENGE } } : {});
  if (!clientId) throw fail('Client authentication is required (HTTP Basic, or client_id with client_secret).');
  const client = await findClient(deps, clientId, deps.nowSeconds);
  if (!client || isExpired(client, deps.nowSeconds)) throw fail('Unknown or expired client.');
  const isPublic = client.token_endpoint_auth_method === 'none';
  if (isPublic && method !== 'none')
    throw fail('This is a public client (token_endpoint_auth_method "none"): send client_id alone, without a secret.');
  if (!isPublic && method === 'none')
    throw fail('This client must authenticate with its client_secret (HTTP Basic, or client_secret in the form body).');
  if (!isPublic) {
    const secret = basic?.secret ?? form.get('client_secret') ?? '';
    if (!client.client_secret_sha256 || !timingSafeEqual(await sha256Hex(secret), client.client_secret_sha256))
      throw fail('Client authentication failed.');
  }
  return client;
}

/** A use is recorded at most this often: rewriting on every request would be waste for a 30-day window. */
export const CLIENT_TOUCH_INTERVAL_SECONDS = 3600;
/** Compare-and-set attempts for a touch; losing them all only skips one bookkeeping write. */
const TOUCH_ATTEMPTS = 4;

/**
 * Records use of a client: registrations expire 30 days (a year once claimed) after their last use.
 * Only `last_used_at` and `expires_at` are written, over the record as stored now (compare-and-set),
 * so a claim approved at the same moment is never reverted by the copy read at authentication.
 */
export async function touchClient(store: Store, client: ClientRecord, nowSeconds: number): Promise<void> {
  // Metadata-document clients are not stored; their document is their registration.
  if (client.registration_type === 'metadata_document' || nowSeconds - client.last_used_at < CLIENT_TOUCH_INTERVAL_SECONDS) return;
  const key = clientKey(client.client_id);
  for (let attempt = 0; attempt < TOUCH_ATTEMPTS; attempt++) {
    const found = await store.get<ClientRecord>(key);
    if (!found || isExpired(found.value, nowSeconds) || nowSeconds - found.value.last_used_at < CLIENT_TOUCH_INTERVAL_SECONDS) return;
    const current = found.value;
    const touched: ClientRecord = { ...current, last_used_at: nowSeconds, expires_at: nowSeconds + idleLifetimeSeconds(current) };
    if ((await store.set(key, touched, { onlyIfMatch: found.etag })).modified) return;
  }
}
