/**
 * The API reference as data: the OpenAPI document grouped by tag, each operation with its
 * parameters, request and response schemas as readable trees, an example of every response (errors
 * included) and request snippets. The `/docs/api` page and its markdown twin both render it, so they
 * show the same facts as `/openapi.json`.
 * @module
 */
import { type HttpSample, type SnippetLanguage, snippetsOf } from './snippets.ts';
import { type JsonSchema, type SchemaNode, resolveRef, schemaView } from './schema-view.ts';

export type { HttpSample, SnippetLanguage } from './snippets.ts';
export type { SchemaField, SchemaNode } from './schema-view.ts';

export interface ApiReference {
  title: string;
  version: string;
  /** CommonMark. */
  description: string;
  /** The server URL (the site's origin). */
  server: string;
  groups: ReferenceGroup[];
}

export interface ReferenceGroup {
  /** The tag name (stable, used in anchors). */
  id: string;
  /** `x-displayName` or the tag name. */
  name: string;
  /** CommonMark. */
  description: string;
  operations: ReferenceOperation[];
}

export interface ReferenceParameter {
  name: string;
  in: string;
  required: boolean;
  /** CommonMark. */
  description: string;
  node: SchemaNode;
  example?: string;
}

export interface ReferenceBody {
  mediaType: string;
  node: SchemaNode;
  /** Pretty-printed example (JSON), or undefined when the body is a page for people. */
  example?: string;
}

export interface ReferenceResponse {
  status: string;
  /** CommonMark. */
  description: string;
  headers: { name: string; description: string; required: boolean; example?: string }[];
  bodies: ReferenceBody[];
  /** 2xx / 3xx: success; 4xx / 5xx: error. */
  kind: 'success' | 'redirect' | 'error';
}

export interface ReferenceRequest {
  /** Name of the example (`Start a claim`); empty for the only one. */
  title: string;
  sample: HttpSample;
  snippets: Record<SnippetLanguage, string>;
}

export interface ReferenceOperation {
  /** The operationId: the anchor of the operation on the single page and on the overview. */
  id: string;
  /** The operation's own page: `/docs/api/{slug}` (the operationId in kebab case). */
  slug: string;
  /** The tag (group) id. */
  group: string;
  method: string;
  path: string;
  summary: string;
  /** CommonMark. */
  description: string;
  /** How to authenticate, in words (CommonMark); empty when no credentials are needed. */
  auth: string[];
  parameters: ReferenceParameter[];
  requestBody?: { required: boolean; mediaTypes: string[]; node: SchemaNode };
  responses: ReferenceResponse[];
  requests: ReferenceRequest[];
  /**
   * Whether the page offers "Try it": a GET that needs no credentials and answers JSON, so a reader's
   * browser can call it on the page's own origin and show the answer.
   */
  tryable: boolean;
}

/** Segments under /docs/api that are pages of their own, not operations. */
const RESERVED_SLUGS: ReadonlySet<string> = new Set(['all']);

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Readable JSON of an example value. */
const exampleText = (value: unknown): string => JSON.stringify(value, null, 2);

/** Builds the reference of `doc` (an OpenAPI 3.1 document whose first server is the site). */
export function apiReference(doc: JsonSchema): ApiReference {
  const info = doc.info as { title: string; version: string; description: string };
  const server = ((doc.servers as { url: string }[] | undefined)?.[0]?.url ?? '').replace(/\/$/, '');
  const tags = (doc.tags as { name: string; description?: string; 'x-displayName'?: string }[] | undefined) ?? [];
  const operations: (ReferenceOperation & { tag: string })[] = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, JsonSchema>>)) {
    for (const method of METHODS) {
      const op = item[method];
      if (op)
        operations.push({ ...operationOf(doc, server, path, method, op, item), tag: ((op.tags as string[] | undefined) ?? ['other'])[0]! });
    }
  }
  const tagNames = [...tags.map((t) => t.name), ...operations.map((o) => o.tag).filter((t) => !tags.some((tag) => tag.name === t))];
  const groups = [...new Set(tagNames)]
    .map((name) => {
      const tag = tags.find((t) => t.name === name);
      return {
        id: name,
        name: tag?.['x-displayName'] ?? name,
        description: tag?.description ?? '',
        operations: operations.filter((o) => o.tag === name).map(({ tag, ...op }) => ({ ...op, group: tag })),
      };
    })
    .filter((group) => group.operations.length > 0);
  const slugs = groups.flatMap((g) => g.operations.map((o) => o.slug));
  const clash = slugs.find((slug, i) => slugs.indexOf(slug) !== i || RESERVED_SLUGS.has(slug));
  if (clash !== undefined) throw new Error(`API reference: two operations, or an operation and a page, share the URL /docs/api/${clash}`);
  return { title: info.title, version: info.version, description: info.description, server, groups };
}

function operationOf(doc: JsonSchema, server: string, path: string, method: string, op: JsonSchema, item: JsonSchema): ReferenceOperation {
  const parameters = [...((item.parameters as JsonSchema[] | undefined) ?? []), ...((op.parameters as JsonSchema[] | undefined) ?? [])].map(
    (p) => resolveRef(p, doc),
  );
  const body = op.requestBody ? resolveRef(op.requestBody as JsonSchema, doc) : undefined;
  const bodyContent = (body?.content as Record<string, JsonSchema> | undefined) ?? {};
  const firstBody = Object.values(bodyContent)[0];
  const responses = Object.entries(op.responses as Record<string, JsonSchema>).map(([status, r]) =>
    responseOf(doc, status, resolveRef(r, doc)),
  );
  const id = op.operationId as string;
  const auth = authOf(doc, op);
  const success = responses.find((r) => r.kind === 'success');
  return {
    id,
    slug: operationSlug(id),
    group: '',
    method: method.toUpperCase(),
    path,
    summary: (op.summary as string | undefined) ?? '',
    description: (op.description as string | undefined) ?? '',
    auth,
    parameters: parameters.map((p) => ({
      name: p.name as string,
      in: p.in as string,
      required: p.required === true,
      description: (p.description as string | undefined) ?? '',
      node: schemaView((p.schema as JsonSchema | undefined) ?? {}, doc),
      ...(p.example !== undefined ? { example: typeof p.example === 'string' ? p.example : JSON.stringify(p.example) } : {}),
    })),
    ...(firstBody
      ? {
          requestBody: {
            required: body?.required === true,
            mediaTypes: Object.keys(bodyContent),
            node: schemaView((firstBody.schema as JsonSchema) ?? {}, doc),
          },
        }
      : {}),
    responses,
    requests: requestsOf(server, path, method, op, parameters, bodyContent, responses),
    tryable:
      method === 'get' &&
      auth.length === 0 &&
      !path.includes('{') &&
      success?.bodies.some((b) => b.mediaType === 'application/json' || b.mediaType.endsWith('+json')) === true,
  };
}

/** The URL segment of an operation's page: its operationId in kebab case (`searchArticles` → `search-articles`). */
export function operationSlug(operationId: string): string {
  return operationId
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase();
}

/** Every operation of the reference in sidebar order, with its group. */
export function referenceOperations(reference: ApiReference): ReferenceOperation[] {
  return reference.groups.flatMap((group) => group.operations);
}

function responseOf(doc: JsonSchema, status: string, r: JsonSchema): ReferenceResponse {
  const headers = Object.entries((r.headers as Record<string, JsonSchema> | undefined) ?? {}).map(([name, ref]) => {
    const header = resolveRef(ref, doc);
    return {
      name,
      description: (header.description as string | undefined) ?? '',
      required: header.required === true,
      ...(header.example !== undefined ? { example: String(header.example) } : {}),
    };
  });
  const bodies = Object.entries((r.content as Record<string, JsonSchema> | undefined) ?? {}).map(([mediaType, media]) => ({
    mediaType,
    node: schemaView((media.schema as JsonSchema | undefined) ?? {}, doc),
    ...(media.example !== undefined ? { example: exampleText(media.example) } : {}),
  }));
  const code = Number(status);
  return {
    status,
    description: (r.description as string | undefined) ?? '',
    headers,
    bodies,
    kind: code >= 400 ? 'error' : code >= 300 ? 'redirect' : 'success',
  };
}

function authOf(doc: JsonSchema, op: JsonSchema): string[] {
  const requirements =
    (op.security as Record<string, string[]>[] | undefined) ?? (doc.security as Record<string, string[]>[] | undefined) ?? [];
  const schemes = ((doc.components as JsonSchema | undefined)?.securitySchemes ?? {}) as Record<string, JsonSchema>;
  const out: string[] = [];
  for (const requirement of requirements) {
    for (const [name, scopes] of Object.entries(requirement)) {
      const scheme = schemes[name];
      if (!scheme) continue;
      if (scheme.type === 'http' && scheme.scheme === 'basic')
        out.push(`HTTP Basic: ${(scheme.description as string | undefined) ?? 'client credentials'}.`);
      else if (scheme.type === 'oauth2')
        out.push(
          `OAuth 2.0 bearer token${scopes.length ? ` with scope ${scopes.map((s) => `\`${s}\``).join(', ')}` : ''}: ${(scheme.description as string | undefined) ?? ''}`.trim(),
        );
      else out.push(`${name}${scheme.description ? `: ${scheme.description as string}` : ''}`);
    }
  }
  const anonymous = requirements.some((r) => Object.keys(r).length === 0);
  if (out.length && anonymous) out.unshift('Optional: public calls need no credentials.');
  return out;
}

/** One request per named body example (or one without a body), with the documented query and headers. */
function requestsOf(
  server: string,
  path: string,
  method: string,
  op: JsonSchema,
  parameters: JsonSchema[],
  content: Record<string, JsonSchema>,
  responses: ReferenceResponse[],
): ReferenceRequest[] {
  const query: [string, string][] = parameters
    .filter((p) => p.in === 'query' && p.example !== undefined)
    .map((p) => [p.name as string, String(p.example)]);
  const headers: [string, string][] = [
    ...Object.entries((op['x-request-headers'] as Record<string, string> | undefined) ?? {}),
    ...parameters
      .filter((p) => p.in === 'header' && p.required === true && p.example !== undefined)
      .map((p): [string, string] => [p.name as string, String(p.example)]),
  ];
  const success = responses.find((r) => r.kind === 'success') ?? responses.find((r) => r.kind === 'redirect');
  const answer: HttpSample['answer'] =
    !success || success.bodies.length === 0 ? 'status' : success.bodies.some((b) => b.mediaType.endsWith('json')) ? 'json' : 'text';
  const base = { method: method.toUpperCase(), url: `${server}${path}`, query, headers, answer };
  const [mediaType, media] = Object.entries(content)[0] ?? [];
  if (!mediaType || !media) return [request('', base)];
  const kind = mediaType === 'application/x-www-form-urlencoded' ? 'form' : 'json';
  const named = Object.values((media.examples as Record<string, { summary?: string; value: unknown }> | undefined) ?? {});
  const examples = named.length
    ? named.map((e) => ({ title: e.summary ?? '', value: e.value }))
    : media.example !== undefined
      ? [{ title: '', value: media.example }]
      : [];
  return examples.map(({ title, value }) =>
    request(title, {
      ...base,
      body:
        kind === 'form'
          ? { kind, value: Object.entries(value as Record<string, unknown>).map(([k, v]): [string, string] => [k, String(v)]) }
          : { kind, value },
    }),
  );
}

const request = (title: string, sample: HttpSample): ReferenceRequest => ({ title, sample, snippets: snippetsOf(sample) });
