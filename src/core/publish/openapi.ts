/**
 * The OpenAPI 3.1 description of every HTTP endpoint, generated from the valibot schemas the
 * handlers validate with. `/openapi.json` and the `/docs/api` page (HTML and markdown) are both
 * built from {@link openApiDocument}, so the description cannot drift from the code.
 * @module
 */
import type { Catalog, Company } from '../content/catalog.ts';
import { feedNameOf } from '../content/site-copy.ts';
import { type ApiExamples, apiExamples, EXAMPLE_SEARCH_LIMIT } from './api-examples.ts';
import { indexPointer } from '../content/markdown.ts';
import { AGENT_ENTRY_POINTS, entryPointList } from './entry-points.ts';
import { jsonSchemaOf } from '../kernel/json-schema.ts';
import { OAUTH_PATHS, SCOPE_DESCRIPTIONS } from '../oauth/config.ts';
import { DEFAULT_RESULT_LIMIT, MAX_QUERY_CHARS, MAX_RESULT_LIMIT } from '../search/search-index.ts';
import { absoluteUrl, paths } from '../kernel/paths.ts';
import { badRequest, forbidden, payloadTooLarge, tooManyRequests, unsupportedMediaType } from '../kernel/problem.ts';
import { FeedbackInputSchema, FeedbackReceiptSchema } from '../agent-tools/submit-feedback.ts';
import {
  FEEDBACK_BODY_LIMIT_BYTES,
  FEEDBACK_FAILED_FRAGMENT,
  FEEDBACK_RATE_LIMIT,
  FEEDBACK_SENT_FRAGMENT,
  invalidFeedback,
} from '../feedback/feedback.ts';
import { readLimitDetail, DEFAULT_READ_RULES, readAllowanceText } from '../kernel/read-limit.ts';
import { FIELD_MEDIA_TYPES, wrongMethodFor } from '../kernel/respond.ts';
import {
  CONTACT_BODY_LIMIT_BYTES,
  CONTACT_RATE_LIMIT,
  ContactAcceptedSchema,
  ContactRequestSchema,
  crossSitePost,
  enquiryLimited,
  invalidEnquiry,
} from '../contact/contact.ts';
import { HealthSchema } from '../health/health.ts';
import {
  HEADERS,
  type JsonSchema,
  html,
  json,
  problem,
  problemBody,
  problemExample,
  queryParameters,
  response,
  schemaRef,
  sharedSchemas,
  unexpected,
} from '../kernel/openapi.ts';
import { a2aPaths, a2aSchemas } from '../a2a/openapi.ts';
import { mcpPaths, mcpSchemas } from '../mcp/openapi.ts';
import { oauthPaths, oauthSchemas } from '../oauth/openapi.ts';
import { apiOverviewMarkdown, apiReferenceMarkdown } from './reference/markdown.ts';
import { apiReference } from './reference/reference.ts';
import { SEARCH_CACHE_CONTROL, SearchQuerySchema, SearchResultSchema } from '../search/api.ts';
import { TWEETS_CACHE_CONTROL, TweetFeedSchema } from '../tweets/tweets.ts';

/** Version of the HTTP API (not of the site). */
export const API_VERSION = '1.0.0';

/** 405 from `requireMethod`: a problem naming the allowed methods in `Allow`. */

const wrongMethod = (allowed: readonly string[], instance: string): JsonSchema => {
  const example = wrongMethodFor(allowed);
  return problem(405, `A method other than ${example.headers.allow} (\`Allow\` lists them).`, { problem: example, instance }, ['Allow']);
};

/** `/api/*` and `/health`, with `examples` from the catalogue; `feedName` is the site's name for its feed. */
function sitePaths(origin: string, examples: ApiExamples, feedName: string): Record<string, JsonSchema> {
  const feedback = exampleFeedback(examples);
  const enquiry = exampleEnquiry(examples);
  const health = (status: 'ok' | 'degraded'): Record<string, JsonSchema> =>
    json({ allOf: [schemaRef('Health'), { properties: { status: { const: status } } }] });
  const healthExample = (ok: boolean): Record<string, unknown> => ({
    'application/json': {
      status: ok ? 'ok' : 'degraded',
      version: '1.0.0',
      commit: '6b3f403',
      built_at: '2026-11-24T01:47:12.000Z',
      checks: {
        search_index: { ok: true, documents: 21 },
        blobs: ok ? { ok: true, latency_ms: 18.4 } : { ok: false, latency_ms: 3000, error: 'Blobs round trip timed out after 3000 ms' },
      },
    },
  });
  return {
    [paths.apiSearch]: {
      get: {
        operationId: 'searchArticles',
        tags: ['content'],
        security: [],
        summary: 'Search articles and solutions',
        description: `BM25 over a build-time index: Chinese as character bigrams, English stemmed, mixed queries work; the last English word matches as a prefix and longer words tolerate typos. Results are best first. \`q\`: 1 to ${MAX_QUERY_CHARS} characters; \`limit\`: 1 to ${MAX_RESULT_LIMIT}, default ${DEFAULT_RESULT_LIMIT}; \`lang\`: zh or en, optional; each at most once.`,
        parameters: queryParameters(
          SearchQuerySchema,
          {
            q: 'Search text in Chinese, English or both.',
            limit: `Maximum results (1-${MAX_RESULT_LIMIT}, default ${DEFAULT_RESULT_LIMIT}).`,
            lang: 'Only documents in this language (zh or en); omit for both.',
          },
          { q: examples.search.query, limit: EXAMPLE_SEARCH_LIMIT, ...(examples.search.lang ? { lang: examples.search.lang } : {}) },
        ),
        responses: {
          '200': response(
            `Results, best first. \`Cache-Control: ${SEARCH_CACHE_CONTROL}\`.`,
            json({ type: 'array', items: schemaRef('SearchResult') }),
            ['Cache-Control', 'Access-Control-Allow-Origin'],
            { 'application/json': examples.search.results },
          ),
          '400': problem(
            400,
            '`q` missing, blank, too long, repeated or not valid percent-encoded UTF-8, or `limit` not a whole number in range; `invalid_params` names the parameter.',
            {
              problem: badRequest('q must not be blank', [{ name: 'q', reason: 'q must not be blank' }]),
              instance: paths.apiSearch,
            },
          ),
          '405': wrongMethod(['GET'], paths.apiSearch),
          '429': problem(
            429,
            `Read limit reached: ${readAllowanceText()}. Wait \`Retry-After\` seconds.`,
            {
              problem: tooManyRequests(
                1,
                readLimitDetail(1, false, DEFAULT_READ_RULES, absoluteUrl(origin, `${paths.authMd}#read-limits`)),
              ),
              instance: paths.apiSearch,
            },
            ['Retry-After'],
          ),
          '500': unexpected.problem(paths.apiSearch),
        },
      },
    },
    '/api/tweets': {
      get: {
        operationId: 'getTweets',
        tags: ['content'],
        security: [],
        summary: feedName.charAt(0).toUpperCase() + feedName.slice(1),
        description: `Newest first. Refreshed hourly from the configured upstream; a build-time snapshot answers until a live feed is stored. \`X-Feed-Source\` says which (\`live\` or \`snapshot\`). \`Cache-Control: ${TWEETS_CACHE_CONTROL}\`.`,
        responses: {
          '200': response('The feed.', json(schemaRef('TweetFeed')), ['Cache-Control', 'Access-Control-Allow-Origin', 'X-Feed-Source'], {
            'application/json': {
              updated_at: '2026-11-24T01:00:00.000Z',
              tweets: [
                {
                  id: '1861234567890123456',
                  // Neutral: the feed's subject is content (content/tweets.json), which this document is not built from.
                  text: 'The newest post of the feed, in its author’s words.',
                  author: { name: 'Example Author', username: 'example' },
                  created_at: '2026-11-23T22:15:00.000Z',
                  url: 'https://x.com/example/status/1861234567890123456',
                  metrics: { likes: 412, reposts: 57, replies: 23 },
                },
              ],
            },
          }),
          '405': wrongMethod(['GET'], '/api/tweets'),
          '500': unexpected.problem('/api/tweets'),
        },
      },
    },
    '/api/contact': {
      post: {
        operationId: 'sendEnquiry',
        tags: ['contact'],
        security: [],
        summary: 'Send an enquiry',
        description: `JSON or form-encoded, at most ${CONTACT_BODY_LIMIT_BYTES} bytes. ${CONTACT_RATE_LIMIT.limit} accepted enquiry per ${CONTACT_RATE_LIMIT.windowSeconds} s per client network (an IPv4 address or an IPv6 /64); invalid submissions do not count. The answer comes only after the enquiry is stored. A form post from a browser (\`Accept: text/html\`) gets a 303 to the thank-you page, or the form again (HTML) with the errors.`,
        requestBody: {
          required: true,
          content: {
            'application/json': { schema: schemaRef('ContactRequest'), example: enquiry },
            'application/x-www-form-urlencoded': { schema: schemaRef('ContactRequest'), example: enquiry },
          },
        },
        responses: {
          '200': response('Stored.', json(schemaRef('ContactAccepted')), [], {
            'application/json': { status: 'accepted', id: '0b9f2c4e-5d1a-4f3b-8c7e-2a6d9e1f4b30', reference: '0B9F-2C4E' },
          }),
          '303': response('Browser form post accepted: the thank-you page.', undefined, ['Location']),
          '400': response(
            'Invalid fields (one `invalid_params` entry per field), malformed JSON or not UTF-8; a browser form post gets the form again.',
            { ...problemBody(400), ...html },
            [],
            problemExample(
              invalidEnquiry([{ name: 'email', reason: 'email must be a valid address, like name@example.com' }]),
              '/api/contact',
            ),
          ),
          '403': problem(403, 'A browser posted from another site (CSRF protection); refused before the body is read.', {
            problem: crossSitePost(),
            instance: '/api/contact',
          }),
          '405': wrongMethod(['POST'], '/api/contact'),
          '413': problem(
            413,
            `Body over ${CONTACT_BODY_LIMIT_BYTES} bytes (every field at its longest, form-encoded); a browser form post gets the form page again (HTML) saying so.`,
            {
              problem: payloadTooLarge(CONTACT_BODY_LIMIT_BYTES),
              instance: '/api/contact',
            },
          ),
          '415': problem(
            415,
            'Content type other than JSON or form-encoded.',
            { problem: unsupportedMediaType(FIELD_MEDIA_TYPES), instance: '/api/contact' },
            ['Accept-Post'],
          ),
          '429': response(
            'Limit reached (`retry_after` in seconds); a browser form post gets the form again with a notice.',
            { ...problemBody(429), ...html },
            ['Retry-After'],
            problemExample(enquiryLimited(42), '/api/contact'),
          ),
          '500': unexpected.problem('/api/contact'),
        },
      },
    },
    '/api/feedback': {
      post: {
        operationId: 'sendFeedback',
        tags: ['contact'],
        security: [],
        summary: 'Report a problem with a page',
        description: `Says that a page of this site is wrong, outdated or missing something, or whether it helped; the same as the MCP tool and A2A skill \`submit_feedback\`. \`page\` is the URL or path of a page of this site (an article, solution, product or listing; another path is a 400). Stores what it is sent (no personal data, please). JSON or form-encoded, at most ${FEEDBACK_BODY_LIMIT_BYTES} bytes. ${FEEDBACK_RATE_LIMIT.limit} per ${FEEDBACK_RATE_LIMIT.windowSeconds} s per client network (an IPv4 address or an IPv6 /64). A form post from a browser (\`Accept: text/html\`, the control at the end of each article) gets a 303 back to the page, at \`#${FEEDBACK_SENT_FRAGMENT}\` or \`#${FEEDBACK_FAILED_FRAGMENT}\`.`,
        requestBody: {
          required: true,
          content: {
            'application/json': { schema: schemaRef('FeedbackRequest'), example: feedback },
            'application/x-www-form-urlencoded': { schema: schemaRef('FeedbackRequest'), example: feedback },
          },
        },
        responses: {
          '201': response('Stored.', json(schemaRef('FeedbackReceipt')), [], {
            'application/json': {
              status: 'stored',
              id: '5c0e7a92-3f4b-4d1e-9a6c-8b2f1d0e3c47',
              page: feedback.page,
              kind: feedback.kind,
            },
          }),
          '303': response('Browser form post: back to the page, at the fragment that thanks or says it failed.', undefined, ['Location']),
          '400': problem(
            400,
            'A field is invalid (one `invalid_params` entry per field): not a page of this site, an unknown kind, no text for wrong, outdated or missing.',
            {
              problem: invalidFeedback([{ name: 'text', reason: 'text is required for outdated: say what' }]),
              instance: '/api/feedback',
            },
          ),
          '403': problem(403, 'A browser posted from another site (CSRF protection); refused before the body is read.', {
            problem: forbidden('Feedback can only be sent from this site: open the page here and send it again.'),
            instance: '/api/feedback',
          }),
          '405': wrongMethod(['POST'], '/api/feedback'),
          '413': problem(413, `Body over ${FEEDBACK_BODY_LIMIT_BYTES} bytes.`, {
            problem: payloadTooLarge(FEEDBACK_BODY_LIMIT_BYTES),
            instance: '/api/feedback',
          }),
          '415': problem(
            415,
            'Content type other than JSON or form-encoded.',
            { problem: unsupportedMediaType(FIELD_MEDIA_TYPES), instance: '/api/feedback' },
            ['Accept-Post'],
          ),
          '429': problem(
            429,
            'The limit per network, or the site-wide daily limit, is reached (`retry_after` in seconds).',
            {
              problem: tooManyRequests(
                1800,
                `At most ${FEEDBACK_RATE_LIMIT.limit} pieces of feedback per hour from one network. Try again in 1800 s.`,
              ),
              instance: '/api/feedback',
            },
            ['Retry-After'],
          ),
          '500': unexpected.problem('/api/feedback'),
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
        responses: {
          '200': response('All checks pass (`status: "ok"`).', health('ok'), ['Cache-Control'], healthExample(true)),
          '405': wrongMethod(['GET'], paths.health),
          '500': unexpected.problem(paths.health),
          '503': response(
            'A check failed (`status: "degraded"`); `checks` says which.',
            health('degraded'),
            ['Cache-Control'],
            healthExample(false),
          ),
        },
      },
    },
  };
}

/** The example feedback (JSON and form bodies): about a page of this site. */
const exampleFeedback = (examples: ApiExamples): { page: string; kind: 'outdated'; text: string } => ({
  page: examples.feedbackPage,
  kind: 'outdated',
  text: 'A section still describes last year’s defaults.',
});

/** The example enquiry (JSON and form bodies): about one of this site's products, when it has any. */
const exampleEnquiry = (examples: ApiExamples): Record<string, string> => ({
  name: '李伟',
  email: 'li.wei@example.com',
  company: '示例银行',
  ...(examples.product
    ? { product: examples.product.slug, message: `我们想了解 ${examples.product.name} 的部署方式与报价，能否安排一次技术交流？` }
    : { message: '我们想了解贵公司的产品与服务，能否安排一次技术交流？' }),
});

/**
 * Builds the document for `origin` (the server URL), its examples drawn from the catalogue ({@link apiExamples} of
 * ./api-examples.ts). The content's terms (attribution) stand in for a licence: the API serves that content.
 */
export function openApiDocument(
  origin: string,
  company: Pick<Company, 'name' | 'operator_attribution' | 'copy'>,
  examples: ApiExamples,
): JsonSchema {
  const siteName = company.name;
  // The feed's name is the site's own (company.yaml `copy.feed_name`): what its tweets are about is content.
  const feedName = feedNameOf(company, 'en');
  return {
    openapi: '3.1.0',
    info: {
      title: `${siteName} public API`,
      version: API_VERSION,
      description: `Search the ${siteName} library (Chinese and English), read the ${feedName}, send an enquiry, check health, and use the MCP server, its authorization server and the A2A agent. /api errors are RFC 9457 problem documents (unknown /api paths too: 404); /oauth errors are RFC 6749 JSON; /mcp and /a2a speak JSON-RPC 2.0. Every endpoint answers OPTIONS with 204 and \`Allow\`: a CORS preflight wherever other sites may call (all but /api/contact, /api/feedback and the pages under /oauth and /ops), so a browser learns the methods and nothing more there.`,
      contact: { name: siteName, url: absoluteUrl(origin, paths.contact) },
      license: { name: company.operator_attribution, url: absoluteUrl(origin, paths.llms) },
    },
    servers: [{ url: origin, description: `${siteName} website` }],
    // `x-displayName` names the group in reference renderers (Redocly's extension; ours reads it too).
    tags: [
      {
        name: 'content',
        'x-displayName': 'Content',
        description: `Search the library and read the ${feedName}. Public, no key, CORS open to any origin.`,
      },
      { name: 'contact', 'x-displayName': 'Contact', description: 'Send an enquiry to the team.' },
      {
        name: 'agents',
        'x-displayName': 'MCP server and A2A agent',
        description: `Model Context Protocol server and A2A v1.0 agent for AI agents: search, read and list the content; one protected export tool (MCP only). Connect any MCP client to \`${absoluteUrl(origin, paths.mcp)}\`; the server card is at [${paths.mcpServerCard}](${absoluteUrl(origin, paths.mcpServerCard)}).`,
      },
      {
        name: 'oauth',
        'x-displayName': 'OAuth',
        description: `Authorization server for anonymous agents: register without an account, get a token, claim the registration later. Walkthrough: [auth.md](${absoluteUrl(origin, paths.authMd)}).`,
      },
      { name: 'operations', 'x-displayName': 'Operations', description: 'Health and build facts for uptime checks.' },
    ],
    paths: {
      ...sitePaths(origin, examples, feedName),
      ...mcpPaths(origin, examples.search),
      ...a2aPaths(examples.search.query),
      ...oauthPaths(origin, siteName),
    },
    components: {
      securitySchemes: {
        oauth2: {
          type: 'oauth2',
          description: `Anonymous agents register at ${OAUTH_PATHS.register} first (RFC 7591; guide: ${paths.authMd}).`,
          flows: {
            clientCredentials: { tokenUrl: absoluteUrl(origin, OAUTH_PATHS.token), scopes: { ...SCOPE_DESCRIPTIONS } },
            authorizationCode: {
              authorizationUrl: absoluteUrl(origin, OAUTH_PATHS.authorize),
              tokenUrl: absoluteUrl(origin, OAUTH_PATHS.token),
              scopes: { ...SCOPE_DESCRIPTIONS },
            },
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
        FeedbackRequest: jsonSchemaOf(FeedbackInputSchema, 'input'),
        FeedbackReceipt: jsonSchemaOf(FeedbackReceiptSchema),
        Health: jsonSchemaOf(HealthSchema),
        ...mcpSchemas(),
        ...a2aSchemas(),
        ...oauthSchemas(origin, siteName),
      },
    },
  };
}

/** The document of the site `catalog` describes: its origin, company and examples drawn from its content. */
export function apiDocumentOf(catalog: Pick<Catalog, 'origin' | 'company' | 'articles' | 'solutions' | 'products'>): JsonSchema {
  return openApiDocument(catalog.origin, catalog.company, apiExamples(catalog));
}

/**
 * The markdown twin of the overview, /docs/api: what the page shows (each group and operation, one line each,
 * linking the operation's own twin), the whole reference being the one-page twin ({@link apiDocsMarkdown}).
 */
export function apiOverviewTwin(origin: string, doc: JsonSchema): string {
  return `${indexPointer(origin)}\n\n${apiOverviewMarkdown(apiReference(doc), {
    markdownUrl: absoluteUrl(origin, `${paths.apiDocs}.md`),
    onePageUrl: absoluteUrl(origin, `${paths.apiAll}.md`),
    developersUrl: absoluteUrl(origin, `${paths.developers}.md`),
    openApiUrl: absoluteUrl(origin, paths.openApi),
    // As the page lists them: a POST-only endpoint says how to call it, each entry names its media type after the title.
    entryPoints: AGENT_ENTRY_POINTS.map(
      (e) => `- [${e.title}](${absoluteUrl(origin, e.path)})${e.postOnly ? ` (\`POST ${e.path}\`)` : ''} \`${e.type}\`: ${e.description}`,
    ).join('\n'),
    operationUrl: (slug) => absoluteUrl(origin, paths.apiOperation(slug)),
  })}`;
}

/** The markdown twin of the one-page reference (`pagePath`, /docs/api/all): the whole reference of `doc`, then the agent entry points. */
export function apiDocsMarkdown(origin: string, doc: JsonSchema, pagePath: string = paths.apiAll): string {
  return `${indexPointer(origin)}\n\n${apiReferenceMarkdown(apiReference(doc), {
    pageUrl: absoluteUrl(origin, pagePath),
    operationUrl: (slug) => absoluteUrl(origin, paths.apiOperation(slug)),
    openApiUrl: absoluteUrl(origin, paths.openApi),
    entryPoints: entryPointList(origin),
    overviewUrl: absoluteUrl(origin, `${paths.apiDocs}.md`),
    curlOnly: true,
  })}`;
}
