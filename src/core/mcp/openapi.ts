/**
 * `/mcp` in the OpenAPI document: every HTTP status the dispatcher (src/core/mcp/server.ts) and
 * the token gate (src/core/mcp/auth.ts) answer with, each with the JSON-RPC envelope it carries.
 * @module
 */
import { EXPORT_RATE_LIMIT } from './auth.ts';
import { JsonRpcErrorCode as Code, failure, success } from '../kernel/jsonrpc.ts';
import { MAX_BODY_BYTES, TRANSPORT_MESSAGES } from './server.ts';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from './server-info.ts';
import { EXPORT_SCOPE } from '../agent-tools/export-article-index.ts';
import { TOOLS } from '../agent-tools/registry.ts';
import type { Lang } from '../content/catalog.ts';
import type { SearchResult } from '../search/api.ts';
import { absoluteUrl } from '../kernel/paths.ts';
import { DEFAULT_READ_RULES, RATE_LIMITED_CODE, readAllowanceText, readLimitDetail } from '../kernel/read-limit.ts';

import {
  EXAMPLE_REQUEST_ID,
  type JsonSchema,
  json,
  jsonRpcError,
  jsonRpcErrorWith,
  objectSchema,
  response,
  schemaRef,
} from '../kernel/openapi.ts';

/** The example call of `search_articles`: a search that finds something on this site (src/core/publish/api-examples.ts). */
export interface McpSearchExample {
  query: string;
  lang?: Lang;
  results: SearchResult[];
}

/** The example call's limit. */
const EXAMPLE_LIMIT = 3;

const publicTools = TOOLS.filter((tool) => tool.requiredScope === undefined).map((tool) => `\`${tool.name}\``);
const protectedTools = TOOLS.filter((tool) => tool.requiredScope !== undefined).map(
  (tool) => `\`${tool.name}\` (OAuth scope \`${tool.requiredScope}\`)`,
);

/** A `tools/call` result that is a tool error whose `structuredContent.error` is one of `errors` (with `members` beside it). */
function toolErrorEnvelope(errors: readonly string[], members: Record<string, JsonSchema> = {}): JsonSchema {
  return {
    allOf: [
      schemaRef('JsonRpcResult'),
      {
        properties: {
          result: {
            allOf: [
              schemaRef('McpToolError'),
              {
                required: ['structuredContent'],
                properties: { structuredContent: { required: ['error'], properties: { error: { enum: [...errors] }, ...members } } },
              },
            ],
          },
        },
      },
    ],
  };
}

const capabilities = objectSchema({ tools: { type: 'object' }, resources: { type: 'object' }, completions: { type: 'object' } });
/** Results by method: each alternative names the members that identify it. */
const RESULT_SHAPES: JsonSchema[] = [
  {
    title: 'initialize',
    ...objectSchema({
      protocolVersion: { enum: [...SUPPORTED_PROTOCOL_VERSIONS] },
      capabilities,
      serverInfo: objectSchema({ name: { type: 'string' }, version: { type: 'string' } }),
    }),
  },
  { title: 'server/discover', ...objectSchema({ supportedVersions: { type: 'array', items: { type: 'string' } }, capabilities }) },
  {
    title: 'tools/list',
    ...objectSchema({ tools: { type: 'array', items: objectSchema({ name: { type: 'string' }, inputSchema: { type: 'object' } }) } }),
  },
  { title: 'tools/call', $ref: '#/components/schemas/McpToolResult' },
  {
    title: 'resources/list',
    ...objectSchema({ resources: { type: 'array', items: objectSchema({ uri: { type: 'string' }, name: { type: 'string' } }) } }),
  },
  {
    title: 'resources/templates/list',
    ...objectSchema({
      resourceTemplates: { type: 'array', items: objectSchema({ uriTemplate: { type: 'string' }, name: { type: 'string' } }) },
    }),
  },
  {
    title: 'resources/read',
    ...objectSchema({
      contents: {
        type: 'array',
        minItems: 1,
        items: objectSchema({ uri: { type: 'string' }, mimeType: { type: 'string' }, text: { type: 'string' } }),
      },
    }),
  },
  {
    title: 'completion/complete',
    ...objectSchema({ completion: objectSchema({ values: { type: 'array', maxItems: 100, items: { type: 'string' } } }) }),
  },
  { title: 'ping', type: 'object', maxProperties: 0 },
];

export function mcpSchemas(): Record<string, JsonSchema> {
  const textContent = objectSchema({ type: { const: 'text' }, text: { type: 'string' } });
  return {
    McpToolResult: {
      description: 'An MCP `CallToolResult`: the data as `structuredContent` and as JSON text; `isError` for errors the model can act on.',
      ...objectSchema(
        {
          content: { type: 'array', minItems: 1, items: textContent },
          structuredContent: { type: 'object' },
          isError: { type: 'boolean' },
        },
        ['structuredContent', 'isError'],
      ),
    },
    McpToolError: { allOf: [schemaRef('McpToolResult'), { required: ['isError'], properties: { isError: { const: true } } }] },
    McpResponse: {
      description:
        'A JSON-RPC result of one of the methods, or a JSON-RPC error sent with 200 (handshake-era unknown method, bad params, unknown tool, unknown resource: -32602, or -32002 in the handshake era).',
      oneOf: [
        { allOf: [schemaRef('JsonRpcResult'), { properties: { result: { anyOf: RESULT_SHAPES } } }] },
        jsonRpcErrorWith([Code.METHOD_NOT_FOUND, Code.INVALID_PARAMS, Code.LEGACY_RESOURCE_NOT_FOUND]),
      ],
    },
  };
}

const mcpHeader = (name: string, description: string): JsonSchema => ({
  name,
  in: 'header',
  required: false,
  description,
  schema: { type: 'string' },
});

/** `/mcp`, its example a call of `search_articles` with `search`'s arguments, answered with its results. */
export function mcpPaths(origin: string, search: McpSearchExample): Record<string, JsonSchema> {
  const searchOutput = { query: search.query, results: search.results };
  return {
    '/mcp': {
      post: {
        operationId: 'mcp',
        tags: ['agents'],
        // Public tools need no token; the protected export tool needs an OAuth token with its scope.
        security: [{}, { oauth2: [EXPORT_SCOPE] }],
        summary: 'MCP server (JSON-RPC 2.0 over Streamable HTTP)',
        description: `Stateless Model Context Protocol endpoint for both protocol eras: the handshake era (\`initialize\`, ${SUPPORTED_PROTOCOL_VERSIONS.filter((v) => v !== LATEST_PROTOCOL_VERSION).join(', ')}) and ${LATEST_PROTOCOL_VERSION} (\`server/discover\`, per-request \`_meta\`, \`MCP-Protocol-Version\` / \`Mcp-Method\` / \`Mcp-Name\` headers). Tools: ${publicTools.join(', ')} (public) and ${protectedTools.join(', ')}. Resources: every article, solution, product and category listing as its markdown twin (URI = the twin's URL), with templates and \`completion/complete\` for their variables. Send \`Accept: application/json, text/event-stream\`; answers are JSON, never SSE. A presented token must be valid even for public methods. \`GET\` and \`DELETE\` answer 405; \`OPTIONS\` is a CORS preflight (204).`,
        parameters: [
          mcpHeader(
            'MCP-Protocol-Version',
            `Protocol revision; ${LATEST_PROTOCOL_VERSION} selects the modern era, where this header, \`Mcp-Method\` and (for named methods) \`Mcp-Name\` must match the body.`,
          ),
          mcpHeader('Mcp-Method', `The JSON-RPC method (required in ${LATEST_PROTOCOL_VERSION}).`),
          mcpHeader(
            'Mcp-Name',
            `The tool name of \`tools/call\` or the URI of \`resources/read\` (required there in ${LATEST_PROTOCOL_VERSION}).`,
          ),
        ],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                description: 'One JSON-RPC 2.0 request, notification or response (no batches).',
                required: ['jsonrpc'],
                properties: {
                  jsonrpc: { const: '2.0' },
                  id: {
                    type: ['string', 'number', 'null'],
                    description:
                      'Absent in notifications. Null is answered (JSON-RPC 2.0 allows it, discouraged; MCP clients never send it), with id null.',
                  },
                  method: { type: 'string', description: 'e.g. `initialize`, `tools/list`, `tools/call`, `resources/read`.' },
                  params: { type: 'object' },
                },
              },
              examples: {
                search: {
                  summary: 'Call search_articles',
                  value: {
                    jsonrpc: '2.0',
                    id: 1,
                    method: 'tools/call',
                    params: {
                      name: 'search_articles',
                      arguments: { query: search.query, limit: EXAMPLE_LIMIT, ...(search.lang ? { lang: search.lang } : {}) },
                    },
                  },
                },
                tools: { summary: 'List the tools', value: { jsonrpc: '2.0', id: 2, method: 'tools/list' } },
              },
            },
          },
        },
        // OpenAPI cannot declare Accept as a parameter; MCP clients must send it, so the examples do.
        'x-request-headers': { Accept: 'application/json, text/event-stream' },
        responses: {
          '200': response(
            `A JSON-RPC result (tool errors have \`isError: true\`), or a handshake-era JSON-RPC error (-32601 unknown method, -32602 bad params or unknown tool). Over ${EXPORT_RATE_LIMIT.limit} \`export_article_index\` calls per client in ${EXPORT_RATE_LIMIT.windowSeconds} s, the call's result is a tool error (\`structuredContent.error\` \`rate_limited\`, \`retry_after\` in seconds), also sent as \`Retry-After\`.`,
            json(schemaRef('McpResponse')),
            [],
            {
              'application/json': success(1, {
                content: [{ type: 'text', text: JSON.stringify(searchOutput) }],
                structuredContent: searchOutput,
              }),
            },
          ),
          '202': response('A notification or a JSON-RPC response was accepted (no body).'),
          '400': jsonRpcError(
            [Code.PARSE_ERROR, Code.INVALID_REQUEST, Code.INVALID_PARAMS, Code.HEADER_MISMATCH, Code.UNSUPPORTED_PROTOCOL_VERSION],
            `Malformed JSON (${Code.PARSE_ERROR}); not one JSON-RPC message, a batch, or an unsupported handshake-era \`MCP-Protocol-Version\` (${Code.INVALID_REQUEST}); modern-era header mismatch (${Code.HEADER_MISMATCH}), missing \`_meta\` (${Code.INVALID_PARAMS}) or unsupported revision (${Code.UNSUPPORTED_PROTOCOL_VERSION}; \`data.supported\` lists them).`,
            { id: null, code: Code.PARSE_ERROR, message: 'Parse error: the body is not valid JSON.' },
          ),
          '401': response(
            `No valid access token. \`tools/call\` of a protected tool without a token, or any \`tools/call\` with an invalid one: a tool error (\`structuredContent.error\` \`unauthorized\` or \`invalid_token\`). Other methods with an invalid token: a JSON-RPC error (${Code.INVALID_REQUEST}, \`data.error\` \`invalid_token\`).`,
            json({ oneOf: [toolErrorEnvelope(['unauthorized', 'invalid_token']), jsonRpcErrorWith([Code.INVALID_REQUEST])] }),
            ['WWW-Authenticate-Bearer'],
            {
              'application/json': failure(2, Code.INVALID_REQUEST, 'Unauthorized: the access token is not valid (expired).', {
                error: 'invalid_token',
              }),
            },
          ),
          '403': response(
            `\`Origin\` not allowed (DNS-rebinding protection): a JSON-RPC error (${Code.INVALID_REQUEST}). A valid token without scope \`${EXPORT_SCOPE}\`: a tool error (\`insufficient_scope\`) with \`WWW-Authenticate: Bearer error="insufficient_scope"\`.`,
            json({ oneOf: [toolErrorEnvelope(['insufficient_scope']), jsonRpcErrorWith([Code.INVALID_REQUEST])] }),
            [],
            {
              'application/json': failure(
                null,
                Code.INVALID_REQUEST,
                'Forbidden: requests from origin https://attacker.example are not allowed.',
              ),
            },
          ),
          '404': jsonRpcError(
            [Code.METHOD_NOT_FOUND],
            `Unknown or removed method in the ${LATEST_PROTOCOL_VERSION} era (${Code.METHOD_NOT_FOUND}).`,
            {
              id: 3,
              code: Code.METHOD_NOT_FOUND,
              message: `Method not found: sampling/createMessage (protocol ${LATEST_PROTOCOL_VERSION}).`,
            },
          ),
          '405': jsonRpcError(
            [Code.INVALID_REQUEST],
            'A method other than POST or OPTIONS (no SSE stream, no sessions).',
            { id: null, code: Code.INVALID_REQUEST, message: TRANSPORT_MESSAGES.methodNotAllowed },
            ['Allow'],
          ),
          '406': jsonRpcError([Code.INVALID_REQUEST], "`Accept` excludes application/json. The request's id when it can be read.", {
            id: 1,
            code: Code.INVALID_REQUEST,
            message: TRANSPORT_MESSAGES.notAcceptable,
          }),
          '413': jsonRpcError([Code.INVALID_REQUEST], `Body over ${MAX_BODY_BYTES} bytes.`, {
            id: null,
            code: Code.INVALID_REQUEST,
            message: TRANSPORT_MESSAGES.tooLarge,
          }),
          '415': jsonRpcError(
            [Code.INVALID_REQUEST],
            'Content type other than application/json.',
            { id: null, code: Code.INVALID_REQUEST, message: TRANSPORT_MESSAGES.unsupportedMediaType },
            ['Accept-Post'],
          ),
          '429': response(
            `The read limit (${readAllowanceText()}): JSON-RPC error \`${RATE_LIMITED_CODE}\` with the request's id (null for a batch or an unreadable body), \`retry_after\` in its data. Wait \`Retry-After\` seconds.`,
            json(jsonRpcErrorWith([RATE_LIMITED_CODE])),
            ['Retry-After'],
            {
              'application/json': failure(
                4,
                RATE_LIMITED_CODE,
                readLimitDetail(1, false, DEFAULT_READ_RULES, absoluteUrl(origin, '/auth.md#read-limits')),
                { retry_after: 1 },
              ),
            },
          ),
          '500': jsonRpcError([Code.INTERNAL_ERROR], `Unexpected failure (${Code.INTERNAL_ERROR}, logged with a request id).`, {
            id: 1,
            code: Code.INTERNAL_ERROR,
            message: `Internal error (request ${EXAMPLE_REQUEST_ID}).`,
          }),
        },
      },
    },
  };
}
