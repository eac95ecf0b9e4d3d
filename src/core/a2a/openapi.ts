/**
 * `/a2a` in the OpenAPI document: every HTTP status the A2A endpoint (src/core/a2a/server.ts and
 * its SDK adapter) answers with, each with the JSON-RPC envelope it carries.
 * @module
 */
import { LEGACY_PROTOCOL_VERSION } from './legacy.ts';
import { A2A_ERROR_CODE } from '@a2a-js/sdk/errors';
import { A2A_PROTOCOL_VERSION } from './card.ts';
import { A2A_SKILLS } from './answer.ts';
import { MAX_BODY_BYTES } from './server.ts';
import { JsonRpcErrorCode as Code } from '../kernel/jsonrpc.ts';
import { paths } from '../kernel/paths.ts';
import { RATE_LIMITED_CODE, readLimitDetail, DEFAULT_READ_RULES, readAllowanceText } from '../kernel/read-limit.ts';
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

/** The A2A errors a JSON-RPC request can meet here (A2A §5.4), sent with HTTP 200. */
const A2A_ERRORS = [
  A2A_ERROR_CODE.TASK_NOT_FOUND,
  A2A_ERROR_CODE.PUSH_NOTIFICATION_NOT_SUPPORTED,
  A2A_ERROR_CODE.UNSUPPORTED_OPERATION,
  A2A_ERROR_CODE.CONTENT_TYPE_NOT_SUPPORTED,
  A2A_ERROR_CODE.VERSION_NOT_SUPPORTED,
] as const;

export function a2aSchemas(): Record<string, JsonSchema> {
  const part = {
    type: 'object',
    description: 'A Part (ProtoJSON): `text` (markdown with absolute links) or `data` (`{skill, result, links}`), with its `mediaType`.',
    required: ['mediaType'],
    properties: {
      text: { type: 'string' },
      data: { type: 'object' },
      mediaType: { enum: ['text/markdown', 'text/plain', 'application/json'] },
    },
    oneOf: [{ required: ['text'] }, { required: ['data'] }],
  };
  return {
    A2aMessage: {
      description: "The agent's reply Message (a2a.proto `Message`): a text part, then (unless the caller accepts no JSON) a data part.",
      ...objectSchema({
        messageId: { type: 'string', minLength: 1 },
        contextId: { type: 'string' },
        role: { const: 'ROLE_AGENT' },
        parts: { type: 'array', minItems: 1, maxItems: 2, items: part },
      }),
    },
    A2aResponse: {
      description: `A JSON-RPC result, or a JSON-RPC error with HTTP 200 as the A2A SDKs send them: -32601 unknown method; -32602 invalid params (\`data\` holds a google.rpc.ErrorInfo and, for a message this agent cannot read, a google.rpc.BadRequest); ${A2A_ERROR_CODE.TASK_NOT_FOUND} TaskNotFound (GetTask, CancelTask, a message naming a taskId: no task is kept); ${A2A_ERROR_CODE.PUSH_NOTIFICATION_NOT_SUPPORTED} PushNotificationNotSupported; ${A2A_ERROR_CODE.UNSUPPORTED_OPERATION} UnsupportedOperation (streaming, extended card); ${A2A_ERROR_CODE.CONTENT_TYPE_NOT_SUPPORTED} ContentTypeNotSupported (file parts, other media types); ${A2A_ERROR_CODE.VERSION_NOT_SUPPORTED} VersionNotSupported (a version other than ${A2A_PROTOCOL_VERSION} and ${LEGACY_PROTOCOL_VERSION}, or a ${A2A_PROTOCOL_VERSION} method in a ${LEGACY_PROTOCOL_VERSION} request).`,
      oneOf: [
        {
          allOf: [
            schemaRef('JsonRpcResult'),
            {
              properties: {
                result: {
                  anyOf: [
                    { title: 'SendMessage', ...objectSchema({ message: schemaRef('A2aMessage') }) },
                    {
                      title: 'ListTasks',
                      ...objectSchema({
                        tasks: { type: 'array', maxItems: 0, items: { type: 'object' } },
                        nextPageToken: { const: '' },
                        pageSize: { type: 'integer' },
                        totalSize: { const: 0 },
                      }),
                    },
                  ],
                },
              },
            },
          ],
        },
        jsonRpcErrorWith([Code.METHOD_NOT_FOUND, Code.INVALID_PARAMS, ...A2A_ERRORS]),
      ],
    },
  };
}

/** `/a2a`, its example message `text` (a search that finds something on this site). */
export function a2aPaths(text: string): Record<string, JsonSchema> {
  const skills = A2A_SKILLS.map((s) => `\`${s.name}\``).join(', ');
  return {
    [paths.a2a]: {
      post: {
        operationId: 'a2a',
        tags: ['agents'],
        security: [],
        summary: `A2A ${A2A_PROTOCOL_VERSION} agent (JSON-RPC 2.0)`,
        description:
          `The site's Agent2Agent endpoint, described by its agent card at \`${paths.agentCard}\`. Public: every skill reads, but \`submit_feedback\` stores the feedback it is sent ("Feedback on <page URL>: …" as text, or its data part). \`SendMessage\` takes a user Message: a text part in Chinese or English (a search query, the URL or slug of an article or solution, a question about the products, or about the company and how to contact it) or a data part \`{"skill": …, "arguments": {…}}\` naming one of the skills (${skills}, the public MCP tools; a text part holding exactly that JSON works too). ` +
          'It answers at once with a Message (never a Task): markdown text with absolute links to the pages and their markdown twins, ending with the skill that answered, and a JSON data part. No task is kept: `GetTask` and `CancelTask` answer TaskNotFound, `ListTasks` an empty list; streaming, push notifications and the extended card are not offered. ' +
          `A2A ${A2A_PROTOCOL_VERSION} requests carry \`A2A-Version: ${A2A_PROTOCOL_VERSION}\`; A2A ${LEGACY_PROTOCOL_VERSION} clients (no header, or \`A2A-Version: ${LEGACY_PROTOCOL_VERSION}\`) are answered in ${LEGACY_PROTOCOL_VERSION} shapes with its kebab-case methods (\`message/send\`, \`tasks/get\`), as the A2A compatibility appendix allows; answers carry \`Vary: A2A-Version\`. \`GET\` answers 405; \`OPTIONS\` is a CORS preflight (204).`,
        parameters: [
          {
            name: 'A2A-Version',
            in: 'header',
            required: false,
            description: `A2A protocol version (\`Major.Minor\`): ${A2A_PROTOCOL_VERSION}, or ${LEGACY_PROTOCOL_VERSION}. Absent means ${LEGACY_PROTOCOL_VERSION} (A2A §3.6.2): a ${A2A_PROTOCOL_VERSION} method (\`SendMessage\`) sent without it is refused with VersionNotSupported naming the header. May also be sent as the \`A2A-Version\` query parameter.`,
            schema: { type: 'string', examples: [A2A_PROTOCOL_VERSION] },
          },
        ],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                description: 'One JSON-RPC 2.0 request (no batches); `params` as the A2A method defines it (e.g. SendMessageRequest).',
                required: ['jsonrpc', 'method'],
                properties: {
                  jsonrpc: { const: '2.0' },
                  id: { type: ['string', 'number', 'null'], description: 'Null is answered (JSON-RPC 2.0 allows it), with id null.' },
                  method: { type: 'string' },
                  params: { type: 'object' },
                },
              },
              example: {
                jsonrpc: '2.0',
                id: 1,
                method: 'SendMessage',
                params: { message: { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text }] } },
              },
            },
          },
        },
        'x-examples': [
          {
            method: 'POST',
            path: paths.a2a,
            headers: { 'content-type': 'application/json', 'a2a-version': A2A_PROTOCOL_VERSION },
            body: JSON.stringify({
              jsonrpc: '2.0',
              id: 1,
              method: 'SendMessage',
              params: { message: { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text }] } },
            }),
          },
        ],
        responses: {
          '200': response(
            'A JSON-RPC result (`SendMessage`: `{message}`; `ListTasks`: the empty list), or an A2A or JSON-RPC error (see the schema).',
            json(schemaRef('A2aResponse')),
            [],
            {
              'application/json': { jsonrpc: '2.0', id: 1, result: { tasks: [], nextPageToken: '', pageSize: 0, totalSize: 0 } },
            },
          ),
          '202': response('A notification (a request without `id`) was accepted; it is never answered (no body).'),
          '400': jsonRpcError(
            [Code.PARSE_ERROR, Code.INVALID_REQUEST],
            `Malformed JSON (${Code.PARSE_ERROR}); not one JSON-RPC request object, e.g. a batch (${Code.INVALID_REQUEST}).`,
            { id: null, code: Code.PARSE_ERROR, message: 'Parse error: the body is not valid JSON.' },
          ),
          '403': jsonRpcError([Code.INVALID_REQUEST], `\`Origin\` not allowed (the same browser-origin rule as \`${paths.mcp}\`).`, {
            id: null,
            code: Code.INVALID_REQUEST,
            message: 'Forbidden: requests from origin https://elsewhere.example are not allowed.',
          }),
          '405': jsonRpcError(
            [Code.INVALID_REQUEST],
            'A method other than POST or OPTIONS.',
            {
              id: null,
              code: Code.INVALID_REQUEST,
              message:
                'Method not allowed: the A2A JSON-RPC endpoint takes POST (A2A §9); its agent card is at /.well-known/agent-card.json.',
            },
            ['Allow'],
          ),
          '413': jsonRpcError([Code.INVALID_REQUEST], `Body over ${MAX_BODY_BYTES} bytes.`, {
            id: null,
            code: Code.INVALID_REQUEST,
            message: `Content too large: the body must be at most ${MAX_BODY_BYTES} bytes.`,
          }),
          '415': jsonRpcError(
            [Code.INVALID_REQUEST],
            'Content type other than application/json.',
            {
              id: null,
              code: Code.INVALID_REQUEST,
              message: 'Unsupported media type: send the JSON-RPC message as Content-Type: application/json.',
            },
            ['Accept-Post'],
          ),
          '429': jsonRpcError(
            [RATE_LIMITED_CODE],
            `The read limit (${readAllowanceText()}), refused before the body is read (so \`id\` is null). Wait \`Retry-After\` seconds.`,
            {
              id: null,
              code: RATE_LIMITED_CODE,
              message: readLimitDetail(1, false, DEFAULT_READ_RULES, '/auth.md#read-limits'),
              data: { retry_after: 1 },
            },
            ['Retry-After'],
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
