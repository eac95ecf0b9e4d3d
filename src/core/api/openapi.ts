/**
 * The OpenAPI 3.1 description of every HTTP endpoint, generated from the valibot schemas the
 * handlers validate with. `/openapi.json` and the `/docs/api` page (HTML and markdown) are both
 * built from {@link openApiDocument}, so the description cannot drift from the code.
 * @module
 */
import type { GenericSchema } from 'valibot';
import { entryPointList } from '../discovery/entry-points.ts';
import { jsonSchemaOf } from '../http/json-schema.ts';
import { ProblemSchema } from '../http/problem.ts';
import { CONTACT_BODY_LIMIT_BYTES, CONTACT_RATE_LIMIT, ContactAcceptedSchema, ContactRequestSchema } from './contact.ts';
import { HealthSchema } from './health.ts';
import { SEARCH_CACHE_CONTROL, SearchQuerySchema, SearchResultSchema } from './search.ts';
import { TweetFeedSchema } from './tweets.ts';
import { OAUTH_PATHS, SCOPE_DESCRIPTIONS } from '../oauth/config.ts';
import { RegistrationSchema } from '../oauth/register.ts';
import { DEFAULT_RESULT_LIMIT, MAX_QUERY_CHARS, MAX_RESULT_LIMIT } from '../search/search-index.ts';
import { absoluteUrl, paths } from '../site/paths.ts';

/** Version of the HTTP API (not of the site). */
export const API_VERSION = '1.0.0';

type JsonSchema = Record<string, unknown>;


/** The properties of an object schema as OpenAPI query parameters. */
function queryParameters(schema: GenericSchema, descriptions: Record<string, string>): JsonSchema[] {
  const object = jsonSchemaOf(schema, 'input') as { properties: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(object.properties).map(([name, property]) => ({
    name,
    in: 'query',
    required: object.required?.includes(name) ?? false,
    description: descriptions[name] ?? '',
    schema: property,
  }));
}

const problem = (description: string): JsonSchema => ({ description, content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } });
const oauthError = (description: string): JsonSchema => ({ description, content: { 'application/json': { schema: { type: 'object', required: ['error'], properties: { error: { type: 'string' }, error_description: { type: 'string' } } } } } });
const cors = { 'Access-Control-Allow-Origin': { description: 'Always `*`: public read API.', schema: { type: 'string' } } };

/** An example request per operation, rendered as curl on the docs page. */
export interface OperationExample {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/** Builds the document for `origin` (the server URL). */
export function openApiDocument(origin: string, siteName: string): JsonSchema {
  return {
    openapi: '3.1.0',
    info: {
      title: `${siteName} public API`,
      version: API_VERSION,
      description: `Search the ${siteName} library (Chinese and English), read the AI-industry feed, send an enquiry, check health, and use the MCP server. /api errors are RFC 9457 problem documents; /mcp speaks JSON-RPC 2.0.`,
      contact: { name: siteName, url: `${origin}/contact` },
    },
    servers: [{ url: origin }],
    tags: [
      { name: 'content', description: 'Search and feeds' },
      { name: 'contact', description: 'Enquiries' },
      { name: 'agents', description: 'Model Context Protocol server' },
      { name: 'oauth', description: 'Authorization server for anonymous agents' },
      { name: 'operations', description: 'Health' },
    ],
    paths: {
      '/api/search': {
        get: {
          operationId: 'searchArticles',
          tags: ['content'],
          summary: 'Search articles and solutions',
          description: `BM25 over a build-time index: Chinese as character bigrams, English stemmed, mixed queries work; the last English word matches as a prefix and longer words tolerate typos. Results are best first. \`q\`: 1 to ${MAX_QUERY_CHARS} characters; \`limit\`: 1 to ${MAX_RESULT_LIMIT}, default ${DEFAULT_RESULT_LIMIT}.`,
          parameters: queryParameters(SearchQuerySchema, { q: 'Search text in Chinese, English or both.', limit: `Maximum results (1-${MAX_RESULT_LIMIT}).` }),
          'x-examples': [{ method: 'GET', path: '/api/search?q=%E7%A7%81%E6%9C%89%E5%8C%96%E9%83%A8%E7%BD%B2%20LLM&limit=3' }],
          responses: {
            '200': {
              description: `Results, best first. \`Cache-Control: ${SEARCH_CACHE_CONTROL}\`.`,
              headers: cors,
              content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/SearchResult' } } } },
            },
            '400': problem('`q` missing, blank or too long, or `limit` out of range; `invalid_params` names the parameter.'),
            '405': problem('Method other than GET, HEAD or OPTIONS (`Allow` lists them).'),
          },
        },
      },
      '/api/tweets': {
        get: {
          operationId: 'getTweets',
          tags: ['content'],
          summary: 'AI-industry feed',
          description: 'Newest first. Refreshed hourly from the configured upstream; a build-time snapshot answers until a live feed is stored. `X-Feed-Source` says which (`live` or `snapshot`).',
          'x-examples': [{ method: 'GET', path: '/api/tweets' }],
          responses: {
            '200': { description: 'The feed.', headers: cors, content: { 'application/json': { schema: { $ref: '#/components/schemas/TweetFeed' } } } },
            '405': problem('Method other than GET, HEAD or OPTIONS.'),
          },
        },
      },
      '/api/contact': {
        post: {
          operationId: 'sendEnquiry',
          tags: ['contact'],
          summary: 'Send an enquiry',
          description: `JSON or form-encoded, at most ${CONTACT_BODY_LIMIT_BYTES} bytes. ${CONTACT_RATE_LIMIT.limit} accepted enquiry per ${CONTACT_RATE_LIMIT.windowSeconds} s per client IP; invalid submissions do not count. The answer comes only after the enquiry is stored. A form post from a browser (\`Accept: text/html\`) gets a 303 to the thank-you page, or the form again with the errors.`,
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: { $ref: '#/components/schemas/ContactRequest' } },
              'application/x-www-form-urlencoded': { schema: { $ref: '#/components/schemas/ContactRequest' } },
            },
          },
          'x-examples': [{ method: 'POST', path: '/api/contact', headers: { 'content-type': 'application/json' }, body: '{"name":"Li Wei","email":"li.wei@example.com","company":"Example Bank","message":"We want a sizing workshop for 70B models."}' }],
          responses: {
            '200': { description: 'Stored.', content: { 'application/json': { schema: { $ref: '#/components/schemas/ContactAccepted' } } } },
            '303': { description: 'Browser form post accepted: redirect to the thank-you page.' },
            '400': problem('Invalid fields, one `invalid_params` entry per field; malformed JSON.'),
            '405': problem('Method other than POST or OPTIONS.'),
            '413': problem(`Body over ${CONTACT_BODY_LIMIT_BYTES} bytes.`),
            '415': problem('Content type other than JSON or form-encoded.'),
            '429': { ...problem('Limit reached; `Retry-After` says when to try again.'), headers: { 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } } } },
          },
        },
      },
      '/mcp': {
        post: {
          operationId: 'mcp',
          tags: ['agents'],
          security: [{}, { bearer: [] }, { oauth2: ['content:export'] }],
          summary: 'MCP server (JSON-RPC 2.0 over Streamable HTTP)',
          description: 'Stateless Model Context Protocol endpoint for both protocol eras: the handshake era (`initialize`, 2025-03-26, 2025-06-18, 2025-11-25) and 2026-07-28 (`server/discover`, per-request `_meta`, `MCP-Protocol-Version` / `Mcp-Method` / `Mcp-Name` headers). Tools: `search_articles`, `get_article`, `list_products`, `get_company_info` (public) and `export_article_index` (OAuth scope `content:export`). Send `Accept: application/json, text/event-stream`; answers are JSON. `GET` and `DELETE` answer 405.',
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { type: 'object', required: ['jsonrpc', 'method'], properties: { jsonrpc: { const: '2.0' }, id: { type: ['string', 'integer'] }, method: { type: 'string' }, params: { type: 'object' } } } } },
          },
          'x-examples': [{ method: 'POST', path: '/mcp', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_articles","arguments":{"query":"agent 编排","limit":3}}}' }],
          responses: {
            '200': { description: 'A JSON-RPC response (results, tool errors with `isError`, and handshake-era protocol errors).', content: { 'application/json': { schema: { type: 'object' } } } },
            '202': { description: 'A notification or response was accepted (no body).' },
            '400': { description: 'Malformed JSON (-32700), not JSON-RPC or a batch (-32600), modern header or `_meta` problems (-32020, -32602), unsupported protocol version (-32022).', content: { 'application/json': { schema: { type: 'object' } } } },
            '401': { description: '`export_article_index` without a valid access token: `WWW-Authenticate: Bearer resource_metadata=…, scope="content:export"` and a tool error in the body.', content: { 'application/json': { schema: { type: 'object' } } } },
            '403': { description: 'Origin not allowed (DNS-rebinding protection).' },
            '404': { description: 'Unknown or removed method in the 2026-07-28 era (-32601).' },
            '405': { description: 'GET or DELETE (`Allow: POST`).' },
            '406': { description: '`Accept` excludes application/json.' },
            '413': { description: 'Body over 1 MiB.' },
            '415': { description: 'Content type other than application/json.' },
          },
        },
      },
      '/oauth/register': {
        post: {
          operationId: 'registerClient',
          tags: ['oauth'],
          summary: 'Register an anonymous agent (RFC 7591)',
          description: 'No account needed. Returns `client_id`, `client_secret` (once) and a one-time `claim_token`. Errors are RFC 7591 `invalid_client_metadata` / `invalid_redirect_uri`; 20 registrations per hour per IP.',
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/ClientMetadata' } } } },
          'x-examples': [{ method: 'POST', path: '/oauth/register', headers: { 'content-type': 'application/json' }, body: '{"client_name":"my agent","grant_types":["client_credentials"],"token_endpoint_auth_method":"client_secret_basic"}' }],
          responses: {
            '201': { description: 'Registered.', content: { 'application/json': { schema: { type: 'object' } } } },
            '400': oauthError('Invalid metadata.'),
            '429': oauthError('Too many registrations from this client (`Retry-After`).'),
          },
        },
      },
      '/oauth/token': {
        post: {
          operationId: 'token',
          tags: ['oauth'],
          summary: 'Get an access token (RFC 6749)',
          description: '`grant_type=client_credentials` with HTTP Basic or `client_secret_post`, or `grant_type=authorization_code` with `code`, `redirect_uri`, `code_verifier` (PKCE S256) and `client_id` (public clients). Optional `scope` (client_credentials) and `resource` (RFC 8707, default the MCP server). RS256 JWT, `expires_in` 3600. A code is single use and valid 60 s; a replay revokes the token issued from it. Errors per RFC 6749 §5.2; a failed Basic authentication is 401 with `WWW-Authenticate: Basic`.',
          security: [{ clientBasic: [] }, {}],
          requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', required: ['grant_type'], properties: { grant_type: { enum: ['client_credentials', 'authorization_code'] }, scope: { type: 'string' }, resource: { type: 'string', format: 'uri' }, client_id: { type: 'string' }, client_secret: { type: 'string' }, code: { type: 'string' }, redirect_uri: { type: 'string', format: 'uri' }, code_verifier: { type: 'string', pattern: '^[A-Za-z0-9._~-]{43,128}$' } } } } } },
          'x-examples': [{ method: 'POST', path: '/oauth/token', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: 'Basic <base64 client_id:client_secret>' }, body: 'grant_type=client_credentials&scope=content%3Aexport' }],
          responses: {
            '200': { description: 'The token.', content: { 'application/json': { schema: { type: 'object', required: ['access_token', 'token_type', 'expires_in', 'scope'], properties: { access_token: { type: 'string' }, token_type: { const: 'Bearer' }, expires_in: { type: 'integer' }, scope: { type: 'string' } } } } } },
            '400': oauthError('invalid_request, invalid_grant, unauthorized_client, unsupported_grant_type, invalid_scope, invalid_target.'),
            '401': oauthError('invalid_client.'),
          },
        },
      },
      '/oauth/revoke': {
        post: {
          operationId: 'revoke',
          tags: ['oauth'],
          summary: 'Revoke an access token (RFC 7009)',
          description: 'Client-authenticated. 200 also for unknown tokens.',
          security: [{ clientBasic: [] }, {}],
          requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', required: ['token'], properties: { token: { type: 'string' }, token_type_hint: { enum: ['access_token', 'refresh_token'] } } } } } },
          responses: { '200': { description: 'Revoked (or nothing to revoke).' }, '400': oauthError('invalid_request, unsupported_token_type.'), '401': oauthError('invalid_client.') },
        },
      },
      '/oauth/authorize': {
        get: {
          operationId: 'authorize',
          tags: ['oauth'],
          summary: 'Authorization endpoint with a consent page (HTML)',
          description: 'Authorization code with PKCE S256 only. Unknown client or unregistered `redirect_uri`: 400 error page, never a redirect. Other errors: 303 to the redirect URI with `error`, `state` and `iss` (RFC 9207). Otherwise an HTML consent page whose Approve / Deny form posts back here and answers 303 with `code`, `state` and `iss`, or `error=access_denied`.',
          parameters: ['response_type', 'client_id', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method', 'resource'].map((name) => ({ name, in: 'query', required: ['response_type', 'client_id', 'code_challenge', 'code_challenge_method'].includes(name), schema: name === 'response_type' ? { const: 'code' } : name === 'code_challenge_method' ? { const: 'S256' } : { type: 'string' } })),
          responses: { '200': { description: 'The consent page.', content: { 'text/html': {} } }, '303': { description: 'Back to the client with an error.' }, '400': { description: 'Error page (bad client or redirect URI).', content: { 'text/html': {} } } },
        },
      },
      '/oauth/claim': {
        post: {
          operationId: 'claim',
          tags: ['oauth'],
          summary: 'Claim an anonymous registration (start or poll)',
          description: '`{"claim_token"}` starts a claim: a `user_code` and a `verification_uri` for a person to approve (10 minutes). `{"claim_attempt_id"}` polls (at most every 5 s) until `status` is `claimed`. Claimed registrations no longer expire. Errors: `invalid_request`, `invalid_claim_token`, `expired_claim_token` (410), `already_claimed` (409), `invalid_claim_attempt`, `expired_claim_attempt` (410), `access_denied` (403), `slow_down`, `rate_limited` (429).',
          requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', properties: { claim_token: { type: 'string', pattern: '^clm_' }, claim_attempt_id: { type: 'string', pattern: '^cla_' } } } } } },
          'x-examples': [{ method: 'POST', path: '/oauth/claim', headers: { 'content-type': 'application/json' }, body: '{"claim_token":"clm_…"}' }],
          responses: {
            '200': { description: 'Started, pending or claimed.', content: { 'application/json': { schema: { type: 'object', required: ['status'], properties: { status: { enum: ['pending', 'claimed'] }, client_id: { type: 'string' }, claim_attempt_id: { type: 'string' }, user_code: { type: 'string' }, verification_uri: { type: 'string', format: 'uri' }, verification_uri_complete: { type: 'string', format: 'uri' }, expires_in: { type: 'integer' }, interval: { type: 'integer' } } } } } },
            '400': oauthError('invalid_request, invalid_claim_token, invalid_claim_attempt, slow_down.'),
            '403': oauthError('access_denied.'),
            '409': oauthError('already_claimed.'),
            '410': oauthError('expired_claim_token, expired_claim_attempt.'),
            '415': oauthError('invalid_request (not JSON).'),
            '429': oauthError('rate_limited (`Retry-After`).'),
          },
        },
      },
      '/oauth/jwks.json': {
        get: { operationId: 'jwks', tags: ['oauth'], summary: 'Public signing keys (JWKS)', description: 'RS256 keys with `kid`; ETag and 304.', responses: { '200': { description: 'The key set.', content: { 'application/json': { schema: { type: 'object' } } } } } },
      },
      '/.well-known/oauth-authorization-server': {
        get: { operationId: 'authorizationServerMetadata', tags: ['oauth'], summary: 'RFC 8414 metadata with agent_auth', description: 'Every endpoint, grant, auth method, scope, and the `agent_auth` block.', responses: { '200': { description: 'Metadata.', content: { 'application/json': { schema: { type: 'object' } } } } } },
      },
      '/.well-known/oauth-protected-resource/mcp': {
        get: { operationId: 'protectedResourceMetadata', tags: ['oauth'], summary: 'RFC 9728 metadata of the MCP server', description: '`resource` is `<origin>/mcp`; the root document describes the origin.', responses: { '200': { description: 'Metadata.', content: { 'application/json': { schema: { type: 'object' } } } } } },
      },
      '/health': {
        get: {
          operationId: 'getHealth',
          tags: ['operations'],
          summary: 'Health and build facts',
          description: 'Checks the search index and a Blobs round trip. `Cache-Control: no-store`.',
          'x-examples': [{ method: 'GET', path: '/health' }],
          responses: {
            '200': { description: 'All checks pass.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Health' } } } },
            '503': { description: 'A check failed (`status: "degraded"`).', content: { 'application/json': { schema: { $ref: '#/components/schemas/Health' } } } },
          },
        },
      },
    },
    components: {
      securitySchemes: {
        oauth2: {
          type: 'oauth2',
          description: `Anonymous agents register at ${OAUTH_PATHS.register} first (RFC 7591; guide: ${paths.authMd}).`,
          flows: {
            clientCredentials: { tokenUrl: absoluteUrl(origin, OAUTH_PATHS.token), scopes: { ...SCOPE_DESCRIPTIONS } },
            authorizationCode: { authorizationUrl: absoluteUrl(origin, OAUTH_PATHS.authorize), tokenUrl: absoluteUrl(origin, OAUTH_PATHS.token), scopes: { ...SCOPE_DESCRIPTIONS } },
          },
        },
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT (RFC 9068)' },
        clientBasic: { type: 'http', scheme: 'basic', description: 'client_id:client_secret at the token and revocation endpoints' },
      },
      schemas: {
        ClientMetadata: jsonSchemaOf(RegistrationSchema, 'input'),
        Problem: jsonSchemaOf(ProblemSchema),
        SearchResult: jsonSchemaOf(SearchResultSchema),
        TweetFeed: jsonSchemaOf(TweetFeedSchema),
        ContactRequest: jsonSchemaOf(ContactRequestSchema, 'input'),
        ContactAccepted: jsonSchemaOf(ContactAcceptedSchema),
        Health: jsonSchemaOf(HealthSchema),
      },
    },
  };
}

/** One documented operation, flattened for the docs page. */
export interface DocumentedOperation {
  method: string;
  path: string;
  operationId: string;
  summary: string;
  description: string;
  parameters: { name: string; required: boolean; description: string; schema: JsonSchema }[];
  requestTypes: string[];
  responses: { status: string; description: string }[];
  examples: OperationExample[];
}

/** The operations of a document in path order, for the docs page. */
export function documentedOperations(doc: JsonSchema): DocumentedOperation[] {
  const paths = doc.paths as Record<string, Record<string, JsonSchema>>;
  return Object.entries(paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      operationId: op.operationId as string,
      summary: op.summary as string,
      description: op.description as string,
      parameters: (op.parameters as DocumentedOperation['parameters'] | undefined) ?? [],
      requestTypes: Object.keys(((op.requestBody as JsonSchema | undefined)?.content as JsonSchema | undefined) ?? {}),
      responses: Object.entries(op.responses as Record<string, JsonSchema>).map(([status, r]) => ({ status, description: r.description as string })),
      examples: (op['x-examples'] as OperationExample[] | undefined) ?? [],
    })),
  );
}

/** A curl command line for an example. */
export function curlCommand(origin: string, example: OperationExample): string {
  const parts = ['curl', '-sS'];
  if (example.method !== 'GET') parts.push('-X', example.method);
  for (const [name, value] of Object.entries(example.headers ?? {})) parts.push('-H', `'${name}: ${value}'`);
  if (example.body) parts.push('-d', `'${example.body}'`);
  parts.push(`'${origin}${example.path}'`);
  return parts.join(' ');
}

/** The markdown twin of /docs/api. */
export function apiDocsMarkdown(origin: string, doc: JsonSchema): string {
  const info = doc.info as { title: string; version: string; description: string };
  const lines = [`# ${info.title}`, '', `> ${info.description}`, '', `- URL: ${origin}/docs/api`, `- Version: ${info.version}`, `- OpenAPI: ${origin}/openapi.json`, ''];
  for (const op of documentedOperations(doc)) {
    lines.push(`## ${op.method} ${op.path}: ${op.summary}`, '', op.description, '');
    if (op.parameters.length) {
      lines.push('| parameter | required | description |', '| --- | --- | --- |');
      for (const p of op.parameters) lines.push(`| \`${p.name}\` | ${p.required ? 'yes' : 'no'} | ${p.description} |`);
      lines.push('');
    }
    if (op.requestTypes.length) lines.push(`Request body: ${op.requestTypes.map((t) => `\`${t}\``).join(' or ')}.`, '');
    lines.push('| status | meaning |', '| --- | --- |', ...op.responses.map((r) => `| ${r.status} | ${r.description.replace(/\|/g, '\\|')} |`), '');
    for (const example of op.examples) lines.push('```sh', curlCommand(origin, example), '```', '');
  }
  lines.push('## Discovery for agents', '', entryPointList(origin), '');
  return lines.join('\n');
}
