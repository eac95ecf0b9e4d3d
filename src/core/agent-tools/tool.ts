/**
 * The shape of one MCP tool: schemas written once in valibot (JSON Schema derived from them),
 * a pure `run`, and the result envelopes (`structuredContent` + a text block with the same JSON).
 * @module
 */
import * as v from 'valibot';
import { jsonSchemaOf } from '../kernel/json-schema.ts';
import type { BodySource, SiteProfile } from '../content/catalog.ts';
import type { CatalogReader } from '../content/catalog-reader.ts';
import type { SearchEngine } from '../search/search-index.ts';
import type { JsonObject } from '../kernel/jsonrpc.ts';
import { jsonReading, type ToolReading } from './reading.ts';
import type { Usage } from '../kernel/metrics.ts';
import type { FeedbackSink } from './submit-feedback.ts';

/**
 * What a tool reads: the site profile, the catalogue without bodies, the search engine, the bodies
 * and the public origin. The MCP function defines `catalog` and `engine` as getters that load their
 * data on first read (netlify/functions/mcp.mts), so read them only when the answer needs them; the
 * catalogue then reads only the files of the documents asked for (content/catalog-reader.ts).
 */
export interface ToolContext {
  /** Company, categories, products: small and always at hand. */
  site: SiteProfile;
  /** Every article and solution without its body, by slug or by range. */
  catalog: CatalogReader;
  engine: SearchEngine;
  /** Article and solution bodies, one read per document. */
  bodies: BodySource;
  /** Public origin, e.g. `https://acme-ai.example` (absolute URLs derive from it). */
  origin: string;
  /** The site's documents for agents (publish/entry-points.ts), listed by `get_company_info`. */
  entryPoints: readonly { title: string; path: string; description: string }[];
  /** What this request counts (kernel/metrics.ts): the search tool counts its query. Absent: nothing is counted. */
  usage?: Usage;
  /** Where `submit_feedback` stores what it is sent (src/core/feedback); absent: the tool says feedback is not taken. */
  feedback?: FeedbackSink;
}

/** A `tools/call` result (MCP `CallToolResult`). */
export interface ToolResult extends JsonObject {
  content: { type: 'text'; text: string }[];
  structuredContent?: JsonObject;
  isError?: boolean;
}

/** A tool's answer: data matching its output schema, or a message for the model. */
export type ToolOutcome<O> = { ok: true; data: O } | { ok: false; message: string };

/** The tools that only read the catalogue (docs/reference/mcp-oauth.md §4.2). */
export const READ_ONLY_ANNOTATIONS = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;
/** A tool that stores what it is sent (each call adds a record; nothing is changed or deleted). */
export const STORING_ANNOTATIONS = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false } as const;

type ObjectSchema = v.GenericSchema<unknown, JsonObject>;

/** How a tool is written. */
export interface ToolSpec<I extends ObjectSchema, O extends ObjectSchema> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  /** OAuth scope the caller's token must carry; absent for public tools. */
  requiredScope?: string;
  /** The tool stores what it is sent (annotated as not read-only); absent: it only reads. */
  stores?: true;
  run(args: v.InferOutput<I>, ctx: ToolContext): ToolOutcome<v.InferOutput<O>> | Promise<ToolOutcome<v.InferOutput<O>>>;
  /** How the result reads as text (agent-tools/reading.ts); absent: its JSON. */
  read?(data: v.InferOutput<O>, ctx: ToolContext): ToolReading;
}

/** The MCP `Tool` object listed by `tools/list`. */
export interface ToolListing extends JsonObject {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonObject & { type: 'object' };
  outputSchema: JsonObject & { type: 'object' };
  annotations: JsonObject;
}

/** A defined tool: its listing and a call that validates arguments first. */
export interface Tool {
  name: string;
  requiredScope: string | undefined;
  listing: ToolListing;
  /** The arguments schema, for callers that check arguments before calling (the A2A agent answers bad ones with -32602). */
  input: ObjectSchema;
  call(args: unknown, ctx: ToolContext): Promise<ToolResult>;
  /** The `structuredContent` of this tool's own successful call, worded as text. */
  read(result: JsonObject, ctx: ToolContext): ToolReading;
}

/** JSON Schema of a valibot object schema, without `$schema` (MCP's default dialect applies). */
export function objectJsonSchema(schema: ObjectSchema): JsonObject & { type: 'object' } {
  const rest = jsonSchemaOf(schema) as JsonObject;
  if (rest.type !== 'object') throw new Error('MCP tool schemas must describe objects');
  return rest as JsonObject & { type: 'object' };
}

/** A successful result: `structuredContent` plus the same JSON as text (for clients without structured output). */
export function toolSuccess(data: JsonObject): ToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: data };
}

/** A tool error the model can act on (`isError: true`; not a JSON-RPC error, SEP-1303). */
export function toolError(message: string, structuredContent?: JsonObject): ToolResult {
  return { content: [{ type: 'text', text: message }], ...(structuredContent ? { structuredContent } : {}), isError: true };
}

/** Describes valibot issues as one sentence: `limit: must be 1..500; query: is required`. */
function describeIssues(issues: readonly v.BaseIssue<unknown>[]): string {
  return issues.map((issue) => `${v.getDotPath(issue) ?? 'arguments'}: ${issue.message}`).join('; ');
}

/** Defines a tool from its spec; the JSON Schemas are computed once, here. */
export function defineTool<I extends ObjectSchema, O extends ObjectSchema>(spec: ToolSpec<I, O>): Tool {
  const listing: ToolListing = {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    inputSchema: objectJsonSchema(spec.input),
    outputSchema: objectJsonSchema(spec.output),
    annotations: { title: spec.title, ...(spec.stores ? STORING_ANNOTATIONS : READ_ONLY_ANNOTATIONS) },
  };
  return {
    name: spec.name,
    requiredScope: spec.requiredScope,
    listing,
    input: spec.input,
    async call(args, ctx) {
      const parsed = v.safeParse(spec.input, args ?? {});
      if (!parsed.success)
        return toolError(`Invalid arguments: ${describeIssues(parsed.issues)}. Expected: ${JSON.stringify(listing.inputSchema)}`);
      const outcome = await spec.run(parsed.output, ctx);
      return outcome.ok ? toolSuccess(outcome.data) : toolError(outcome.message);
    },
    // The one place the structured result is typed again: it is this tool's own output.
    read: (result, ctx) => (spec.read ? spec.read(result as v.InferOutput<O>, ctx) : jsonReading(result)),
  };
}
