/**
 * The authorization server in the OpenAPI document: registration, token, revocation, the consent
 * page, the claim ceremony, the JWKS and the RFC 8414 / RFC 9728 metadata, with every status the
 * handlers in src/core/oauth answer with. Paths come from {@link OAUTH_PATHS}.
 * @module
 */
import * as v from 'valibot';
import { jsonSchemaOf } from '../kernel/json-schema.ts';
import { CLAIM_START_RATE_LIMIT } from '../oauth/endpoints/claim.ts';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  AUTHORIZATION_CODE_TTL_SECONDS,
  CLAIM_ATTEMPT_TTL_SECONDS,
  CLAIM_POLL_INTERVAL_SECONDS,
  CLIENT_ID_PREFIX,
  OAUTH_PATHS,
  oauthConfig,
  SCOPES,
} from '../oauth/config.ts';
import { authorizationServerMetadata, protectedResourceMetadata } from '../oauth/endpoints/metadata.ts';
import { OAUTH_FORM_LIMIT_BYTES } from '../oauth/grants/client-auth.ts';
import { AUTH_METHODS, GRANT_TYPES } from '../oauth/grants/clients.ts';
import { REGISTRATION_BODY_LIMIT_BYTES, REGISTRATION_RATE_LIMIT, RegistrationSchema } from '../oauth/endpoints/register.ts';
import { type JsonSchema, html, json, oauthError, objectSchema, response, schemaRef, shapeOf, unexpected } from './openapi-components.ts';

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
const postOnly = oauthError(['invalid_request'], 'A method other than POST or OPTIONS.', ['Allow']);
/** What the token and revocation endpoints share: client authentication and the form reader. */
const clientAuthenticatedErrors = {
  '401': oauthError(['invalid_client'], 'Client authentication failed.', ['WWW-Authenticate-Basic']),
  '405': postOnly,
  '413': oauthError(['invalid_request'], `Body over ${OAUTH_FORM_LIMIT_BYTES} bytes.`),
  '500': unexpected.oauth,
};

export function oauthSchemas(origin: string, siteName: string): Record<string, JsonSchema> {
  const config = oauthConfig(origin);
  const pending = { status: { const: 'pending' }, client_id: { type: 'string' }, expires_in: { type: 'integer' }, interval: { type: 'integer' } };
  return {
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
    AuthorizationServerMetadata: { description: 'RFC 8414 metadata with the `agent_auth` block.', ...shapeOf(authorizationServerMetadata(config)) },
    ProtectedResourceMetadata: { description: 'RFC 9728 metadata.', ...shapeOf(protectedResourceMetadata(config, config.mcpResource, siteName)) },
  };
}

/** A public document served with ETag/304 and a 405 in OAuth error JSON. */
function metadataOperation(operationId: string, summary: string, description: string, schema: string): JsonSchema {
  return {
    get: {
      operationId,
      tags: ['oauth'],
      security: [],
      summary,
      description: `${description} Cached for minutes with a strong \`ETag\`; \`If-None-Match\` answers 304.`,
      responses: {
        '200': response('The document.', json(schemaRef(schema)), ['ETag', 'Cache-Control', 'Access-Control-Allow-Origin']),
        '304': response('Not modified: `If-None-Match` matched the `ETag`.', undefined, ['ETag']),
        '405': oauthError(['invalid_request'], 'A method other than GET, HEAD or OPTIONS.', ['Allow']),
      },
    },
  };
}

const formBody = (schema: JsonSchema): JsonSchema => ({ required: true, content: { 'application/x-www-form-urlencoded': { schema } } });

export function oauthPaths(): Record<string, JsonSchema> {
  return {
    [OAUTH_PATHS.register]: {
      post: {
        operationId: 'registerClient',
        tags: ['oauth'],
        security: [],
        summary: 'Register an anonymous agent (RFC 7591)',
        description: `No account needed. JSON of at most ${REGISTRATION_BODY_LIMIT_BYTES} bytes. Returns \`client_id\`, \`client_secret\` (once) and a one-time \`claim_token\`. ${REGISTRATION_RATE_LIMIT.limit} registrations per ${REGISTRATION_RATE_LIMIT.windowSeconds} s per IP.`,
        requestBody: { required: true, content: { 'application/json': { schema: schemaRef('ClientMetadata') } } },
        'x-examples': [{ method: 'POST', path: OAUTH_PATHS.register, headers: { 'content-type': 'application/json' }, body: '{"client_name":"my agent","grant_types":["client_credentials"],"scope":"content:export"}' }],
        responses: {
          '201': response('Registered.', json(schemaRef('ClientInformation'))),
          '400': oauthError(['invalid_client_metadata', 'invalid_redirect_uri'], 'Invalid metadata, a body that is not a JSON object (or too large), or a content type other than JSON.'),
          '405': postOnly,
          '429': oauthError(['rate_limited'], 'Too many registrations from this client.', ['Retry-After']),
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
        requestBody: formBody(schemaRef('TokenRequest')),
        'x-examples': [{ method: 'POST', path: OAUTH_PATHS.token, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `grant_type=client_credentials&client_id=${CLIENT_ID_PREFIX}…&client_secret=…&scope=content%3Aexport` }],
        responses: {
          '200': response('The token.', json(schemaRef('TokenResponse')), ['Cache-Control']),
          '400': oauthError(['invalid_request', 'invalid_grant', 'unauthorized_client', 'unsupported_grant_type', 'invalid_scope', 'invalid_target'], 'RFC 6749 §5.2 (also a wrong content type, a repeated parameter or a query string: `invalid_request`).'),
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
        description: 'Client-authenticated like the token endpoint. 200 with `{}` also for unknown, foreign or expired tokens (RFC 7009 §2.2); a revoked access token is refused by /mcp until it would have expired; a revoked refresh token ends its grant. `token_type_hint` is only a hint: an unknown value is ignored.',
        requestBody: formBody(
          objectSchema(
            { token: { type: 'string' }, token_type_hint: { type: 'string', examples: ['access_token', 'refresh_token'] }, client_id: { type: 'string' }, client_secret: { type: 'string' } },
            ['token_type_hint', 'client_id', 'client_secret'],
          ),
        ),
        responses: {
          '200': response('Revoked, or nothing to revoke: an empty JSON object.', json({ type: 'object', maxProperties: 0 })),
          '400': oauthError(['invalid_request'], '`token` missing, a wrong content type or a repeated parameter.'),
          ...clientAuthenticatedErrors,
        },
      },
    },
    [OAUTH_PATHS.authorize]: {
      get: {
        operationId: 'authorize',
        tags: ['oauth'],
        security: [],
        summary: 'Authorization endpoint with a consent page (HTML)',
        description: 'Authorization code with PKCE S256 only. Unknown client or unregistered `redirect_uri`: an error page, never a redirect. Other errors: 303 to the redirect URI with `error`, `state` and `iss` (RFC 9207). Otherwise an HTML consent page whose Approve / Deny form posts back here.',
        parameters: ['response_type', 'client_id', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method', 'resource'].map((name) => ({
          name,
          in: 'query',
          required: ['response_type', 'client_id', 'code_challenge', 'code_challenge_method'].includes(name),
          description: name === 'redirect_uri' ? 'Required when the client registered more than one.' : `RFC 6749 / RFC 7636 / RFC 8707 \`${name}\`.`,
          schema: name === 'response_type' ? { const: 'code' } : name === 'code_challenge_method' ? { const: 'S256' } : { type: 'string' },
        })),
        responses: {
          '200': response('The consent page (sets a cookie that binds the form to this browser).', html),
          '303': response('Back to the client with `error`, `state` and `iss`.', undefined, ['Location']),
          '400': response('Error page: unknown client, unregistered or missing `redirect_uri`, or a repeated `client_id` / `redirect_uri`.', html),
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
        description: 'The consent form posts `ticket` and `decision`; the ticket must match the cookie set with the page (CSRF) and the request must come from this origin. Answers 303 to the client with `code` (or `error=access_denied`), `state` and `iss`.',
        requestBody: formBody(objectSchema({ ticket: { type: 'string' }, decision: { enum: ['approve', 'deny'] } })),
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
        description: `\`{"claim_token"}\` starts a claim: a \`user_code\` and a \`verification_uri\` for a person to approve (${CLAIM_ATTEMPT_TTL_SECONDS} s). \`{"claim_attempt_id"}\` polls (at most every ${CLAIM_POLL_INTERVAL_SECONDS} s) until \`status\` is \`claimed\`. Claimed registrations no longer expire. ${CLAIM_START_RATE_LIMIT.limit} starts per ${CLAIM_START_RATE_LIMIT.windowSeconds} s per IP.`,
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: { type: 'object', description: 'Exactly one of the two.', properties: { claim_token: { type: 'string', pattern: '^clm_' }, claim_attempt_id: { type: 'string', pattern: '^cla_' } } },
            },
          },
        },
        'x-examples': [{ method: 'POST', path: OAUTH_PATHS.claim, headers: { 'content-type': 'application/json' }, body: '{"claim_token":"clm_…"}' }],
        responses: {
          '200': response('Started, pending or claimed.', json(schemaRef('ClaimStatus')), ['Cache-Control']),
          '400': oauthError(['invalid_request', 'invalid_claim_token', 'invalid_claim_attempt', 'slow_down'], 'Malformed body, neither or both fields, an unknown token or attempt, or polling too fast (`slow_down`, with `Retry-After`).'),
          '403': oauthError(['access_denied'], 'The person denied the claim.'),
          '405': postOnly,
          '409': oauthError(['already_claimed'], 'The registration is already claimed.'),
          '410': oauthError(['expired_claim_token', 'expired_claim_attempt'], 'The claim token or attempt expired.'),
          '415': oauthError(['invalid_request'], 'Content type other than JSON.'),
          '429': oauthError(['rate_limited'], 'Too many claim starts from this client.', ['Retry-After']),
          '500': unexpected.oauth,
          '503': oauthError(['temporarily_unavailable'], 'The registration was busy; retry shortly.'),
        },
      },
    },
    [OAUTH_PATHS.jwks]: metadataOperation('jwks', 'Public signing keys (JWKS)', 'RS256 keys with `kid`; after a rotation the previous key stays for an hour.', 'JsonWebKeySet'),
    [OAUTH_PATHS.asMetadata]: metadataOperation('authorizationServerMetadata', 'RFC 8414 metadata with agent_auth', 'Every endpoint, grant, auth method, scope, and the `agent_auth` block.', 'AuthorizationServerMetadata'),
    [OAUTH_PATHS.prmRoot]: metadataOperation('siteResourceMetadata', 'RFC 9728 metadata of the site', '`resource` is the origin.', 'ProtectedResourceMetadata'),
    [OAUTH_PATHS.prmMcp]: metadataOperation('protectedResourceMetadata', 'RFC 9728 metadata of the MCP server', '`resource` is `<origin>/mcp`, the audience of access tokens.', 'ProtectedResourceMetadata'),
  };
}
