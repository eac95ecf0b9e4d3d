// WebMCP: offers the site's search and article reader to an in-browser agent as tools. Feature-
// detected (document.modelContext from the W3C draft, navigator.modelContext from earlier Chrome
// builds); does nothing in browsers without it. Relative URLs only, so it works on any origin the
// page is served from.
//
// Tools are registered with an AbortSignal (the draft's only way to unregister: `unregisterTool`
// and `clearContext` were removed) and unregistered on `pagehide`, so an agent never calls a tool of
// a page that is gone; a page restored from the back/forward cache registers them again. The site
// has no client-side router, so a navigation always ends the document and its tools with it.
interface WebMcpTool {
  name: string;
  description: string;
  inputSchema: object;
  annotations?: { readOnlyHint?: boolean };
  execute(input: Record<string, string>): Promise<unknown>;
}
interface ModelContext {
  /** The draft returns a promise that rejects when the signal aborts (or the browser refuses the tool). */
  registerTool?(tool: WebMcpTool, options?: { signal?: AbortSignal }): unknown;
  /** Pre-2026-03 drafts: no per-tool registration. */
  provideContext?(context: { tools: WebMcpTool[] }): unknown;
}

const text = (t: string) => ({ content: [{ type: 'text', text: t }] });
const input = (name: string, description: string) => ({
  type: 'object',
  properties: { [name]: { type: 'string', description } },
  required: [name],
});

const tools: WebMcpTool[] = [
  {
    name: 'search_articles',
    description: "Search this site's articles and solutions (Chinese or English). Returns JSON hits with slug, title, excerpt and url.",
    inputSchema: input('query', 'Search text'),
    annotations: { readOnlyHint: true },
    execute: async ({ query }) => text(await (await fetch(`/api/search?q=${encodeURIComponent(query!)}`)).text()),
  },
  {
    name: 'get_article',
    description: 'The full markdown and metadata of one article or solution, by the slug search_articles returns.',
    inputSchema: input('slug', 'Article or solution slug'),
    annotations: { readOnlyHint: true },
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

const contexts = new Set([
  (document as { modelContext?: ModelContext }).modelContext,
  (navigator as { modelContext?: ModelContext }).modelContext,
]);
let registration: AbortController | null = null;

function register(): void {
  if (registration) return;
  registration = new AbortController();
  const { signal } = registration;
  for (const context of contexts) {
    if (!context) continue;
    if (!context.registerTool) {
      context.provideContext?.({ tools });
      continue;
    }
    for (const tool of tools) {
      // Rejects with the abort reason once unregistered, or at once if the browser refuses the tool
      // (older builds threw instead): neither is an error of the page.
      new Promise((resolve) => resolve(context.registerTool!(tool, { signal }))).catch(() => undefined);
    }
  }
}

function unregister(): void {
  registration?.abort();
  registration = null;
}

register();
addEventListener('pagehide', unregister);
addEventListener('pageshow', (event) => {
  if (event.persisted) register();
});
