// The WebMCP tools a page offers (registered by webmcp.ts): the site's MCP tools of the same names,
// declared as the MCP registry declares them (webmcp-tools.json is src/core/agent-tools/webmcp.ts
// written out; webmcp-tools.test.ts fails when it is stale) and called through /mcp, so the registry's
// schema checks the arguments there: nothing is checked twice or copied by hand. Whatever goes wrong
// comes back as a tool error (`isError: true`) saying what: invalid arguments, the JSON-RPC error, an
// HTTP problem's `detail`, the status, or an unreachable site; `execute` never throws.
import declared from './webmcp-tools.json';

/** What `execute` returns: an MCP `CallToolResult`, which is what WebMCP expects back. */
export interface ToolResult {
  content: { type: string; text: string }[];
  structuredContent?: unknown;
  isError?: boolean;
}

/** A tool as WebMCP's `registerTool` takes it. */
export interface WebMcpTool {
  name: string;
  description: string;
  inputSchema: object;
  annotations?: { readOnlyHint?: boolean };
  execute(input: unknown): Promise<ToolResult>;
}

/** How the page reaches the site (`fetch`; a test passes the server in-process). */
export type SiteFetch = (path: string, init: RequestInit) => Promise<Response>;

const toolError = (text: string): ToolResult => ({ content: [{ type: 'text', text }], isError: true });

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** Why an answer without a JSON-RPC result failed: the JSON-RPC error, a problem's `detail`, or the status. */
function failureOf(res: Response, text: string): string {
  try {
    const body: unknown = JSON.parse(text);
    if (isObject(body) && isObject(body.error) && typeof body.error.message === 'string') return body.error.message;
    if (isObject(body) && typeof body.detail === 'string') return body.detail;
  } catch {
    // Not JSON (a platform's plain 413 or 502): the status says it.
  }
  return `The site answered HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}.`;
}

/** Calls the site's MCP tool `name` with `input` as its arguments (absent: none). */
export async function callSiteTool(name: string, input: unknown, siteFetch: SiteFetch): Promise<ToolResult> {
  // Arguments are an object by the protocol itself (MCP would answer with its transport's words): said in the tool's.
  if (input !== undefined && input !== null && (!isObject(input) || Array.isArray(input)))
    return toolError(
      `Invalid arguments: expected an object of the tool's input schema, not ${Array.isArray(input) ? 'an array' : typeof input}.`,
    );
  let res: Response;
  let text: string;
  try {
    res = await siteFetch('/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: input ?? {} } }),
    });
    text = await res.text();
  } catch (error) {
    return toolError(`The site could not be reached: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (res.ok) {
    try {
      const reply: unknown = JSON.parse(text);
      if (isObject(reply) && isObject(reply.result) && Array.isArray(reply.result.content)) return reply.result as unknown as ToolResult;
    } catch {
      // Falls through to the failure's words.
    }
  }
  return toolError(failureOf(res, text));
}

/** The page's WebMCP tools, calling the site with `siteFetch`. */
export function webMcpTools(siteFetch: SiteFetch = (path, init) => fetch(path, init)): WebMcpTool[] {
  return declared.map((tool) => ({ ...tool, execute: (input: unknown) => callSiteTool(tool.name, input, siteFetch) }));
}
