/**
 * The building blocks of the OpenAPI document that every protocol's fragment shares: component
 * schemas and headers, and builders for the responses the kernel's families send (RFC 9457 problems
 * for `/api/*`, JSON-RPC envelopes for `/mcp` and `/a2a`, HTML for the pages; OAuth's errors are in
 * oauth/openapi.ts). Error schemas pin the status or code each response really carries, so a test
 * comparing live answers can fail.
 * @module
 */
import type { GenericSchema } from 'valibot';
import { jsonSchemaOf } from './json-schema.ts';
import { type HttpProblem, PROBLEM_CONTENT_TYPE, ProblemSchema, internalError, problemBody as problemDocument } from './problem.ts';
import { JSONRPC_VERSION, failure } from './jsonrpc.ts';

export type JsonSchema = Record<string, unknown>;

export const schemaRef = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/** Response headers several operations send; `required` ones are checked against live answers. */
export const HEADERS = {
  Allow: { description: 'The methods this path answers.', required: true, schema: { type: 'string' } },
  'Retry-After': { description: 'Seconds to wait before trying again.', required: true, schema: { type: 'integer', minimum: 0 } },
  Location: { description: 'Where to go next.', required: true, schema: { type: 'string', format: 'uri-reference' } },
  ETag: {
    description: 'Strong validator of the body; send it back in `If-None-Match` to get 304.',
    required: true,
    schema: { type: 'string' },
    example: '"5d41402abc4b2a76"',
  },
  'Cache-Control': { description: 'How long the answer may be cached.', required: true, schema: { type: 'string' } },
  'Access-Control-Allow-Origin': {
    description: 'Always `*`: anyone may read this from a browser.',
    required: true,
    schema: { const: '*' },
  },
  'X-Feed-Source': {
    description: 'Where the feed came from: `live` or the build `snapshot`.',
    required: true,
    schema: { enum: ['live', 'snapshot'] },
  },
  'Accept-Post': { description: 'The media types this endpoint accepts.', required: true, schema: { type: 'string' } },
  'WWW-Authenticate-Basic': {
    description: 'Present when the client used HTTP Basic: `Basic realm="oauth"`.',
    schema: { type: 'string', pattern: '^Basic ' },
    example: 'Basic realm="oauth"',
  },
  'WWW-Authenticate-Bearer': {
    description: 'RFC 6750 challenge naming the RFC 9728 metadata (`resource_metadata`) and, without a token, the scope to request.',
    required: true,
    schema: { type: 'string', pattern: '^Bearer .*resource_metadata="' },
  },
} as const satisfies Record<string, JsonSchema>;
export type HeaderName = keyof typeof HEADERS;

/** Header component name → the header's wire name (two WWW-Authenticate variants share one name). */
const wireName = (name: HeaderName): string => name.replace(/-(Basic|Bearer)$/, '');

/** A response: description, optional body by media type, named headers from {@link HEADERS}, and an example body by media type. */
export function response(
  description: string,
  content?: Record<string, JsonSchema>,
  headers: readonly HeaderName[] = [],
  examples: Record<string, unknown> = {},
): JsonSchema {
  const headerRefs = Object.fromEntries(headers.map((name) => [wireName(name), { $ref: `#/components/headers/${name}` }]));
  const media = (type: string, schema: JsonSchema): JsonSchema => (type in examples ? { schema, example: examples[type] } : { schema });
  return {
    description,
    ...(headers.length ? { headers: headerRefs } : {}),
    ...(content ? { content: Object.fromEntries(Object.entries(content).map(([type, schema]) => [type, media(type, schema)])) } : {}),
  };
}

/** Body schemas by media type. */
export const json = (schema: JsonSchema): Record<string, JsonSchema> => ({ 'application/json': schema });
export const html: Record<string, JsonSchema> = { 'text/html': { type: 'string', description: 'An HTML page for people.' } };
export const problemBody = (status: number): Record<string, JsonSchema> => ({
  [PROBLEM_CONTENT_TYPE]: { allOf: [schemaRef('Problem'), { properties: { status: { const: status } } }] },
});

/** The example of a problem response: the body the handlers build for `example` at `instance`. */
export const problemExample = (example: HttpProblem, instance: string): Record<string, unknown> => ({
  [PROBLEM_CONTENT_TYPE]: problemDocument(example, instance),
});

/**
 * An RFC 9457 problem (`/api/*`, `/health`) whose `status` member equals the HTTP status; the
 * example is the body the handlers send for `example` (built by the same function).
 */
export const problem = (
  status: number,
  description: string,
  example: { problem: HttpProblem; instance: string },
  headers: readonly HeaderName[] = [],
): JsonSchema => response(description, problemBody(status), headers, problemExample(example.problem, example.instance));

/** A JSON-RPC error envelope limited to `codes`. */
export const jsonRpcErrorWith = (codes: readonly number[]): JsonSchema => ({
  // `message` and `data` restated: validators that check examples strictly (Redocly) read each branch on its own.
  allOf: [
    schemaRef('JsonRpcError'),
    { properties: { error: { properties: { code: { enum: [...codes] }, message: { type: 'string' }, data: {} } } } },
  ],
});
/** A JSON-RPC error response; the example is the envelope for `example` (id null: transport-level rejections). */
export const jsonRpcError = (
  codes: readonly number[],
  description: string,
  example: { id: number | null; code: number; message: string; data?: unknown },
  headers: readonly HeaderName[] = [],
): JsonSchema =>
  response(description, json(jsonRpcErrorWith(codes)), headers, {
    'application/json': failure(example.id, example.code, example.message, example.data),
  });

/** The request id in the examples of 500 answers (a UUID, as `crypto.randomUUID()` makes). */
export const EXAMPLE_REQUEST_ID = '3f6c1d2e-8a4b-4c5d-9e7f-0a1b2c3d4e5f';

/** The 500 every function can answer when a handler fails unexpectedly (logged with a request id). */
export const unexpected = {
  problem: (instance: string): JsonSchema =>
    problem(500, 'Unexpected failure (logged); `request_id` names it.', {
      problem: internalError(EXAMPLE_REQUEST_ID),
      instance,
    }),
  html: response('Unexpected failure: an error page with a request id.', html),
};

/** The properties of an object schema as OpenAPI query parameters, typed as the parsed values. */
export function queryParameters(
  schema: GenericSchema,
  descriptions: Record<string, string>,
  examples: Record<string, unknown> = {},
): JsonSchema[] {
  // Query strings are always text; the document describes what the handler parses them into
  // (`output`), so an integer parameter is `type: integer` and a client sends `limit=2`.
  const object = jsonSchemaOf(schema, 'output') as { properties: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(object.properties).map(([name, property]) => ({
    name,
    in: 'query',
    required: object.required?.includes(name) ?? false,
    description: descriptions[name] ?? '',
    schema: property,
    ...(name in examples ? { example: examples[name] } : {}),
  }));
}

/** An object schema whose members are all required except `optional`. */
export function objectSchema(properties: Record<string, JsonSchema>, optional: readonly string[] = []): JsonSchema {
  return { type: 'object', required: Object.keys(properties).filter((name) => !optional.includes(name)), properties };
}

/** JSON Schema of an example value's shape: every member required, typed as in the value. */
export function shapeOf(value: unknown): JsonSchema {
  if (Array.isArray(value)) return { type: 'array', items: value.length ? shapeOf(value[0]) : {} };
  if (value === null) return { type: 'null' };
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    return { type: 'object', required: entries.map(([k]) => k), properties: Object.fromEntries(entries.map(([k, v]) => [k, shapeOf(v)])) };
  }
  return { type: typeof value === 'number' ? (Number.isInteger(value) ? 'integer' : 'number') : typeof value };
}

const JsonRpcVersion = { const: JSONRPC_VERSION };
const JsonRpcId = { type: ['string', 'number', 'null'], description: 'The request id, echoed (null when the request sent null).' };

/** Component schemas shared by the families. */
export function sharedSchemas(): Record<string, JsonSchema> {
  return {
    Problem: {
      ...jsonSchemaOf(ProblemSchema),
      description: 'RFC 9457 problem details (`type` is `about:blank`; the status says what happened).',
    },
    JsonRpcResult: {
      type: 'object',
      description: 'A JSON-RPC 2.0 success envelope.',
      required: ['jsonrpc', 'id', 'result'],
      additionalProperties: false,
      properties: { jsonrpc: JsonRpcVersion, id: JsonRpcId, result: { type: 'object' } },
    },
    JsonRpcError: {
      type: 'object',
      description: 'A JSON-RPC 2.0 error envelope; `id` is null when the request sent null or its id could not be read.',
      required: ['jsonrpc', 'id', 'error'],
      additionalProperties: false,
      properties: {
        jsonrpc: JsonRpcVersion,
        id: { type: ['string', 'number', 'null'] },
        error: {
          type: 'object',
          required: ['code', 'message'],
          additionalProperties: false,
          properties: {
            code: { type: 'integer' },
            message: { type: 'string' },
            data: { description: 'Details, e.g. `supported` protocol versions.' },
          },
        },
      },
    },
  };
}
