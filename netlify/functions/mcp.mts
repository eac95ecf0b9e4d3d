// POST /mcp: the site's MCP server (stateless, dual-era); all logic lives in src/core/mcp.
// Data comes through _shared/*.ts: Netlify's config parser rejects JSON import attributes here.
import type { Config, Context } from '@netlify/functions';
import { httpHandler } from '../../src/core/kernel/handler.ts';
import { handleMcp, MAX_BODY_BYTES, mcpEdge, type McpDeps } from '../../src/core/mcp/server.ts';
import { AGENT_ENTRY_POINTS } from '../../src/core/publish/entry-points.ts';
import { perRequestAgentDeps } from './_shared/agent-request-deps.ts';
import { build, catalogAt, deployBodies, site, runtimeConfig } from './_shared/deps.ts';
import { mcpAuthorization } from './_shared/mcp-authorization.ts';
import { searchEngineAt } from './_shared/search.ts';
import { readLimited } from './_shared/read-limit.ts';
import { counting } from './_shared/usage.ts';

// Shipped beside this file (netlify.toml included_files), each read on first use: initialize and
// tools/list need neither, a search reads the index's head and the shards its query needs, a
// resources/list page or get_article the catalogue's head and the files of its documents. Bodies come from the deploy's Blobs store.
const catalog = catalogAt(new URL('../../generated/data/catalog/', import.meta.url));
const engine = searchEngineAt(new URL('../../generated/data/search/', import.meta.url));

const deps: McpDeps = {
  site,
  bodies: deployBodies,
  origin: build.origin,
  version: build.version,
  entryPoints: AGENT_ENTRY_POINTS,
  ...mcpAuthorization(),
  get browserOrigins() {
    return runtimeConfig().browserOrigins;
  },
  get catalog() {
    return catalog();
  },
  get engine() {
    return engine();
  },
};

export default httpHandler(
  (req: Request, context: Context): Promise<Response> => handleMcp(req, perRequestAgentDeps(deps, context, 'mcp', catalog)),
  {
    ...mcpEdge(deps),
    usage: counting('mcp'),
    admission: readLimited('jsonrpc', MAX_BODY_BYTES),
  },
);

export const config: Config = { path: '/mcp' };
