/**
 * A minimal MCP client over Streamable HTTP for the behaviour checks, in both protocol eras: the handshake
 * era (`initialize`, revisions 2024-11-05 to 2025-11-25) and 2026-07-28 (`server/discover`, per-request
 * `_meta`, `MCP-Protocol-Version` and `Mcp-Method`/`Mcp-Name` headers). Hand-written rather than the SDK
 * (`@modelcontextprotocol/client`): a check must send exactly one era's requests, never negotiate down,
 * and report the bytes it sent and the answer it got.
 * @module
 */
import { type Fetched, isJsonType, mediaType, outcome, send } from '../http.ts';
import { memo } from '../site.ts';
import type { CheckContext } from '../types.ts';
import { CHECKER_NAME, CHECKER_VERSION } from '../version.ts';

/** The handshake-free revision (and the first of its era). */
export const MODERN_MCP_VERSION = '2026-07-28';
/** The newest handshake-era revision, sent when a server card names no version of that era. */
export const LATEST_LEGACY_MCP_VERSION = '2025-11-25';
/** Client identity sent in `initialize` and `_meta`. */
export const CLIENT_INFO = { name: CHECKER_NAME, version: CHECKER_VERSION };

/** The era a protocol revision belongs to. */
export function eraOf(version: string): 'legacy' | 'modern' {
  return version >= MODERN_MCP_VERSION ? 'modern' : 'legacy';
}

/** A JSON-RPC answer as read from JSON or from the first `data:` event of an SSE stream. */
export interface RpcAnswer {
  res: Fetched;
  message?: { result?: Record<string, unknown>; error?: { code: number; message: string } };
  /** Why no JSON-RPC message could be read. */
  problem?: string;
}

/** Reads a JSON-RPC response body (application/json, or text/event-stream with a `data:` line). */
export function readRpc(res: Fetched): RpcAnswer {
  if (res.error) return { res, problem: res.error };
  const type = mediaType(res);
  let text = res.text;
  if (type === 'text/event-stream') {
    const data = res.text
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trim());
    text = data.find((d) => d.startsWith('{')) ?? '';
  } else if (!isJsonType(type)) return { res, problem: `answered ${res.status} ${type || 'without a Content-Type'}` };
  try {
    const message = JSON.parse(text) as RpcAnswer['message'];
    if (!message || typeof message !== 'object') return { res, problem: 'the body is not a JSON-RPC object' };
    return { res, message };
  } catch {
    return { res, problem: 'the body is not JSON' }; // the parser's position adds nothing to a one-line reason
  }
}

/** One line of evidence: the request, and what came back. */
export function evidenceLine(request: string, answer: RpcAnswer | Fetched, _ctx: CheckContext): string {
  const res = 'res' in answer ? answer.res : answer;
  const rpc = 'res' in answer ? answer : undefined;
  const said = rpc?.message?.error
    ? `JSON-RPC error ${rpc.message.error.code} ${rpc.message.error.message}`
    : rpc?.problem && rpc.problem !== res.error // a request error is already the outcome: not said twice
      ? rpc.problem
      : rpc?.message?.result
        ? `result {${Object.keys(rpc.message.result).slice(0, 6).join(', ')}}`
        : '';
  return `${request} → ${outcome(res)}${said ? `, ${said}` : ''}`;
}

let nextId = 1;

/** POSTs one JSON-RPC request (or notification, when `id` is null) in the given era. */
async function call(
  ctx: CheckContext,
  endpoint: string,
  version: string,
  method: string,
  params: Record<string, unknown>,
  extra: { sessionId?: string; name?: string; notification?: boolean; legacyHeader?: boolean } = {},
): Promise<RpcAnswer> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const body: Record<string, unknown> = { jsonrpc: '2.0', method };
  if (eraOf(version) === 'modern') {
    headers['mcp-protocol-version'] = version;
    headers['mcp-method'] = method;
    if (extra.name) headers['mcp-name'] = extra.name;
    body.params = {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': version,
        'io.modelcontextprotocol/clientCapabilities': {},
        'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
      },
    };
  } else {
    if (extra.legacyHeader) headers['mcp-protocol-version'] = version;
    if (extra.sessionId) headers['mcp-session-id'] = extra.sessionId;
    body.params = params;
  }
  if (!extra.notification) body.id = nextId++;
  const res = await send(ctx, endpoint, { method: 'POST', headers, body: JSON.stringify(body) });
  if (extra.notification) return { res };
  return readRpc(res);
}

/** A tool as `tools/list` describes it (the members the checks read). */
export interface McpTool {
  name: string;
  description?: string;
  inputSchema?: { type?: string; properties?: Record<string, Record<string, unknown>>; required?: string[] };
  annotations?: { readOnlyHint?: boolean };
}

/** What one era's session established. */
export interface McpSession {
  version: string;
  era: 'legacy' | 'modern';
  evidence: string[];
  /** `serverInfo.name` from `initialize`, or `_meta["io.modelcontextprotocol/serverInfo"].name` from `server/discover`. */
  serverName?: string;
  tools?: McpTool[];
  /** The first step that failed, as a reason. */
  problem?: string;
  sessionId?: string;
}

function serverNameOf(result: Record<string, unknown> | undefined): string | undefined {
  const info = (result?.serverInfo ?? (result?._meta as Record<string, unknown> | undefined)?.['io.modelcontextprotocol/serverInfo']) as
    | { name?: unknown }
    | undefined;
  return typeof info?.name === 'string' && info.name ? info.name : undefined;
}

/**
 * Opens a session in one revision and lists the tools: `initialize` (+ `notifications/initialized`) then
 * `tools/list` in the handshake era; `server/discover` then `tools/list` in 2026-07-28. Memoised per
 * endpoint and revision, so every rubric that asks reuses one handshake.
 */
export function mcpSession(ctx: CheckContext, endpoint: string, version: string): Promise<McpSession> {
  return memo(ctx, `mcp ${endpoint} ${version}`, async () => {
    const session: McpSession = { version, era: eraOf(version), evidence: [] };
    if (session.era === 'legacy') {
      const init = await call(ctx, endpoint, version, 'initialize', {
        protocolVersion: version,
        capabilities: {},
        clientInfo: CLIENT_INFO,
      });
      session.evidence.push(evidenceLine(`POST ${endpoint} initialize (protocolVersion ${version})`, init, ctx));
      if (!init.message?.result)
        return { ...session, problem: `initialize: ${init.problem ?? init.message?.error?.message ?? 'no result'}` };
      session.serverName = serverNameOf(init.message.result);
      session.sessionId = init.res.headers.get('mcp-session-id') ?? undefined;
      const agreed = String(init.message.result.protocolVersion ?? version);
      if (agreed !== version) session.evidence.push(`the server answered protocolVersion ${agreed}`);
      const note = await call(
        ctx,
        endpoint,
        agreed,
        'notifications/initialized',
        {},
        { notification: true, sessionId: session.sessionId, legacyHeader: true },
      );
      session.evidence.push(evidenceLine('POST notifications/initialized', note.res, ctx));
    } else {
      const discover = await call(ctx, endpoint, version, 'server/discover', {});
      session.evidence.push(evidenceLine(`POST ${endpoint} server/discover (MCP-Protocol-Version ${version})`, discover, ctx));
      if (!discover.message?.result)
        return { ...session, problem: `server/discover: ${discover.problem ?? discover.message?.error?.message ?? 'no result'}` };
      session.serverName = serverNameOf(discover.message.result);
    }
    const list = await call(ctx, endpoint, version, 'tools/list', {}, { sessionId: session.sessionId, legacyHeader: true });
    session.evidence.push(evidenceLine('POST tools/list', list, ctx));
    const tools = list.message?.result?.tools;
    if (!Array.isArray(tools))
      return { ...session, problem: `tools/list: ${list.problem ?? list.message?.error?.message ?? 'no tools array'}` };
    session.tools = tools.filter((t): t is McpTool => !!t && typeof (t as McpTool).name === 'string');
    return session;
  });
}

/** Arguments that satisfy a tool's required inputs, from the schema's own enum, default or examples. */
export function sampleArguments(tool: McpTool): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const name of tool.inputSchema?.required ?? []) {
    const prop = tool.inputSchema?.properties?.[name] ?? {};
    const examples = prop.examples as unknown[] | undefined;
    if (Array.isArray(prop.enum) && prop.enum.length) args[name] = prop.enum[0];
    else if (prop.default !== undefined) args[name] = prop.default;
    else if (Array.isArray(examples) && examples.length) args[name] = examples[0];
    else if (prop.type === 'integer' || prop.type === 'number') args[name] = typeof prop.minimum === 'number' ? prop.minimum : 1;
    else if (prop.type === 'boolean') args[name] = true;
    else if (prop.type === 'array') args[name] = [];
    else if (prop.type === 'object') args[name] = {};
    else args[name] = 'agent';
  }
  return args;
}

/** Calls one tool in an open session; the answer and its evidence line. */
export async function mcpCallTool(
  ctx: CheckContext,
  endpoint: string,
  session: McpSession,
  tool: McpTool,
): Promise<{ answer: RpcAnswer; evidence: string }> {
  const args = sampleArguments(tool);
  const answer = await call(
    ctx,
    endpoint,
    session.version,
    'tools/call',
    { name: tool.name, arguments: args },
    {
      sessionId: session.sessionId,
      name: tool.name,
      legacyHeader: true,
    },
  );
  return { answer, evidence: evidenceLine(`POST tools/call ${tool.name} ${JSON.stringify(args)}`, answer, ctx) };
}
