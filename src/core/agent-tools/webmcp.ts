/**
 * The tools every page offers an in-browser agent through WebMCP (src/browser/webmcp.ts): the MCP
 * tools of the same names, with their descriptions and input schemas as `tools/list` has them. The
 * page calls them through `/mcp`, so the registry's schema checks the arguments there, once.
 * @module
 */
import type { JsonObject } from '../kernel/jsonrpc.ts';
import { findTool } from './registry.ts';

/** The tools a page registers: public and read-only (no token in a page, nothing stored on an agent's say). */
export const WEBMCP_TOOL_NAMES = ['search_articles', 'get_article'] as const;

/** What a page declares for one WebMCP tool (its `execute` is the page's). */
export interface WebMcpListing extends JsonObject {
  name: string;
  description: string;
  inputSchema: JsonObject & { type: 'object' };
  annotations: { readOnlyHint: boolean };
}

/** The WebMCP declarations, from the MCP registry's listings (src/browser/webmcp-tools.json is this, written out). */
export function webMcpListings(): WebMcpListing[] {
  return WEBMCP_TOOL_NAMES.map((name) => {
    const tool = findTool(name);
    if (!tool || tool.requiredScope !== undefined || tool.listing.annotations.readOnlyHint !== true)
      throw new Error(`WebMCP offers public read-only MCP tools only; ${name} is not one`);
    const { description, inputSchema } = tool.listing;
    return { name, description, inputSchema, annotations: { readOnlyHint: true } };
  });
}
