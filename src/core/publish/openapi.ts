/**
 * The OpenAPI 3.1 description of every HTTP endpoint, generated from the valibot schemas the
 * handlers validate with. `/openapi.json` and the `/docs/api` page (HTML and markdown) are both
 * built from {@link openApiDocument}, so the description cannot drift from the code.
 * @module
 */
import type { Company } from '../content/catalog.ts';
import { indexPointer } from '../content/markdown.ts';
import { entryPointList } from './entry-points.ts';
import { jsonSchemaOf } from '../kernel/json-schema.ts';
import { OAUTH_PATHS, SCOPE_DESCRIPTIONS } from '../oauth/config.ts';
import { DEFAULT_RESULT_LIMIT, MAX_QUERY_CHARS, MAX_RESULT_LIMIT } from '../search/search-index.ts';
import { absoluteUrl, paths } from '../kernel/paths.ts';
import { CONTACT_BODY_LIMIT_BYTES, CONTACT_RATE_LIMIT, ContactAcceptedSchema, ContactRequestSchema } from '../contact/contact.ts';
import { HealthSchema } from '../health/health.ts';
import { HEADERS, type JsonSchema, html, json, problem, problemBody, queryParameters, response, schemaRef, sharedSchemas, unexpected } from './openapi-components.ts';
import { a2aPaths, a2aSchemas } from './openapi-a2a.ts';
import { mcpPaths, mcpSchemas } from './openapi-mcp.ts';
import { oauthPaths, oauthSchemas } from './openapi-oauth.ts';
import { SEARCH_CACHE_CONTROL, SearchQuerySchema, SearchResultSchema } from '../search/api.ts';
import { TWEETS_CACHE_CONTROL, TweetFeedSchema } from '../tweets/tweets.ts';

/** Version of the HTTP API (not of the site). */
export const API_VERSION = '1.0.0';

/** An example request per operation, rendered as curl on the docs page. */
export interface OperationExample {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/** 405 from `requireMethod`: a problem naming the allowed methods in `Allow`. */
const wrongMethod = (allowed: string): JsonSchema => problem(405, `A method other than ${allowed} (\`Allow\` lists them).`, ['Allow']);

/** `/api/*` and `/health`. */
function sitePaths(): Record<string, JsonSchema> {
  const health = (status: 'ok' | 'degraded'): Record<string, JsonSchema> => json({ allOf: [schemaRef('Health'), { properties: { status: { const: status } } }] });
  return {
    [paths.apiSearch]: {
      get: {
        operationId: 'searchArticles',
        tags: ['content'],
        security: [],
        summary: 'Search articles and solutions',
        description: `BM25 over a build-time index: Chinese as character bigrams, English stemmed, mixed queries work; the last English word matches as a prefix and longer words tolerate typos. Results are best first. \`q\`: 1 to ${MAX_QUERY_CHARS} characters; \`limit\`: 1 to ${MAX_RESULT_LIMIT}, default ${DEFAULT_RESULT_LIMIT}; each at most once.`,
        parameters: queryParameters(SearchQuerySchema, { q: 'Search text in Chinese, English or both.', limit: `Maximum results (1-${MAX_RESULT_LIMIT}, default ${DEFAULT_RESULT_LIMIT}).` }),
        'x-examples': [{ method: 'GET', path: `${paths.apiSearch}?q=%E7%A7%81%E6%9C%89%E5%8C%96%E9%83%A8%E7%BD%B2%20LLM&limit=3` }],
        responses: {
          '200': response(`Results, best first. \`Cache-Control: ${SEARCH_CACHE_CONTROL}\`.`, json({ type: 'array', items: schemaRef('SearchResult') }), ['Cache-Control', 'Access-Control-Allow-Origin']),
          '400': problem(400, '`q` missing, blank, too long or repeated, or `limit` not a whole number in range; `invalid_params` names the parameter.'),
          '405': wrongMethod('GET, HEAD or OPTIONS'),
          '500': unexpected.problem,
        },
      },
    },
    '/api/tweets': {
      get: {
        operationId: 'getTweets',
        tags: ['content'],
        security: [],
        summary: 'AI-industry feed',
        description: `Newest first. Refreshed hourly from the configured upstream; a build-time snapshot answers until a live feed is stored. \`X-Feed-Source\` says which (\`live\` or \`snapshot\`). \`Cache-Control: ${TWEETS_CACHE_CONTROL}\`.`,
        'x-examples': [{ method: 'GET', path: '/api/tweets' }],
        responses: {
          '200': response('The feed.', json(schemaRef('TweetFeed')), ['Cache-Control', 'Access-Control-Allow-Origin', 'X-Feed-Source']),
          '405': wrongMethod('GET, HEAD or OPTIONS'),
          '500': unexpected.problem,
        },
      },
    },
    '/api/contact': {
      post: {
        operationId: 'sendEnquiry',
        tags: ['contact'],
        security: [],
        summary: 'Send an enquiry',
        description: `JSON or form-encoded, at most ${CONTACT_BODY_LIMIT_BYTES} bytes. ${CONTACT_RATE_LIMIT.limit} accepted enquiry per ${CONTACT_RATE_LIMIT.windowSeconds} s per client IP; invalid submissions do not count. The answer comes only after the enquiry is stored. A form post from a browser (\`Accept: text/html\`) gets a 303 to the thank-you page, or the form again (HTML) with the errors.`,
        requestBody: {
          required: true,
          content: {
            'application/json': { schema: schemaRef('ContactRequest') },
            'application/x-www-form-urlencoded': { schema: schemaRef('ContactRequest') },
          },
        },
        'x-examples': [{ method: 'POST', path: '/api/contact', headers: { 'content-type': 'application/json' }, body: '{"name":"Li Wei","email":"li.wei@example.com","company":"Example Bank","message":"We want a sizing workshop for 70B models."}' }],
        responses: {
          '200': response('Stored.', json(schemaRef('ContactAccepted'))),
          '303': response('Browser form post accepted: the thank-you page.', undefined, ['Location']),
          '400': response('Invalid fields (one `invalid_params` entry per field), malformed JSON or not UTF-8; a browser form post gets the form again.', { ...problemBody(400), ...html }),
          '405': wrongMethod('POST or OPTIONS'),
          '413': problem(413, `Body over ${CONTACT_BODY_LIMIT_BYTES} bytes.`),
          '415': problem(415, 'Content type other than JSON or form-encoded.', ['Accept-Post']),
          '429': response('Limit reached (`retry_after` in seconds); a browser form post gets the form again with a notice.', { ...problemBody(429), ...html }, ['Retry-After']),
          '500': unexpected.problem,
        },
      },
    },
    [paths.health]: {
      get: {
        operationId: 'getHealth',
        tags: ['operations'],
        security: [],
        summary: 'Health and build facts',
        description: 'Checks the search index and a Blobs round trip. `Cache-Control: no-store`.',
        'x-examples': [{ method: 'GET', path: paths.health }],
        responses: {
          '200': response('All checks pass (`status: "ok"`).', health('ok'), ['Cache-Control']),
          '405': wrongMethod('GET or HEAD'),
          '500': unexpected.problem,
          '503': response('A check failed (`status: "degraded"`); `checks` says which.', health('degraded'), ['Cache-Control']),
        },
      },
    },
  };
}

/**
 * Builds the document for `origin` (the server URL). The content's terms (attribution) stand in
 * for a licence: the API serves that content.
 */
export function openApiDocument(origin: string, company: Pick<Company, 'name' | 'operator_attribution'>): JsonSchema {
  const siteName = company.name;
  return {
    openapi: '3.1.0',
    info: {
      title: `${siteName} public API`,
      version: API_VERSION,
      description: `Search the ${siteName} library (Chinese and English), read the AI-industry feed, send an enquiry, check health, and use the MCP server, its authorization server and the A2A agent. /api errors are RFC 9457 problem documents (unknown /api paths too: 404); /oauth errors are RFC 6749 JSON; /mcp and /a2a speak JSON-RPC 2.0. Every endpoint answers CORS preflights (OPTIONS) with 204.`,
      contact: { name: siteName, url: absoluteUrl(origin, paths.contact) },
      license: { name: company.operator_attribution, url: absoluteUrl(origin, paths.llms) },
    },
    servers: [{ url: origin, description: `${siteName} website` }],
    tags: [
      { name: 'content', description: 'Search and feeds' },
      { name: 'contact', description: 'Enquiries' },
      { name: 'agents', description: 'Model Context Protocol server and A2A agent' },
      { name: 'oauth', description: 'Authorization server for anonymous agents' },
      { name: 'operations', description: 'Health' },
    ],
    paths: { ...sitePaths(), ...mcpPaths(), ...a2aPaths(), ...oauthPaths() },
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
        clientBasic: { type: 'http', scheme: 'basic', description: 'client_id:client_secret at the token and revocation endpoints' },
      },
      headers: HEADERS,
      schemas: {
        ...sharedSchemas(),
        SearchResult: jsonSchemaOf(SearchResultSchema),
        TweetFeed: jsonSchemaOf(TweetFeedSchema),
        ContactRequest: jsonSchemaOf(ContactRequestSchema, 'input'),
        ContactAccepted: jsonSchemaOf(ContactAcceptedSchema),
        Health: jsonSchemaOf(HealthSchema),
        ...mcpSchemas(),
        ...a2aSchemas(),
        ...oauthSchemas(origin, siteName),
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
  const lines = [indexPointer(origin), '', `# ${info.title}`, '', `> ${info.description}`, '', `- URL: ${origin}/docs/api`, `- Version: ${info.version}`, `- OpenAPI: ${origin}/openapi.json`, ''];
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
