// GET /mcp/server-card, the two .well-known card paths and the registry's server.json: documents
// about the MCP server, built and routed in src/core/mcp from one source.
// Data comes through _shared/*.ts: Netlify's config parser rejects JSON import attributes here.
import type { Config } from '@netlify/functions';
import { httpHandler } from '../../src/core/kernel/handler.ts';
import { MCP_DOCUMENT_EDGE } from '../../src/core/mcp/server-card.ts';
import { handleMcpDocument } from '../../src/core/mcp/registry-server.ts';
import { build, site } from './_shared/deps.ts';
import { counting } from './_shared/usage.ts';

const deps = { origin: build.origin, version: build.version, siteName: site.company.name };

export default httpHandler((req: Request): Promise<Response> => handleMcpDocument(req, deps), {
  ...MCP_DOCUMENT_EDGE,
  usage: counting('discovery'),
});

// Literal paths (the in-source config parser reads only literals): SERVER_CARD_PATHS and SERVER_JSON_PATH in core.
export const config: Config = {
  path: ['/.well-known/mcp/server-card.json', '/.well-known/mcp.json', '/mcp/server-card', '/.well-known/mcp/server.json'],
};
