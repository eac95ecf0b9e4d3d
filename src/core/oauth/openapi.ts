/**
 * The authorization server in the OpenAPI document: registration, token, revocation, the consent
 * page, the claim ceremony, the JWKS and the RFC 8414 / RFC 9728 metadata, with every status the
 * handlers in src/core/oauth answer with. Paths come from {@link OAUTH_PATHS}.
 * @module
 */
import * as v from 'valibot';
import { jsonSchemaOf } from '../kernel/json-schema.ts';
import { CLAIM_BODY_LIMIT_BYTES, CLAIM_START_RATE_LIMIT } from './endpoints/claim.ts';
import { REVOCATION_RATE_LIMIT } from './endpoints/revoke.ts';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  AUTHORIZATION_CODE_TTL_SECONDS,
  CLAIM_ATTEMPT_TTL_SECONDS,
  REGISTRATION_LIFETIME_TEXT,
  CLAIM_POLL_INTERVAL_SECONDS,
  CLIENT_ID_PREFIX,
  OAUTH_PATHS,
  oauthConfig,
  SCOPES,
} from './config.ts';
import { authorizationServerMetadata, protectedResourceMetadata } from './endpoints/metadata.ts';
import { OAUTH_FORM_LIMIT_BYTES } from './grants/client-auth.ts';
import { AUTH_METHODS, GRANT_TYPES } from './grants/clients.ts';
import {
  REGISTRATION_BODY_LIMIT_BYTES,
  REGISTRATION_DAILY_LIMIT,
  REGISTRATION_GLOBAL_DAILY_LIMIT,
  REGISTRATION_RATE_LIMIT,
  RegistrationSchema,
} from './endpoints/register.ts';
import { CLIENT_METADATA_FETCHES_PER_HOST, CLIENT_METADATA_FETCHES_PER_NETWORK } from './grants/client-metadata-document.ts';
import { MAX_LIVE_ACCESS_TOKENS_PER_GRANT } from './grants/grants.ts';
import { PUBLIC_DOCUMENT_METHODS } from '../kernel/document.ts';
import { bodyTooLargeError, OAuthError, type OAuthErrorCode, oauthErrorBody, serverError } from './errors.ts';
import { absoluteUrl } from '../kernel/paths.ts';
import {
  EXAMPLE_REQUEST_ID,
  type HeaderName,
  type JsonSchema,
  html,
  json,
  objectSchema,
  response,
  schemaRef,
  shapeOf,
} from '../kernel/openapi.ts';

/** An RFC 6749 §5.2 error body limited to `codes`; the example is the body sent for `example`. */
export const oauthError = (
  codes: readonly OAuthErrorCode[],
  description: string,
  example: OAuthError,
  headers: readonly HeaderName[] = [],
): JsonSchema =>
  response(description, json({ allOf: [schemaRef('OAuthError'), { properties: { error: { enum: [...codes] } } }] }), headers, {
    'application/json': oauthErrorBody(example),
  });

/** The 500 every OAuth endpoint can answer when a handler fails unexpectedly (logged with a request id). */
const unexpectedOAuth = oauthError(['server_error'], 'Unexpected failure (logged with a request id).', serverError(EXAMPLE_REQUEST_ID));
const unexpected = { oauth: unexpectedOAuth, html: response('Unexpected failure: an error page with a request id.', html) };

/**
 * RFC 7591 client metadata as the handler validates it; the two lists it checks after parsing
 * (grant types, auth methods) are stated as enums for generated clients.
 */
const ClientMetadataSchema = v.object({
  ...RegistrationSchema.entries,
  grant_types: v.optional(v.pipe(v.array(v.picklist(GRANT_TYPES)), v.minLength(1))),
  token_endpoint_auth_method: v.optional(v.picklist(AUTH_METHODS)),
});

const uri = { type: 'string', format: 'uri' };
const scopeString = { type: 'string', description: `Space-separated scopes: ${SCOPES.join(', ')}.` };
const scopeList = { type: 'array', items: { enum: [...SCOPES] } };
/** Allow on the OAuth POST endpoints (the 405 answers name POST and the preflight). */
const postOnly = (message: string): JsonSchema =>
  oauthError(
    ['invalid_request'],
    'A method other than POST or OPTIONS.',
    new OAuthError('invalid_request', message, { status: 405, headers: { allow: 'POST, OPTIONS' } }),
    ['Allow'],
  );
/** The 413 of an OAuth endpoint's body limit (the same on every one). */
const bodyTooLarge = (limitBytes: number) =>
  oauthError(['invalid_request'], `Body over ${limitBytes} bytes.`, bodyTooLargeError(limitBytes));

/** What the token and revocation endpoints share: client authentication and the form reader. */
const clientAuthenticatedErrors = {
  '401': oauthError(
    ['invalid_client'],
    'Client authentication failed.',
    new OAuthError('invalid_client', 'Client authentication failed: unknown client or wrong secret.'),
    ['WWW-Authenticate-Basic'],
  ),
  '405': postOnly('Use POST.'),
  '413': bodyTooLarge(OAUTH_FORM_LIMIT_BYTES),
  '429': oauthError(
    ['rate_limited'],
    `Too many client metadata documents fetched for this network or from the document's host (${CLIENT_METADATA_FETCHES_PER_NETWORK.limit} and ${CLIENT_METADATA_FETCHES_PER_HOST.limit} per ${CLIENT_METADATA_FETCHES_PER_NETWORK.windowSeconds} s), or, at the token endpoint, a refresh while the grant has ${MAX_LIVE_ACCESS_TOKENS_PER_GRANT} live access tokens (the refresh token stays valid).`,
    new OAuthError(
      'rate_limited',
      'This grant already has 20 live access tokens; use one of them, or refresh again in 1800 s. The refresh token stays valid.',
      {
        headers: { 'retry-after': '1800' },
      },
    ),
    ['Retry-After'],
  ),
  '500': unexpected.oauth,
};

/** Example values shared by the requests and responses below (shaped as the server makes them). */
const EXAMPLE = {
  clientId: `${CLIENT_ID_PREFIX}Q2h4bW9kZWxhZ2VudDE`,
  clientSecret: 'sYv1nq8mR0yX3cT5hA7dK2pW9eL4uJ6bF0gN8zM1iQ',
  claimToken: 'clm_Zr7xWq3mN8pL2vK9tY4cB6hJ',
  claimAttemptId: 'cla_Hd5sQ1wE7rT3yU9iO2pA6sDf',
  accessToken: 'eyJhbGciOiJSUzI1NiIsInR5cCI6ImF0K2p3dCIsImtpZCI6ImsxIn0.eyJpc3MiOiLigKYifQ.c2lnbmF0dXJl',
  refreshToken: 'rt_grt_c2l0ZS1leGFtcGxlLWdyYW50.8Jk2Lm4Np6Qr8St0Uv2Wx4Yz1Ab3Cd5Ef7Gh9Ij0Kl2Mn',
  redirectUri: 'http://127.0.0.1:33418/callback',
  codeVerifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
  codeChallenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
  issuedAt: 1_795_000_000,
} as const;

export function oauthSchemas(origin: string, siteName: string): Record<string, JsonSchema> {
  const config = oauthConfig(origin);
  const errorSchema = {
    type: 'object',
    description: 'RFC 6749 §5.2 error (also RFC 7009, RFC 7591 §3.2.2, RFC 8707 and the claim ceremony codes).',
    required: ['error', 'error_description'],
    additionalProperties: false,
    properties: { error: { type: 'string' }, error_description: { type: 'string' } },
  };
  const pending = {
    status: { const: 'pending' },
    client_id: { type: 'string' },
    expires_in: { type: 'integer' },
    interval: { type: 'integer' },
  };
  return {
    OAuthError: errorSchema,
    ClientMetadata: jsonSchemaOf(ClientMetadataSchema, 'input'),
    ClientInformation: {
      description: 'RFC 7591 §3.2.1 client information plus the one-time claim token (auth.md convention).',
      ...objectSchema(
        {
          client_id: { type: 'string', pattern: `^${CLIENT_ID_PREFIX}` },
          client_secret: { type: 'string', description: 'Shown once; absent for public clients (`none`).' },
          client_secret_expires_at: { const: 0 },
          client_id_issued_at: { type: 'integer' },
          client_name: { type: 'string' },
          grant_types: { type: 'array', items: { enum: [...GRANT_TYPES] } },
          response_types: { type: 'array', items: { const: 'code' } },
          redirect_uris: { type: 'array', items: uri },
          token_endpoint_auth_method: { enum: [...AUTH_METHODS] },
          scope: scopeString,
          registration_type: { const: 'anonymous' },
          claim_token: { type: 'string', pattern: '^clm_' },
          claim_token_expires: { type: 'integer', description: 'Unix time.' },
          claim_url: uri,
          pre_claim_scopes: scopeList,
          post_claim_scopes: scopeList,
          application_type: { enum: ['web', 'native'] },
          client_uri: uri,
          logo_uri: uri,
          software_id: { type: 'string' },
          software_version: { type: 'string' },
        },
        ['client_secret', 'client_secret_expires_at', 'application_type', 'client_uri', 'logo_uri', 'software_id', 'software_version'],
      ),
    },
    TokenRequest: {
      type: 'object',
      required: ['grant_type'],
      properties: {
        grant_type: { enum: [...GRANT_TYPES] },
        client_id: { type: 'string', description: 'With `client_secret` (client_secret_post), or alone for public clients.' },
        client_secret: { type: 'string' },
        scope: scopeString,
        resource: { ...uri, description: `RFC 8707 audience; only ${config.mcpResource}.` },
        code: { type: 'string', description: 'authorization_code grant.' },
        code_verifier: { type: 'string', pattern: '^[A-Za-z0-9._~-]{43,128}$', description: 'PKCE verifier (S256).' },
        redirect_uri: uri,
        refresh_token: { type: 'string', description: 'refresh_token grant.' },
      },
    },
    TokenResponse: objectSchema(
      {
        access_token: { type: 'string', description: 'RS256 JWT (RFC 9068, `typ: at+jwt`).' },
        token_type: { const: 'Bearer' },
        expires_in: { type: 'integer', description: `Seconds (${ACCESS_TOKEN_TTL_SECONDS}).` },
        scope: scopeString,
        refresh_token: { type: 'string', description: 'With the authorization_code and refresh_token grants.' },
      },
      ['refresh_token'],
    ),
    ClaimStatus: {
      description: 'A started claim (user code to show a person), a pending poll, or the claimed registration.',
      anyOf: [
        objectSchema({
          ...pending,
          claim_attempt_id: { type: 'string', pattern: '^cla_' },
          user_code: { type: 'string', pattern: '^[A-Z]{4}-[A-Z]{4}$' },
          verification_uri: uri,
          verification_uri_complete: uri,
        }),
        objectSchema(pending),
        objectSchema({ status: { const: 'claimed' }, client_id: { type: 'string' }, claimed_at: { type: ['integer', 'null'] } }),
      ],
    },
    JsonWebKeySet: objectSchema({
      keys: {
        type: 'array',
        minItems: 1,
        items: objectSchema({
          kty: { const: 'RSA' },
          n: { type: 'string' },
          e: { type: 'string' },
          kid: { type: 'string' },
          alg: { const: 'RS256' },
          use: { const: 'sig' },
        }),
      },
    }),
    AuthorizationServerMetadata: {
      description: 'RFC 8414 metadata with the `agent_auth` block.',
      ...shapeOf(authorizationServerMetadata(config)),
    },
    ProtectedResourceMetadata: {
      description: 'RFC 9728 metadata.',
      ...shapeOf(protectedResourceMetadata(config, config.mcpResource, siteName)),
    },
  };
}

/** A public document served with ETag/304 and a 405 in OAuth error JSON. */
function metadataOperation(operationId: string, summary: string, description: string, schema: string, example: unknown): JsonSchema {
  return {
    get: {
      operationId,
      tags: ['oauth'],
      security: [],
      summary,
      description: `${description} Cached for minutes with a strong \`ETag\`; \`If-None-Match\` answers 304.`,
      responses: {
        '200': response('The document.', json(schemaRef(schema)), ['ETag', 'Cache-Control', 'Access-Control-Allow-Origin'], {
          'application/json': example,
        }),
        '304': response('Not modified: `If-None-Match` matched the `ETag`.', undefined, ['ETag']),
        '405': oauthError(
          ['invalid_request'],
          'A method other than GET, HEAD or OPTIONS.',
          new OAuthError('invalid_request', 'Use GET.', { status: 405, headers: { allow: PUBLIC_DOCUMENT_METHODS.join(', ') } }),
          ['Allow'],
        ),
      },
    },
  };
}

/** A form-encoded request body with named examples (each shown as its own snippet). */
const formBody = (schema: JsonSchema, examples: Record<string, { summary: string; value: Record<string, string> }>): JsonSchema => ({
  required: true,
  content: { 'application/x-www-form-urlencoded': { schema, examples } },
});

/** What each authorization request parameter means (RFC 6749 §4.1.1, RFC 7636 §4.3, RFC 8707 §2). */
const authorizeParameters = (
  mcpResource: string,
): { name: string; required: boolean; description: string; schema: JsonSchema; example: string }[] => [
  {
    name: 'response_type',
    required: true,
    description: 'Always `code` (authorization code flow).',
    schema: { const: 'code' },
    example: 'code',
  },
  {
    name: 'client_id',
    required: true,
    description: `The \`client_id\` from registration (\`${CLIENT_ID_PREFIX}…\`), or the HTTPS URL of a client metadata document.`,
    schema: { type: 'string' },
    example: EXAMPLE.clientId,
  },
  {
    name: 'redirect_uri',
    required: false,
    description:
      'Where to send the answer: one of the registered redirect URIs, exactly. Required when the client registered more than one.',
    schema: { type: 'string', format: 'uri' },
    example: EXAMPLE.redirectUri,
  },
  {
    name: 'scope',
    required: false,
    description: `Space-separated scopes to ask for (${SCOPES.join(', ')}); default: every scope the client registered.`,
    schema: { type: 'string' },
    example: 'content:export',
  },
  {
    name: 'state',
    required: false,
    description: 'An opaque value returned unchanged with the answer; use it to bind the answer to the request (CSRF).',
    schema: { type: 'string' },
    example: 'af0ifjsldkj',
  },
  {
    name: 'code_challenge',
    required: true,
    description: 'PKCE: BASE64URL(SHA-256(code_verifier)), 43 characters.',
    schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{43}$' },
    example: EXAMPLE.codeChallenge,
  },
  {
    name: 'code_challenge_method',
    required: true,
    description: 'Always `S256`: plain PKCE is refused.',
    schema: { const: 'S256' },
    example: 'S256',
  },
  {
    name: 'resource',
    required: false,
    description: 'RFC 8707 audience of the token; only the MCP server (`<origin>/mcp`), which is also the default.',
    schema: { type: 'string', format: 'uri' },
    example: mcpResource,
  },
];

export function oauthPaths(origin: string, siteName: string): Record<string, JsonSchema> {
  const config = oauthConfig(origin);
  const tokenExample = (withRefresh: boolean): Record<string, unknown> => ({
    'application/json': {
      access_token: EXAMPLE.accessToken,
      token_type: 'Bearer',
      expires_in: ACCESS_TOKEN_TTL_SECONDS,
      scope: 'content:export',
      ...(withRefresh ? { refresh_token: EXAMPLE.refreshToken } : {}),
    },
  });
  return {
    [OAUTH_PATHS.register]: {
      post: {
        operationId: 'registerClient',
        tags: ['oauth'],
        security: [],
        summary: 'Register an anonymous agent (RFC 7591)',
        description: `No account needed. JSON of at most ${REGISTRATION_BODY_LIMIT_BYTES} bytes. Returns \`client_id\`, \`client_secret\` (once) and a one-time \`claim_token\`. ${REGISTRATION_RATE_LIMIT.limit} registrations an hour and ${REGISTRATION_DAILY_LIMIT.limit} a day per client network (an IPv4 address or an IPv6 /64), ${REGISTRATION_GLOBAL_DAILY_LIMIT.limit} a day site-wide. ${REGISTRATION_LIFETIME_TEXT}`,
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: schemaRef('ClientMetadata'),
              examples: {
                machine: {
                  summary: 'A machine client (client_credentials)',
                  value: { client_name: '研究助手 agent', grant_types: ['client_credentials'], scope: 'content:export' },
                },
                user: {
                  summary: 'An app acting for a person (authorization_code + PKCE, public client)',
                  value: {
                    client_name: 'Desktop agent',
                    grant_types: ['authorization_code', 'refresh_token'],
                    response_types: ['code'],
                    redirect_uris: [EXAMPLE.redirectUri],
                    token_endpoint_auth_method: 'none',
                    scope: 'content:export',
                  },
                },
              },
            },
          },
        },
        responses: {
          '201': response('Registered.', json(schemaRef('ClientInformation')), [], {
            'application/json': {
              client_id: EXAMPLE.clientId,
              client_secret: EXAMPLE.clientSecret,
              client_secret_expires_at: 0,
              client_id_issued_at: EXAMPLE.issuedAt,
              client_name: '研究助手 agent',
              grant_types: ['client_credentials'],
              response_types: [],
              redirect_uris: [],
              token_endpoint_auth_method: 'client_secret_basic',
              scope: 'content:export',
              registration_type: 'anonymous',
              claim_token: EXAMPLE.claimToken,
              claim_token_expires: EXAMPLE.issuedAt + 30 * 24 * 3600,
              claim_url: config.endpoints.claim,
              pre_claim_scopes: ['content:export'],
              post_claim_scopes: ['content:export'],
            },
          }),
          '400': oauthError(
            ['invalid_client_metadata', 'invalid_redirect_uri'],
            'Invalid metadata, a body that is not a JSON object, or a content type other than JSON.',
            new OAuthError('invalid_client_metadata', `scope must name at least one of: ${SCOPES.join(' ')}.`),
          ),
          '405': postOnly('Use POST with a JSON body.'),
          '413': bodyTooLarge(REGISTRATION_BODY_LIMIT_BYTES),
          '429': oauthError(
            ['rate_limited'],
            `Too many registrations from this client network: at most ${REGISTRATION_RATE_LIMIT.limit} an hour and ${REGISTRATION_DAILY_LIMIT.limit} a day per IPv4 address or IPv6 /64.`,
            new OAuthError(
              'rate_limited',
              `At most ${REGISTRATION_RATE_LIMIT.limit} registrations per hour per client network (an IPv4 address or an IPv6 /64); retry in 1200 s.`,
              { headers: { 'retry-after': '1200' } },
            ),
            ['Retry-After'],
          ),
          '503': oauthError(
            ['temporarily_unavailable'],
            `The site has taken all the anonymous registrations it accepts today (${REGISTRATION_GLOBAL_DAILY_LIMIT.limit}); existing registrations keep working.`,
            new OAuthError(
              'temporarily_unavailable',
              `This site has taken all the anonymous registrations it accepts today (${REGISTRATION_GLOBAL_DAILY_LIMIT.limit}); retry in 43200 s. Existing registrations keep working.`,
              { headers: { 'retry-after': '43200' } },
            ),
            ['Retry-After'],
          ),
          '500': unexpected.oauth,
        },
      },
    },
    [OAUTH_PATHS.token]: {
      post: {
        operationId: 'token',
        tags: ['oauth'],
        // HTTP Basic, or credentials in the form (client_secret_post) / public clients: no scheme.
        security: [{ clientBasic: [] }, {}],
        summary: 'Get an access token (RFC 6749)',
        description: `\`client_credentials\` (HTTP Basic or \`client_secret_post\`), \`authorization_code\` with \`code\`, \`redirect_uri\`, \`code_verifier\` (PKCE S256) and \`client_id\` for public clients, or \`refresh_token\`. Optional \`scope\` and \`resource\` (RFC 8707, default the MCP server). RS256 JWT, \`expires_in\` ${ACCESS_TOKEN_TTL_SECONDS}. A confidential client sends its secret with HTTP Basic or in the body, whichever it registered. The scope granted is the requested scopes the client registered (named in the response). A code is single use and valid ${AUTHORIZATION_CODE_TTL_SECONDS} s; a replay revokes its grant. Clients registered for \`refresh_token\` also get a rotated refresh token; presenting a spent one revokes the grant. Parameters go in the body, never the query string.`,
        requestBody: formBody(schemaRef('TokenRequest'), {
          client_credentials: {
            summary: 'Machine client, secret in the body (client_secret_post)',
            value: {
              grant_type: 'client_credentials',
              client_id: EXAMPLE.clientId,
              client_secret: EXAMPLE.clientSecret,
              scope: 'content:export',
            },
          },
          authorization_code: {
            summary: 'Public client: exchange the code (PKCE)',
            value: {
              grant_type: 'authorization_code',
              client_id: EXAMPLE.clientId,
              code: 'SplxlOBeZQQYbYS6WxSbIA',
              redirect_uri: EXAMPLE.redirectUri,
              code_verifier: EXAMPLE.codeVerifier,
            },
          },
          refresh_token: {
            summary: 'Rotate a refresh token',
            value: { grant_type: 'refresh_token', client_id: EXAMPLE.clientId, refresh_token: EXAMPLE.refreshToken },
          },
        }),
        responses: {
          '200': response('The token.', json(schemaRef('TokenResponse')), ['Cache-Control'], tokenExample(false)),
          '400': oauthError(
            ['invalid_request', 'invalid_grant', 'unauthorized_client', 'unsupported_grant_type', 'invalid_scope', 'invalid_target'],
            'RFC 6749 §5.2 (also a wrong content type, a repeated parameter or a query string: `invalid_request`).',
            new OAuthError(
              'invalid_grant',
              `The authorization code has expired (codes are valid for ${AUTHORIZATION_CODE_TTL_SECONDS} s).`,
            ),
          ),
          ...clientAuthenticatedErrors,
        },
      },
    },
    [OAUTH_PATHS.revoke]: {
      post: {
        operationId: 'revoke',
        tags: ['oauth'],
        security: [{ clientBasic: [] }, {}],
        summary: 'Revoke an access or refresh token (RFC 7009)',
        description: `Client-authenticated like the token endpoint. 200 with \`{}\` also for unknown, foreign, expired or already revoked tokens (RFC 7009 §2.2), which store nothing; a revoked access token is refused by /mcp until it would have expired; a revoked refresh token ends its grant. \`token_type_hint\` is only a hint: an unknown value is ignored. Listing an access token as revoked is limited to ${REVOCATION_RATE_LIMIT.limit} an hour per client network (429 \`rate_limited\` with Retry-After).`,
        requestBody: formBody(
          objectSchema(
            {
              token: { type: 'string', description: 'The access or refresh token to revoke.' },
              token_type_hint: {
                type: 'string',
                examples: ['access_token', 'refresh_token'],
                description: 'Which kind `token` is; only a hint.',
              },
              client_id: { type: 'string', description: 'With `client_secret` (client_secret_post), or alone for public clients.' },
              client_secret: { type: 'string' },
            },
            ['token_type_hint', 'client_id', 'client_secret'],
          ),
          {
            refresh_token: {
              summary: 'Revoke a refresh token (ends its grant)',
              value: { token: EXAMPLE.refreshToken, token_type_hint: 'refresh_token', client_id: EXAMPLE.clientId },
            },
          },
        ),
        responses: {
          '200': response('Revoked, or nothing to revoke: an empty JSON object.', json({ type: 'object', maxProperties: 0 }), [], {
            'application/json': {},
          }),
          '400': oauthError(
            ['invalid_request'],
            '`token` missing, a wrong content type or a repeated parameter.',
            new OAuthError('invalid_request', 'token is required.'),
          ),
          ...clientAuthenticatedErrors,
          '429': oauthError(
            ['rate_limited'],
            `Too many access tokens listed as revoked from this client network (${REVOCATION_RATE_LIMIT.limit} per ${REVOCATION_RATE_LIMIT.windowSeconds} s per IPv4 address or IPv6 /64; the token stays valid), or too many client metadata documents fetched (as at the token endpoint). A revocation that lists nothing (an unknown, foreign, expired or already revoked token, a refresh token) is never limited. Revocations sent at the same moment are all counted; one that still could not be counted is told the limit is busy, with \`Retry-After: 1\` (nothing of the allowance used).`,
            new OAuthError(
              'rate_limited',
              `At most ${REVOCATION_RATE_LIMIT.limit} access tokens revoked per hour per client network (an IPv4 address or an IPv6 /64); retry in 1200 s. The token stays valid until it expires.`,
              { headers: { 'retry-after': '1200' } },
            ),
            ['Retry-After'],
          ),
        },
      },
    },
    [OAUTH_PATHS.authorize]: {
      get: {
        operationId: 'authorize',
        tags: ['oauth'],
        security: [],
        summary: 'Authorization endpoint with a consent page (HTML)',
        description:
          'Open it in the browser of the person who approves. Authorization code with PKCE S256 only. Unknown client or unregistered `redirect_uri`: an error page, never a redirect. Other errors: 303 to the redirect URI with `error`, `state` and `iss` (RFC 9207). Otherwise an HTML consent page whose Approve / Deny form posts back here.',
        parameters: authorizeParameters(config.mcpResource).map(({ name, required, description, schema, example }) => ({
          name,
          in: 'query',
          required,
          description,
          schema,
          example,
        })),
        responses: {
          '200': response('The consent page (sets a cookie that binds the form to this browser).', html),
          '303': response('Back to the client with `error`, `state` and `iss`.', undefined, ['Location']),
          '400': response(
            'Error page: unknown client, unregistered or missing `redirect_uri`, or a repeated `client_id` / `redirect_uri`.',
            html,
          ),
          '405': response('Error page for a method other than GET, HEAD, POST.', html, ['Allow']),
          '414': response('Error page: the request is too long.', html),
          '500': unexpected.html,
        },
      },
      post: {
        operationId: 'answerConsent',
        tags: ['oauth'],
        security: [],
        summary: 'Approve or deny on the consent page (form post)',
        description:
          'The consent form posts `ticket` and `decision`; the ticket must match the cookie set with the page (CSRF) and the request must come from this origin. Answers 303 to the client with `code` (or `error=access_denied`), `state` and `iss`.',
        requestBody: formBody(
          objectSchema({
            ticket: { type: 'string', description: 'The hidden field of the consent page.' },
            decision: { enum: ['approve', 'deny'] },
          }),
          {
            approve: { summary: 'The person approves', value: { ticket: 'tkt_4Fh8Jd2Ks9Lq', decision: 'approve' } },
          },
        ),
        responses: {
          '303': response('Back to the client with `code` or `error=access_denied`, `state` and `iss`.', undefined, ['Location']),
          '400': response('Error page: no decision, a repeated field, or the client or redirect URI is no longer registered.', html),
          '403': response('Error page: the ticket or cookie is missing, expired or from another origin.', html),
          '413': response('Error page: the form is too large.', html),
          '415': response('Error page: not form-encoded.', html),
          '500': unexpected.html,
        },
      },
    },
    [OAUTH_PATHS.claim]: {
      post: {
        operationId: 'claim',
        tags: ['oauth'],
        security: [],
        summary: 'Claim an anonymous registration (start or poll)',
        description: `\`{"claim_token"}\` starts a claim: a \`user_code\` and a \`verification_uri\` for a person to approve (${CLAIM_ATTEMPT_TTL_SECONDS} s). \`{"claim_attempt_id"}\` polls (at most every ${CLAIM_POLL_INTERVAL_SECONDS} s) until \`status\` is \`claimed\`. ${REGISTRATION_LIFETIME_TEXT} ${CLAIM_START_RATE_LIMIT.limit} starts per ${CLAIM_START_RATE_LIMIT.windowSeconds} s per client network.`,
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                description: 'Exactly one of the two.',
                properties: {
                  claim_token: { type: 'string', pattern: '^clm_', description: 'From registration: starts a claim.' },
                  claim_attempt_id: { type: 'string', pattern: '^cla_', description: 'From a started claim: polls it.' },
                },
              },
              examples: {
                start: { summary: 'Start a claim', value: { claim_token: EXAMPLE.claimToken } },
                poll: { summary: 'Poll it', value: { claim_attempt_id: EXAMPLE.claimAttemptId } },
              },
            },
          },
        },
        responses: {
          '200': response('Started, pending or claimed.', json(schemaRef('ClaimStatus')), ['Cache-Control'], {
            'application/json': {
              status: 'pending',
              client_id: EXAMPLE.clientId,
              expires_in: CLAIM_ATTEMPT_TTL_SECONDS,
              interval: CLAIM_POLL_INTERVAL_SECONDS,
              claim_attempt_id: EXAMPLE.claimAttemptId,
              user_code: 'WDJB-MJHT',
              verification_uri: absoluteUrl(origin, OAUTH_PATHS.claim),
              verification_uri_complete: `${absoluteUrl(origin, OAUTH_PATHS.claim)}?user_code=WDJB-MJHT`,
            },
          }),
          '400': oauthError(
            ['invalid_request', 'invalid_claim_token', 'invalid_claim_attempt', 'slow_down'],
            'Malformed body, neither or both fields, an unknown token or attempt, or polling too fast (`slow_down`, with `Retry-After`).',
            new OAuthError('slow_down', `Poll at most every ${CLAIM_POLL_INTERVAL_SECONDS} s.`, { status: 400 }),
          ),
          '403': oauthError(
            ['access_denied'],
            'The person denied the claim.',
            new OAuthError('access_denied', 'The claim was denied on the verification page.', { status: 403 }),
          ),
          '405': postOnly('Use POST with a JSON body.'),
          '409': oauthError(
            ['already_claimed'],
            'The registration is already claimed.',
            new OAuthError('already_claimed', 'This registration is already claimed.', { status: 409 }),
          ),
          '410': oauthError(
            ['expired_claim_token', 'expired_claim_attempt'],
            'The claim token or attempt expired.',
            new OAuthError('expired_claim_attempt', 'The claim attempt expired; start a new one with the claim_token.', { status: 410 }),
          ),
          '413': bodyTooLarge(CLAIM_BODY_LIMIT_BYTES),
          '415': oauthError(
            ['invalid_request'],
            'Content type other than JSON.',
            new OAuthError('invalid_request', 'Send a JSON body (application/json).', { status: 415 }),
          ),
          '429': oauthError(
            ['rate_limited'],
            'Too many claim starts from this client.',
            new OAuthError('rate_limited', `At most ${CLAIM_START_RATE_LIMIT.limit} claim starts per hour; retry in 900 s.`),
            ['Retry-After'],
          ),
          '500': unexpected.oauth,
          '503': oauthError(
            ['temporarily_unavailable'],
            'The registration was busy; retry shortly.',
            new OAuthError('temporarily_unavailable', 'The registration is busy; retry shortly.'),
          ),
        },
      },
    },
    [OAUTH_PATHS.jwks]: metadataOperation(
      'jwks',
      'Public signing keys (JWKS)',
      'RS256 keys with `kid`; after a rotation the previous key stays for an hour.',
      'JsonWebKeySet',
      {
        keys: [
          {
            kty: 'RSA',
            n: 'sXchDaQebHnPiGvyDOAT4saGEUetSyo9MKLOoWFsueri23bOdgWp4Dy1WlUzewbgBHod5pcM9H95GQRV3JDXboIRROSBigeC5yjU1hGzHHyXss8UDprecbAYxknTcQkhslANGRUZmdTOQ5qTRsLAt6BTYuyvVRdhS8exSZEy_c4gs_7svlJJQ4H9_NxsiIoLwAEk7-Q3UXERGYw_75IDrGA84-lA_-Ct4eTlXHBIY2EaV7t7LjJaynVJCpkv4LKjTTAumiGUIuQhrNhZLuF_RJLqHpM2kgWFLU7-VTdL1VbC2tejvcI2BlMkEpk1BzBZI0KQB0GaDWFLN-aEAw3vRw',
            e: 'AQAB',
            kid: 'k1',
            alg: 'RS256',
            use: 'sig',
          },
        ],
      },
    ),
    [OAUTH_PATHS.asMetadata]: metadataOperation(
      'authorizationServerMetadata',
      'RFC 8414 metadata with agent_auth',
      'Every endpoint, grant, auth method, scope, and the `agent_auth` block.',
      'AuthorizationServerMetadata',
      authorizationServerMetadata(config),
    ),
    [OAUTH_PATHS.oidcMetadata]: metadataOperation(
      'authorizationServerMetadataOidcPath',
      'The RFC 8414 metadata where OpenID Connect discovery looks',
      'The same document as `/.well-known/oauth-authorization-server`, for clients that discover the OpenID way by default (oauth4webapi, openid-client). Not an OpenID provider: no ID tokens, no `openid` scope.',
      'AuthorizationServerMetadata',
      authorizationServerMetadata(config),
    ),
    [OAUTH_PATHS.prmRoot]: metadataOperation(
      'siteResourceMetadata',
      'RFC 9728 metadata of the site',
      '`resource` is the origin.',
      'ProtectedResourceMetadata',
      protectedResourceMetadata(config, origin, siteName),
    ),
    [OAUTH_PATHS.prmMcp]: metadataOperation(
      'protectedResourceMetadata',
      'RFC 9728 metadata of the MCP server',
      '`resource` is `<origin>/mcp`, the audience of access tokens.',
      'ProtectedResourceMetadata',
      protectedResourceMetadata(config, config.mcpResource, siteName),
    ),
  };
}
