/**
 * The benchmark peer: the same `search_articles` tool on the official v1 SDK's stateless web-standard
 * server (`McpServer` + `WebStandardStreamableHTTPServerTransport`, a new pair per request, JSON
 * responses), over the same search index and result builder as our function. Bundled by
 * bench/mcp.bench.ts exactly like netlify/functions/mcp.mts; never deployed.
 * @module
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { z } from 'zod';
import { searchResults } from '../src/core/search/api.ts';
import { build } from '../netlify/functions/_shared/deps.ts';
import { searchEngineAt } from '../netlify/functions/_shared/search.ts';

// As the function: the index beside the bundle (bench/bundle-function.ts lays out the same tree).
const searchEngine = searchEngineAt(new URL('../generated/data/search/', import.meta.url))();

function createServer(): McpServer {
  const server = new McpServer({ name: 'sdk-peer/site', version: build.version }, { capabilities: { tools: {} } });
  server.registerTool(
    'search_articles',
    {
      description: 'Full-text search over the articles and solutions.',
      inputSchema: { query: z.string().min(1).max(200), limit: z.number().int().min(1).max(50).optional() },
      annotations: { readOnlyHint: true },
    },
    async ({ query, limit }) => {
      const results = searchResults(searchEngine, build.origin, query, limit ? { limit } : {});
      return { content: [{ type: 'text', text: JSON.stringify({ query, results }) }], structuredContent: { query, results } };
    },
  );
  return server;
}

export default async (req: Request): Promise<Response> => {
  const server = createServer();
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  return transport.handleRequest(req);
};
