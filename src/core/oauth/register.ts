/**
 * `POST /oauth/register`: anonymous dynamic client registration (RFC 7591), rate limited per IP.
 * @module
 */
import * as v from 'valibot';
import { readBodyText, mediaTypeOf } from '../http/respond.ts';
import { consume } from '../ratelimit/fixed-window.ts';
import type { Store } from '../storage/store.ts';
import { CLIENT_ID_PREFIX, type OAuthConfig, parseScope, SCOPES, UNCLAIMED_CLIENT_TTL_SECONDS } from './config.ts';
import { claimTokenKey } from './claim.ts';
import { clientKey, type ClientRecord } from './clients.ts';
import { OAuthError, oauthJson } from './errors.ts';
import { randomSecret, sha256Hex } from './secrets.ts';

/** Registrations per client IP and hour. */
export const REGISTRATION_RATE_LIMIT = { limit: 20, windowSeconds: 3600 } as const;
/** Largest registration request. */
export const REGISTRATION_BODY_LIMIT_BYTES = 8 * 1024;
/** How long a claim token can start the claim ceremony. */
export const CLAIM_TOKEN_TTL_SECONDS = 30 * 24 * 3600;

export const RegistrationSchema = v.object({
  client_name: v.optional(v.pipe(v.string('client_name must be a string'), v.trim(), v.maxLength(100, 'client_name must be at most 100 characters'))),
  grant_types: v.optional(v.pipe(v.array(v.string()), v.minLength(1, 'grant_types must not be empty'))),
  response_types: v.optional(v.array(v.string())),
  redirect_uris: v.optional(v.pipe(v.array(v.string()), v.maxLength(10, 'at most 10 redirect_uris'))),
  token_endpoint_auth_method: v.optional(v.string()),
  scope: v.optional(v.string('scope must be a space-separated string')),
});

/** Whether a redirect URI is allowed: https, or http on a loopback host (RFC 8252 §7.3); no fragment. */
export function isAllowedRedirectUri(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.hash || value.includes('#')) return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && ['127.0.0.1', '[::1]', 'localhost'].includes(url.hostname);
}

export interface RegisterDeps {
  config: OAuthConfig;
  clients: Store;
  limits: Store;
  clientIp: string;
  nowSeconds: () => number;
}

export async function handleRegister(req: Request, deps: RegisterDeps): Promise<Response> {
  if (req.method !== 'POST') throw new OAuthError('invalid_request', 'Use POST with a JSON body.', { status: 405, headers: { allow: 'POST, OPTIONS' } });
  if (mediaTypeOf(req) !== 'application/json') throw new OAuthError('invalid_client_metadata', 'Send the client metadata as application/json (RFC 7591 §3.1).');
  let text: string;
  try {
    text = await readBodyText(req, REGISTRATION_BODY_LIMIT_BYTES);
  } catch {
    throw new OAuthError('invalid_client_metadata', `The body must be UTF-8 JSON of at most ${REGISTRATION_BODY_LIMIT_BYTES} bytes.`, { status: 400 });
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new OAuthError('invalid_client_metadata', 'The body is not valid JSON.');
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new OAuthError('invalid_client_metadata', 'The body must be a JSON object.');
  const parsed = v.safeParse(RegistrationSchema, raw);
  if (!parsed.success) throw new OAuthError('invalid_client_metadata', `${v.getDotPath(parsed.issues[0]) ?? 'body'}: ${parsed.issues[0].message}`);
  const meta = parsed.output;

  const grantTypes = meta.grant_types ?? ['authorization_code'];
  const badGrant = grantTypes.find((g) => g !== 'client_credentials' && g !== 'authorization_code');
  if (badGrant) throw new OAuthError('invalid_client_metadata', `grant_types: "${badGrant}" is not supported; use client_credentials and/or authorization_code.`);
  const method = meta.token_endpoint_auth_method ?? 'client_secret_basic';
  if (method !== 'client_secret_basic' && method !== 'client_secret_post' && method !== 'none') {
    throw new OAuthError('invalid_client_metadata', `token_endpoint_auth_method "${method}" is not supported; use client_secret_basic, client_secret_post or none.`);
  }
  if (method === 'none' && grantTypes.includes('client_credentials')) {
    throw new OAuthError('invalid_client_metadata', 'A public client (token_endpoint_auth_method "none") cannot use client_credentials.');
  }
  const responseTypes = meta.response_types ?? (grantTypes.includes('authorization_code') ? ['code'] : []);
  if (responseTypes.some((r) => r !== 'code') || (grantTypes.includes('authorization_code') && !responseTypes.includes('code'))) {
    throw new OAuthError('invalid_client_metadata', 'response_types must be ["code"] with authorization_code (and empty otherwise).');
  }
  const redirectUris = [...new Set(meta.redirect_uris ?? [])];
  if (grantTypes.includes('authorization_code') && redirectUris.length === 0) {
    throw new OAuthError('invalid_redirect_uri', 'redirect_uris is required for authorization_code.');
  }
  const badRedirect = redirectUris.find((u) => !isAllowedRedirectUri(u));
  if (badRedirect) throw new OAuthError('invalid_redirect_uri', `redirect_uri "${badRedirect}" must be https, or http on a loopback address, without a fragment.`);
  const { known, unknown } = parseScope(meta.scope ?? SCOPES.join(' '));
  if (unknown.length) throw new OAuthError('invalid_client_metadata', `scope: unknown scope ${unknown.map((s) => `"${s}"`).join(', ')}; supported: ${SCOPES.join(' ')}.`);
  if (known.length === 0) throw new OAuthError('invalid_client_metadata', `scope must name at least one of: ${SCOPES.join(' ')}.`);

  const now = deps.nowSeconds();
  const decision = await consume(deps.limits, `register/${await sha256Hex(deps.clientIp)}`, REGISTRATION_RATE_LIMIT, now * 1000);
  if (!decision.allowed) {
    throw new OAuthError('rate_limited', `At most ${REGISTRATION_RATE_LIMIT.limit} registrations per hour per client; retry in ${decision.retryAfterSeconds} s.`, { headers: { 'retry-after': String(decision.retryAfterSeconds) } });
  }

  const clientId = `${CLIENT_ID_PREFIX}${randomSecret(18)}`;
  const secret = method === 'none' ? null : randomSecret(32);
  const claimToken = `clm_${randomSecret(24)}`;
  const record: ClientRecord = {
    client_id: clientId,
    client_secret_sha256: secret ? await sha256Hex(secret) : null,
    client_name: meta.client_name || 'Unnamed agent',
    grant_types: grantTypes as ClientRecord['grant_types'],
    response_types: responseTypes as ClientRecord['response_types'],
    redirect_uris: redirectUris,
    token_endpoint_auth_method: method,
    scope: known,
    client_id_issued_at: now,
    registration_type: 'anonymous',
    claim: { status: 'unclaimed', token_sha256: await sha256Hex(claimToken), token_expires_at: now + CLAIM_TOKEN_TTL_SECONDS },
    expires_at: now + UNCLAIMED_CLIENT_TTL_SECONDS,
    last_used_at: now,
  };
  // The claim-token index first: if the client record then fails, the orphan index points nowhere and the sweep removes it.
  await deps.clients.set(claimTokenKey(record.claim.token_sha256!), { client_id: clientId }, { onlyIfNew: true });
  const written = await deps.clients.set(clientKey(clientId), record, { onlyIfNew: true });
  if (!written.modified) throw new OAuthError('server_error', 'Client id collision; register again.', { status: 500 });

  return oauthJson({
    client_id: clientId,
    ...(secret ? { client_secret: secret, client_secret_expires_at: 0 } : {}),
    client_id_issued_at: now,
    client_name: record.client_name,
    grant_types: record.grant_types,
    response_types: record.response_types,
    redirect_uris: record.redirect_uris,
    token_endpoint_auth_method: record.token_endpoint_auth_method,
    scope: record.scope.join(' '),
    registration_type: 'anonymous',
    claim_token: claimToken,
    claim_token_expires: record.claim.token_expires_at,
    claim_url: deps.config.endpoints.claim,
    pre_claim_scopes: record.scope,
    post_claim_scopes: record.scope,
  }, 201);
}
