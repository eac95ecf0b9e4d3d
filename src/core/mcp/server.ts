/**
 * `POST /mcp`: a stateless, dual-era MCP server (docs/reference/mcp-oauth.md §2–§4). Legacy handshake-era
 * clients (2025-03-26 … 2025-11-25) get `initialize`/`ping`; modern clients (2026-07-28) get
 * `server/discover`, per-request `_meta` and header validation. No sessions, no SSE: every
 * request is answered with one `application/json` body (or 202 for notifications).
 * @module
 */
import type { CorsPolicy } from '../kernel/cors.ts';
import type { EdgeOptions } from '../kernel/handler.ts';
import { type HandledMessage, type JsonRpcEndpoint, jsonRpcEdge, serveJsonRpc } from '../kernel/jsonrpc-endpoint.ts';
import {
  authorizeExport,
  invalidTokenChallenge,
  invalidTokenToolResponse,
  type AuthorizationContext,
  type CredentialCheck,
} from './auth.ts';
import {
  envelopeResponse,
  failure,
  isObject,
  JsonRpcErrorCode,
  success,
  type JsonObject,
  type JsonRpcFailure,
  type JsonRpcId,
  type JsonRpcSuccess,
} from '../kernel/jsonrpc.ts';
import {
  LATEST_LEGACY_PROTOCOL_VERSION,
  LATEST_PROTOCOL_VERSION,
  LEGACY_PROTOCOL_VERSIONS,
  MODERN_PROTOCOL_VERSIONS,
  SERVER_CAPABILITIES,
  SUPPORTED_PROTOCOL_VERSIONS,
  serverInfo,
} from './server-info.ts';
import { serverIdentity, type ServerIdentity } from '../agent-tools/identity.ts';
import { completeTemplateArgument, listResources, readResource, resourceTemplates } from './resources.ts';
import { findTool, TOOLS } from '../agent-tools/registry.ts';
import type { ToolContext } from '../agent-tools/tool.ts';
import { type BrowserOriginPolicy, isAllowedBrowserOrigin } from '../kernel/browser-origin.ts';
import { known } from '../kernel/metrics.ts';
import { isToleratedVersionPair, logToleratedPair } from './claude-ai-version-header.ts';

/** Largest request body accepted (413 beyond it). */
export const MAX_BODY_BYTES = 1024 * 1024;
/** How long clients may cache discover, lists and resource reads: all fixed for a deploy. */
export const DEPLOY_CACHE_TTL_MS = 3_600_000;
/** 2026-07-28 cache hints: nothing we list or read depends on the caller, so `public`. */
const CACHE_HINTS = { ttlMs: DEPLOY_CACHE_TTL_MS, cacheScope: 'public' } as const;

/** Reserved `_meta` keys of MCP 2026-07-28. */
export const META_PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion';
export const META_CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
export const META_SERVER_INFO = 'io.modelcontextprotocol/serverInfo';
export const META_CLIENT_INFO = 'io.modelcontextprotocol/clientInfo';

/** Methods whose `Mcp-Name` header mirrors a body parameter (SEP-2243). */
const NAMED_METHODS: Readonly<Record<string, string>> = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri' };

const MCP_CORS: CorsPolicy = {
  methods: ['POST'],
  allowHeaders: [
    'Accept',
    'Authorization',
    'Content-Type',
    'MCP-Protocol-Version',
    'Mcp-Method',
    'Mcp-Name',
    'Mcp-Session-Id',
    'Last-Event-ID',
  ],
  exposeHeaders: ['WWW-Authenticate', 'MCP-Protocol-Version'],
};

/** What the server needs: the tool context plus the deploy version and the authorization gate. */
export interface McpDeps extends ToolContext {
  /** Deploy version reported in `serverInfo`. */
  version: string;
  /** Which browser origins may call (AGENT_BROWSER_ORIGINS, default `auto`: kernel/browser-origin.ts); requests without Origin pass. */
  browserOrigins?: BrowserOriginPolicy;
  /** Gate for tools with a required scope; default {@link authorizeExport}. */
  authorize?: (req: Request, ctx: AuthorizationContext) => Promise<Response | null>;
  /** Checks a presented `Authorization` header; an invalid token is refused on every request (RFC 6750 §3.1). */
  credentials?: (req: Request) => Promise<CredentialCheck>;
  /** Where unexpected failures are logged. */
  log?: (message: string, error: unknown) => void;
  /** Where a tolerated client bug is noted (default console.warn): claude-ai-version-header.ts. */
  warn?: (message: string) => void;
}

type Era = 'legacy' | 'modern';

/** The methods counted by name (kernel/metrics.ts); any other counts as `other`. */
const COUNTED_METHODS = [
  'initialize',
  'ping',
  'server/discover',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'completion/complete',
  'subscriptions/listen',
  'notifications/initialized',
] as const;

/** A JSON-RPC answer before it becomes a Response. */
interface Answer {
  status: number;
  envelope?: JsonRpcSuccess | JsonRpcFailure;
  response?: Response;
}

const ok = (id: JsonRpcId, result: JsonObject): Answer => ({ status: 200, envelope: success(id, result) });
const err = (status: number, id: JsonRpcId | null, code: number, message: string, data?: unknown): Answer => ({
  status,
  envelope: failure(id, code, message, data),
});

/** A header value with optional whitespace trimmed and `=?base64?…?=` decoded (SEP-2243). */
export function decodeHeaderValue(value: string | null): string | null {
  if (value === null) return null;
  const trimmed = value.trim();
  const encoded = /^=\?base64\?([A-Za-z0-9+/=]*)\?=$/i.exec(trimmed);
  if (!encoded) return trimmed;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(atob(encoded[1]!), (c) => c.charCodeAt(0)));
  } catch {
    return null; // undecodable: treated as missing, so the request fails header validation
  }
}

/** `true` for a date-shaped revision at or after the first modern one (2026-07-28). */
function isModernVersion(version: string | null): boolean {
  return (
    version !== null && /^\d{4}-\d{2}-\d{2}$/.test(version) && version >= MODERN_PROTOCOL_VERSIONS[MODERN_PROTOCOL_VERSIONS.length - 1]!
  );
}

function metaOf(params: JsonObject | undefined): JsonObject | undefined {
  return params && isObject(params._meta) ? params._meta : undefined;
}

/** Origin rule (docs/reference/mcp-oauth.md §3 step 1, §4.3), shared with `/a2a`: see {@link isAllowedBrowserOrigin}. */
function isAllowedOrigin(origin: string, deps: Pick<McpDeps, 'origin' | 'browserOrigins'>): boolean {
  return isAllowedBrowserOrigin(origin, deps.origin, deps.browserOrigins);
}

/**
 * Checks the SEP-2243 headers against the body: the message of a -32020 error, or null. For the
 * tolerated client bug (claude-ai-version-header.ts) the version pair passes and the method and
 * name headers are checked only when sent.
 */
function headerMismatch(req: Request, method: string, params: JsonObject | undefined): string | null {
  const version = decodeHeaderValue(req.headers.get('mcp-protocol-version'));
  if (!version) return 'Header mismatch: the MCP-Protocol-Version header is required.';
  const metaVersion = metaOf(params)?.[META_PROTOCOL_VERSION];
  const tolerated = isToleratedVersionPair(version, metaVersion);
  if (typeof metaVersion === 'string' && metaVersion !== version && !tolerated) {
    return `Header mismatch: MCP-Protocol-Version "${version}" differs from _meta["${META_PROTOCOL_VERSION}"] "${metaVersion}".`;
  }
  const methodHeader = decodeHeaderValue(req.headers.get('mcp-method'));
  if (!methodHeader && !tolerated) return 'Header mismatch: the Mcp-Method header is required.';
  if (methodHeader && methodHeader !== method)
    return `Header mismatch: Mcp-Method "${methodHeader}" differs from the body method "${method}".`;
  const nameParam = NAMED_METHODS[method];
  if (nameParam) {
    const name = decodeHeaderValue(req.headers.get('mcp-name'));
    if (!name && tolerated) return null;
    if (!name) return `Header mismatch: the Mcp-Name header is required for ${method}.`;
    const bodyName = params?.[nameParam];
    if (typeof bodyName === 'string' && name !== bodyName)
      return `Header mismatch: Mcp-Name "${name}" differs from params.${nameParam} "${bodyName}".`;
  }
  return null;
}

/** Messages of the transport-level rejections (also the OpenAPI document's examples). */
export const TRANSPORT_MESSAGES = {
  methodNotAllowed: 'Method not allowed: this stateless MCP endpoint takes POST only (no SSE stream, no sessions).',
  unsupportedMediaType: 'Unsupported media type: send the JSON-RPC message as Content-Type: application/json.',
  notAcceptable: 'Not acceptable: the response is application/json; include it (and text/event-stream) in Accept.',
  tooLarge: `Content too large: the body must be at most ${MAX_BODY_BYTES} bytes.`,
} as const;

/** The MCP endpoint's transport: Streamable HTTP without SSE or sessions (kernel/jsonrpc-endpoint.ts). */
function mcpEndpoint(deps: McpDeps): JsonRpcEndpoint {
  return {
    allowOrigin: (origin) => isAllowedOrigin(origin, deps),
    allow: 'POST',
    maxBodyBytes: MAX_BODY_BYTES,
    messages: TRANSPORT_MESSAGES,
    requireAcceptJson: true,
    responses: 'accept',
    notifications: 'handle',
    log: deps.log,
  };
}

/** The edge of `/mcp`: POST, and CORS for the browser origins its DNS-rebinding guard lets through. */
export function mcpEdge(deps: Pick<McpDeps, 'origin' | 'browserOrigins'>): EdgeOptions {
  return jsonRpcEdge(MCP_CORS, (origin) => isAllowedOrigin(origin, deps));
}

/**
 * Handles one request to the MCP endpoint. Never throws: unexpected failures become 500 -32603
 * echoing the request id.
 */
export function handleMcp(req: Request, deps: McpDeps): Promise<Response> {
  return serveJsonRpc(req, mcpEndpoint(deps), async (message) => {
    const id = message.kind === 'request' ? message.id : null;
    if (deps.credentials && req.headers.has('authorization')) {
      // Public methods need no token, but a presented token must be valid (RFC 6750 §3.1).
      const check = await deps.credentials(req);
      if (check.kind === 'invalid' && message.kind === 'request' && message.method === 'tools/call') {
        return invalidTokenToolResponse({ id: message.id, origin: deps.origin }, check.reason);
      }
      if (check.kind === 'invalid') {
        return envelopeResponse(
          failure(id, JsonRpcErrorCode.INVALID_REQUEST, `Unauthorized: the access token is not valid (${check.reason}).`, {
            error: 'invalid_token',
          }),
          401,
          { 'www-authenticate': invalidTokenChallenge(deps.origin, 'the access token is not valid') },
        );
      }
    }
    return answerResponse(await dispatch(req, message, deps));
  });
}

function answerResponse(answer: Answer): Response {
  if (answer.response) return answer.response;
  if (!answer.envelope) return new Response(null, { status: answer.status });
  return envelopeResponse(answer.envelope, answer.status);
}

async function dispatch(req: Request, message: HandledMessage, deps: McpDeps): Promise<Answer> {
  const { method, params } = message;
  const headerVersion = decodeHeaderValue(req.headers.get('mcp-protocol-version'));
  const meta = metaOf(params);
  const era: Era = isModernVersion(headerVersion) || (meta !== undefined && META_PROTOCOL_VERSION in meta) ? 'modern' : 'legacy';
  const id = message.kind === 'request' ? message.id : null;
  deps.usage?.count(`mcp.era.${era}`);
  deps.usage?.count(`mcp.method.${known(method, COUNTED_METHODS)}`);

  if (era === 'modern') {
    // A revision this server does not speak is the first thing to say: the other headers' rules are that revision's.
    if (headerVersion !== null && isModernVersion(headerVersion) && !MODERN_PROTOCOL_VERSIONS.includes(headerVersion)) {
      return err(400, id, JsonRpcErrorCode.UNSUPPORTED_PROTOCOL_VERSION, `Unsupported protocol version ${headerVersion}.`, {
        supported: SUPPORTED_PROTOCOL_VERSIONS,
        requested: headerVersion,
      });
    }
    const mismatch = headerMismatch(req, method, params);
    if (mismatch) return err(400, id, JsonRpcErrorCode.HEADER_MISMATCH, mismatch);
    if (message.kind === 'notification') return { status: 202 };
    const requested = meta?.[META_PROTOCOL_VERSION];
    if (typeof requested === 'string' && headerVersion !== null && isToleratedVersionPair(headerVersion, requested)) {
      const clientInfo = meta?.[META_CLIENT_INFO];
      const clientName = isObject(clientInfo) && typeof clientInfo.name === 'string' ? clientInfo.name.slice(0, 100) : 'unnamed';
      logToleratedPair(headerVersion, requested, clientName, deps.warn ?? console.warn);
    }
    if (typeof requested !== 'string' || !isObject(meta?.[META_CLIENT_CAPABILITIES])) {
      return err(
        400,
        id,
        JsonRpcErrorCode.INVALID_PARAMS,
        `Invalid params: every request needs params._meta["${META_PROTOCOL_VERSION}"] and params._meta["${META_CLIENT_CAPABILITIES}"].`,
      );
    }
    if (!MODERN_PROTOCOL_VERSIONS.includes(requested)) {
      return err(400, id, JsonRpcErrorCode.UNSUPPORTED_PROTOCOL_VERSION, `Unsupported protocol version ${requested}.`, {
        supported: SUPPORTED_PROTOCOL_VERSIONS,
        requested,
      });
    }
    return routeModern(req, message.id, method, params, deps);
  }

  if (headerVersion !== null && !LEGACY_PROTOCOL_VERSIONS.includes(headerVersion)) {
    return err(
      400,
      id,
      JsonRpcErrorCode.INVALID_REQUEST,
      `Unsupported MCP-Protocol-Version "${headerVersion}". Supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}.`,
      {
        supported: SUPPORTED_PROTOCOL_VERSIONS,
        requested: headerVersion,
      },
    );
  }
  if (message.kind === 'notification') return { status: 202 };
  return routeLegacy(req, message.id, method, params, deps);
}

let identityCache: { siteName: string; identity: ServerIdentity } | undefined;
/** The server identity for the deployed catalogue (computed once). */
function identityOf(deps: McpDeps): ServerIdentity {
  const siteName = deps.site.company.name;
  if (identityCache?.siteName !== siteName) identityCache = { siteName, identity: serverIdentity(siteName) };
  return identityCache.identity;
}

function routeLegacy(req: Request, id: JsonRpcId, method: string, params: JsonObject | undefined, deps: McpDeps): Promise<Answer> | Answer {
  switch (method) {
    case 'initialize': {
      const requested = params?.protocolVersion;
      const protocolVersion =
        typeof requested === 'string' && LEGACY_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_LEGACY_PROTOCOL_VERSION;
      const identity = identityOf(deps);
      return ok(id, {
        protocolVersion,
        capabilities: SERVER_CAPABILITIES,
        serverInfo: serverInfo(identity, deps.version),
        instructions: identity.instructions,
      });
    }
    case 'ping':
      return ok(id, {});
    case 'tools/list':
      return listTools(id, params, {});
    case 'tools/call':
      return callTool(req, id, params, deps, {});
    default:
      return (
        answerResourceMethod(id, method, params, deps, {
          extras: {},
          cacheHints: {},
          notFoundCode: JsonRpcErrorCode.LEGACY_RESOURCE_NOT_FOUND,
        }) ?? err(200, id, JsonRpcErrorCode.METHOD_NOT_FOUND, `Method not found: ${method}.`)
      );
  }
}

function routeModern(req: Request, id: JsonRpcId, method: string, params: JsonObject | undefined, deps: McpDeps): Promise<Answer> | Answer {
  const identity = identityOf(deps);
  const extras = { resultType: 'complete', _meta: { [META_SERVER_INFO]: serverInfo(identity, deps.version) } };
  switch (method) {
    case 'server/discover':
      return ok(id, {
        supportedVersions: SUPPORTED_PROTOCOL_VERSIONS,
        capabilities: SERVER_CAPABILITIES,
        instructions: identity.instructions,
        ...CACHE_HINTS,
        ...extras,
      });
    case 'tools/list':
      // The list is the same for every caller (the protected tool is listed for everyone), so public.
      return listTools(id, params, { ...extras, ...CACHE_HINTS });
    case 'tools/call':
      return callTool(req, id, params, deps, extras);
    case 'subscriptions/listen':
      // Nothing here changes during a deploy, so no listChanged/subscribe capability is declared and
      // listen is not implemented: the transport's answer for an unimplemented method (404 -32601).
      return err(
        404,
        id,
        JsonRpcErrorCode.METHOD_NOT_FOUND,
        'Method not found: subscriptions/listen (this server declares no listChanged or subscribe capability; its lists are fixed for a deploy).',
      );
    default:
      return (
        answerResourceMethod(id, method, params, deps, {
          extras,
          cacheHints: CACHE_HINTS,
          notFoundCode: JsonRpcErrorCode.INVALID_PARAMS,
        }) ?? err(404, id, JsonRpcErrorCode.METHOD_NOT_FOUND, `Method not found: ${method} (protocol ${LATEST_PROTOCOL_VERSION}).`)
      );
  }
}

/** How one era shapes resource answers. */
interface ResourceEra {
  /** `resultType` and `_meta` (2026-07-28) or nothing (handshake era). */
  extras: JsonObject;
  /** `ttlMs`/`cacheScope` on cacheable results (2026-07-28 only). */
  cacheHints: JsonObject;
  notFoundCode: number;
}

/** `resources/*` and `completion/complete`, the same in both eras but for the era's shapes; undefined for other methods. */
function answerResourceMethod(
  id: JsonRpcId,
  method: string,
  params: JsonObject | undefined,
  deps: McpDeps,
  era: ResourceEra,
): Promise<Answer> | Answer | undefined {
  switch (method) {
    case 'resources/list': {
      const page = listResources(deps.catalog, params?.cursor);
      if (!page)
        return err(
          200,
          id,
          JsonRpcErrorCode.INVALID_PARAMS,
          'Invalid cursor: pass the nextCursor of the previous page unchanged, or omit cursor.',
        );
      return ok(id, { ...page, ...era.cacheHints, ...era.extras });
    }
    case 'resources/templates/list':
      if (params?.cursor !== undefined)
        return err(200, id, JsonRpcErrorCode.INVALID_PARAMS, 'Invalid cursor: resources/templates/list has a single page; omit cursor.');
      return ok(id, { resourceTemplates: resourceTemplates(deps.catalog), ...era.cacheHints, ...era.extras });
    case 'resources/read': {
      const uri = params?.uri;
      if (typeof uri !== 'string')
        return err(200, id, JsonRpcErrorCode.INVALID_PARAMS, 'Invalid params: resources/read needs {"uri": string}.');
      return readResource(deps.catalog, deps.bodies, uri).then((contents) =>
        contents
          ? ok(id, { contents, ...era.cacheHints, ...era.extras })
          : err(
              200,
              id,
              era.notFoundCode,
              `Resource not found: ${uri}. Call resources/list, or fill a template from resources/templates/list.`,
              { uri },
            ),
      );
    }
    case 'completion/complete': {
      const ref = params?.ref;
      const argument = params?.argument;
      if (!isObject(ref) || !isObject(argument) || typeof argument.name !== 'string' || typeof argument.value !== 'string') {
        return err(
          200,
          id,
          JsonRpcErrorCode.INVALID_PARAMS,
          'Invalid params: completion/complete needs {"ref": object, "argument": {"name": string, "value": string}}.',
        );
      }
      if (ref.type === 'ref/prompt')
        return err(200, id, JsonRpcErrorCode.INVALID_PARAMS, `Unknown prompt ${String(ref.name)}: this server has no prompts.`);
      if (ref.type !== 'ref/resource' || typeof ref.uri !== 'string') {
        return err(
          200,
          id,
          JsonRpcErrorCode.INVALID_PARAMS,
          'Invalid params: ref must be {"type": "ref/resource", "uri": <a template from resources/templates/list>}.',
        );
      }
      const outcome = completeTemplateArgument(deps.catalog, ref.uri, argument.name, argument.value);
      if (!outcome.ok) return err(200, id, JsonRpcErrorCode.INVALID_PARAMS, outcome.message);
      return ok(id, { completion: outcome.completion, ...era.extras });
    }
    default:
      return undefined;
  }
}

function listTools(id: JsonRpcId, params: JsonObject | undefined, extras: JsonObject): Answer {
  // We never issue a cursor, so any cursor is one we did not issue.
  if (params?.cursor !== undefined)
    return err(200, id, JsonRpcErrorCode.INVALID_PARAMS, 'Invalid cursor: tools/list has a single page; omit cursor.');
  return ok(id, { tools: TOOLS.map((tool) => tool.listing), ...extras });
}

async function callTool(req: Request, id: JsonRpcId, params: JsonObject | undefined, deps: McpDeps, extras: JsonObject): Promise<Answer> {
  const name = params?.name;
  const args = params?.arguments;
  if (typeof name !== 'string' || (args !== undefined && !isObject(args))) {
    return err(200, id, JsonRpcErrorCode.INVALID_PARAMS, 'Invalid params: tools/call needs {"name": string, "arguments"?: object}.');
  }
  const tool = findTool(name);
  if (!tool) return err(200, id, JsonRpcErrorCode.INVALID_PARAMS, `Unknown tool: ${name}. Call tools/list for the available tools.`);
  if (tool.requiredScope !== undefined) {
    const denied = await (deps.authorize ?? authorizeExport)(req, { id, origin: deps.origin, resultExtras: extras });
    if (denied) return { status: denied.status, response: denied };
  }
  deps.usage?.count(`mcp.tool.${tool.name}`);
  // The deps are the tool context: passed whole so that a tool reads (and loads) only what it uses.
  const result = await tool.call(args ?? {}, deps);
  return ok(id, { ...result, ...extras });
}
