// POST /mcp: the site's MCP server (stateless, dual-era); all logic lives in src/core/mcp.
// Data comes through _shared/*.ts: Netlify's config parser rejects JSON import attributes here.
import type { Config } from '@netlify/functions';
import { handleMcp, type McpDeps } from '../../src/core/mcp/server.ts';
import { build, catalog } from './_shared/deps.ts';
import { searchEngine } from './_shared/search.ts';

const deps: McpDeps = { catalog, engine: searchEngine, origin: build.origin, version: build.version };

export default (req: Request): Promise<Response> => handleMcp(req, deps);

export const config: Config = { path: '/mcp' };
