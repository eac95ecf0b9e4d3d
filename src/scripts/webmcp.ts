// WebMCP: offers the site's search and article reader to an in-browser agent as tools. Feature-
// detected (navigator.modelContext, and document.modelContext from the newer draft); does nothing
// in browsers without it. Relative URLs only, so it works on any origin the page is served from.
interface WebMcpTool {
  name: string;
  description: string;
  inputSchema: object;
  execute(input: Record<string, string>): Promise<unknown>;
}
interface ModelContext {
  registerTool?(tool: WebMcpTool): unknown;
  provideContext?(context: { tools: WebMcpTool[] }): unknown;
}

const text = (t: string) => ({ content: [{ type: 'text', text: t }] });
const input = (name: string, description: string) => ({ type: 'object', properties: { [name]: { type: 'string', description } }, required: [name] });

const tools: WebMcpTool[] = [
  {
    name: 'search_articles',
    description: "Search this site's articles and solutions (Chinese or English). Returns JSON hits with slug, title, excerpt and url.",
    inputSchema: input('query', 'Search text'),
    execute: async ({ query }) => text(await (await fetch(`/api/search?q=${encodeURIComponent(query!)}`)).text()),
  },
  {
    name: 'get_article',
    description: 'The full markdown and metadata of one article or solution, by the slug search_articles returns.',
    inputSchema: input('slug', 'Article or solution slug'),
    // The site's MCP server answers with an MCP tool result, which is what WebMCP expects back.
    execute: async ({ slug }) => {
      const res = await fetch('/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_article', arguments: { slug } } }),
      });
      const reply = await res.json();
      return reply.result ?? { ...text(reply.error?.message ?? `HTTP ${res.status}`), isError: true };
    },
  },
];

const contexts = new Set([(navigator as { modelContext?: ModelContext }).modelContext, (document as { modelContext?: ModelContext }).modelContext]);
for (const context of contexts) {
  if (!context) continue;
  if (context.registerTool) for (const tool of tools) context.registerTool(tool);
  else context.provideContext?.({ tools });
}
