/**
 * `POST /oauth/register`: anonymous dynamic client registration (RFC 7591), rate limited per client network.
 * @module
 */
import * as v from 'valibot';
import { readBody, mediaTypeOf } from '../../kernel/respond.ts';
import { parseClientJson, TOO_DEEP_MESSAGE } from '../../kernel/json-body.ts';
import { busyText, consume, consumeShared } from '../../kernel/rate-limit.ts';
import type { Store } from '../../kernel/store.ts';
import { setExpiring } from '../../kernel/expiry.ts';
import { CLIENT_ID_PREFIX, intersectScope, type OAuthConfig, SCOPES, UNCLAIMED_CLIENT_TTL_SECONDS } from '../config.ts';
import { claimTokenKey } from './claim.ts';
import type { Usage } from '../../kernel/metrics.ts';
import {
  AUTH_METHODS,
  type AuthMethod,
  clientKey,
  type ClientRecord,
  type DescriptiveMetadata,
  GRANT_TYPES,
  type GrantType,
  clientNameProblem,
} from '../grants/clients.ts';
import { redirectUriProblem } from '../grants/redirect-uris.ts';
import { bodyTooLargeError, contentCodingError, OAuthError, oauthJson } from '../errors.ts';
import { randomSecret, sha256Hex } from '../../kernel/crypto.ts';

/** Registrations per client network (an IPv4 address or an IPv6 /64) and hour. */
export const REGISTRATION_RATE_LIMIT = { limit: 20, windowSeconds: 3600 } as const;
/** Registrations per client network and day: what one anonymous network can store, whatever its hourly pace. */
export const REGISTRATION_DAILY_LIMIT = { limit: 100, windowSeconds: 86_400 } as const;
/**
 * Registrations per day from everyone together: a ceiling on what strangers can make this site store
 * (each record is kept 30 days unused). Reached, registration answers 503 with Retry-After until the
 * day's window ends; nothing already registered is affected.
 */
export const REGISTRATION_GLOBAL_DAILY_LIMIT = { limit: 10_000, windowSeconds: 86_400 } as const;
/** Windows the site-wide count is spread over, so concurrent registrations rarely contend (kernel/rate-limit.ts consumeShared). */
const REGISTRATION_GLOBAL_SHARDS = 16;
/** Largest registration request. */
export const REGISTRATION_BODY_LIMIT_BYTES = 8 * 1024;
/** How long a claim token can start the claim ceremony. */
export const CLAIM_TOKEN_TTL_SECONDS = 30 * 24 * 3600;

const DESCRIPTIVE_TEXT_MAX_LENGTH = 200;

const optionalText = (name: string) =>
  v.optional(
    v.pipe(
      v.string(`${name} must be a string`),
      v.trim(),
      v.maxLength(DESCRIPTIVE_TEXT_MAX_LENGTH, `${name} must be at most ${DESCRIPTIVE_TEXT_MAX_LENGTH} characters`),
    ),
  );
/** `client_uri`, `logo_uri`: web addresses (echoed back, never fetched or linked as verified). */
const optionalWebUrl = (name: string) =>
  v.optional(
    v.pipe(
      v.string(`${name} must be a string`),
      v.maxLength(2048, `${name} must be at most 2048 characters`),
      v.check((value) => {
        try {
          return ['https:', 'http:'].includes(new URL(value).protocol);
        } catch {
          return false;
        }
      }, `${name} must be an http(s) URL`),
    ),
  );

/**
 * RFC 7591 §2 client metadata. Members not listed here are ignored, as §2 requires of metadata a
 * server does not understand (MCP clients also send e.g. `contacts` or `tos_uri`).
 */
export const RegistrationSchema = v.object({
  client_name: v.optional(
    v.pipe(
      v.string('client_name must be a string'),
      v.trim(),
      v.maxLength(100, 'client_name must be at most 100 characters'),
      v.check(
        (name) => clientNameProblem(name) === null,
        (issue) => clientNameProblem(String(issue.input)) ?? '',
      ),
    ),
  ),
  grant_types: v.optional(v.pipe(v.array(v.string('grant_types must be strings')), v.minLength(1, 'grant_types must not be empty'))),
  response_types: v.optional(v.array(v.string('response_types must be strings'))),
  redirect_uris: v.optional(v.pipe(v.array(v.string('redirect_uris must be strings')), v.maxLength(10, 'at most 10 redirect_uris'))),
  token_endpoint_auth_method: v.optional(v.string('token_endpoint_auth_method must be a string')),
  scope: v.optional(v.string('scope must be a space-separated string')),
  application_type: v.optional(v.picklist(['web', 'native'], 'application_type must be "web" or "native"')),
  client_uri: optionalWebUrl('client_uri'),
  logo_uri: optionalWebUrl('logo_uri'),
  software_id: optionalText('software_id'),
  software_version: optionalText('software_version'),
});

export interface RegisterDeps {
  config: OAuthConfig;
  clients: Store;
  limits: Store;
  /** Keyed digest of the client's network, an IPv4 address or IPv6 /64 (kernel/ip-ranges.ts, ip-digest.ts): no address reaches the core. */
  clientNetworkDigest: string;
  nowSeconds: () => number;
  /** What this request counts (kernel/metrics.ts). */
  usage?: Pick<Usage, 'count'>;
}

export async function handleRegister(req: Request, deps: RegisterDeps): Promise<Response> {
  if (req.method !== 'POST')
    throw new OAuthError('invalid_request', 'Use POST with a JSON body.', { status: 405, headers: { allow: 'POST, OPTIONS' } });
  if (mediaTypeOf(req) !== 'application/json')
    throw new OAuthError('invalid_client_metadata', 'Send the client metadata as application/json (RFC 7591 §3.1).');
  const body = await readBody(req, REGISTRATION_BODY_LIMIT_BYTES);
  if (!body.ok && body.problem === 'encoded') throw contentCodingError(body.coding);
  if (!body.ok && body.problem === 'too-large') throw bodyTooLargeError(REGISTRATION_BODY_LIMIT_BYTES);
  if (!body.ok) throw new OAuthError('invalid_client_metadata', 'The body is not valid UTF-8.');
  const read = parseClientJson(body.text);
  if (!read.ok)
    throw new OAuthError(
      'invalid_client_metadata',
      read.problem === 'too-deep' ? `The body is refused: ${TOO_DEEP_MESSAGE}.` : 'The body is not valid JSON.',
    );
  const raw = read.value;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new OAuthError('invalid_client_metadata', 'The body must be a JSON object.');
  const parsed = v.safeParse(RegistrationSchema, raw);
  if (!parsed.success)
    throw new OAuthError('invalid_client_metadata', `${v.getDotPath(parsed.issues[0]) ?? 'body'}: ${parsed.issues[0].message}`);
  const meta = parsed.output;

  const grantTypes = [...new Set(meta.grant_types ?? ['authorization_code'])];
  const badGrant = grantTypes.find((g) => !(GRANT_TYPES as readonly string[]).includes(g));
  if (badGrant)
    throw new OAuthError('invalid_client_metadata', `grant_types: "${badGrant}" is not supported; use ${GRANT_TYPES.join(', ')}.`);
  if (grantTypes.includes('refresh_token') && !grantTypes.includes('authorization_code')) {
    throw new OAuthError(
      'invalid_client_metadata',
      'grant_types: refresh_token is issued only with authorization_code; client_credentials clients ask for a new token instead.',
    );
  }
  const method = meta.token_endpoint_auth_method ?? 'client_secret_basic';
  if (!(AUTH_METHODS as readonly string[]).includes(method)) {
    throw new OAuthError(
      'invalid_client_metadata',
      `token_endpoint_auth_method "${method}" is not supported; use ${AUTH_METHODS.join(', ')}.`,
    );
  }
  if (method === 'none' && grantTypes.includes('client_credentials')) {
    throw new OAuthError('invalid_client_metadata', 'A public client (token_endpoint_auth_method "none") cannot use client_credentials.');
  }
  const responseTypes = [...new Set(meta.response_types ?? (grantTypes.includes('authorization_code') ? ['code'] : []))];
  if (responseTypes.some((r) => r !== 'code') || (grantTypes.includes('authorization_code') && !responseTypes.includes('code'))) {
    throw new OAuthError('invalid_client_metadata', 'response_types must be ["code"] with authorization_code (and empty otherwise).');
  }
  const redirectUris = [...new Set(meta.redirect_uris ?? [])];
  if (grantTypes.includes('authorization_code') && redirectUris.length === 0) {
    throw new OAuthError('invalid_redirect_uri', 'redirect_uris is required for authorization_code.');
  }
  for (const uri of redirectUris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new OAuthError('invalid_redirect_uri', `redirect_uri "${uri}" ${problem}.`);
  }
  const scope = intersectScope(SCOPES, meta.scope);
  if (!scope) throw new OAuthError('invalid_client_metadata', `scope must name at least one of: ${SCOPES.join(' ')}.`);

  const descriptive: DescriptiveMetadata = Object.fromEntries(
    (['application_type', 'client_uri', 'logo_uri', 'software_id', 'software_version'] as const)
      .filter((k) => meta[k])
      .map((k) => [k, meta[k]]),
  );
  const now = deps.nowSeconds();
  for (const [key, rule, per] of [
    [`register/${deps.clientNetworkDigest}`, REGISTRATION_RATE_LIMIT, 'per hour'],
    [`register-day/${deps.clientNetworkDigest}`, REGISTRATION_DAILY_LIMIT, 'per day'],
  ] as const) {
    const decision = await consume(deps.limits, key, rule, now * 1000);
    if (!decision.allowed) {
      throw new OAuthError(
        'rate_limited',
        decision.contended
          ? busyText('Registration is')
          : `At most ${rule.limit} registrations ${per} per client network (an IPv4 address or an IPv6 /64); retry in ${decision.retryAfterSeconds} s.`,
        { headers: { 'retry-after': String(decision.retryAfterSeconds) } },
      );
    }
  }
  const everyone = await consumeShared(
    deps.limits,
    'register-all',
    REGISTRATION_GLOBAL_DAILY_LIMIT,
    REGISTRATION_GLOBAL_SHARDS,
    now * 1000,
  );
  if (everyone.contended)
    throw new OAuthError('rate_limited', busyText('Registration is'), { headers: { 'retry-after': String(everyone.retryAfterSeconds) } });
  if (!everyone.allowed) {
    throw new OAuthError(
      'temporarily_unavailable',
      `This site has taken all the anonymous registrations it accepts today (${REGISTRATION_GLOBAL_DAILY_LIMIT.limit}); retry in ${everyone.retryAfterSeconds} s. Existing registrations keep working.`,
      { headers: { 'retry-after': String(everyone.retryAfterSeconds) } },
    );
  }

  const clientId = `${CLIENT_ID_PREFIX}${randomSecret(18)}`;
  const secret = method === 'none' ? null : randomSecret(32);
  const claimToken = `clm_${randomSecret(24)}`;
  const record: ClientRecord = {
    client_id: clientId,
    client_secret_sha256: secret ? await sha256Hex(secret) : null,
    client_name: meta.client_name || 'Unnamed agent',
    grant_types: grantTypes as GrantType[],
    response_types: responseTypes as ClientRecord['response_types'],
    redirect_uris: redirectUris,
    token_endpoint_auth_method: method as AuthMethod,
    scope,
    ...descriptive,
    client_id_issued_at: now,
    registration_type: 'anonymous',
    claim: { status: 'unclaimed', token_sha256: await sha256Hex(claimToken), token_expires_at: now + CLAIM_TOKEN_TTL_SECONDS },
    expires_at: now + UNCLAIMED_CLIENT_TTL_SECONDS,
    last_used_at: now,
  };
  // The claim-token index first: if the client record then fails, the orphan index points nowhere and the sweep removes it.
  await setExpiring(deps.clients, claimTokenKey(record.claim.token_sha256!), { client_id: clientId }, record.expires_at!, {
    onlyIfNew: true,
  });
  const written = await setExpiring(deps.clients, clientKey(clientId), record, record.expires_at!, { onlyIfNew: true });
  if (!written.modified) throw new OAuthError('server_error', 'Client id collision; register again.', { status: 500 });
  deps.usage?.count('oauth.registration.dcr');

  return oauthJson(
    {
      client_id: clientId,
      ...(secret ? { client_secret: secret, client_secret_expires_at: 0 } : {}),
      client_id_issued_at: now,
      client_name: record.client_name,
      grant_types: record.grant_types,
      response_types: record.response_types,
      redirect_uris: record.redirect_uris,
      token_endpoint_auth_method: record.token_endpoint_auth_method,
      scope: record.scope.join(' '),
      ...descriptive,
      registration_type: 'anonymous',
      claim_token: claimToken,
      claim_token_expires: record.claim.token_expires_at,
      claim_url: deps.config.endpoints.claim,
      pre_claim_scopes: record.scope,
      post_claim_scopes: record.scope,
    },
    201,
  );
}
