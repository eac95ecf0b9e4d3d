// WebMCP: offers the site's search and article reader to an in-browser agent as tools. Feature-
// detected (document.modelContext from the W3C draft, navigator.modelContext from earlier Chrome
// builds); does nothing in browsers without it. Relative URLs only, so it works on any origin the
// page is served from.
//
// Tools are registered with an AbortSignal (the draft's only way to unregister: `unregisterTool`
// and `clearContext` were removed) and unregistered on `pagehide`, so an agent never calls a tool of
// a page that is gone; a page restored from the back/forward cache registers them again. The site
// has no client-side router, so a navigation always ends the document and its tools with it.
import { webMcpTools, type WebMcpTool } from './webmcp-tools.ts';

interface ModelContext {
  /** The draft returns a promise that rejects when the signal aborts (or the browser refuses the tool). */
  registerTool?(tool: WebMcpTool, options?: { signal?: AbortSignal }): unknown;
  /** Pre-2026-03 drafts: no per-tool registration. */
  provideContext?(context: { tools: WebMcpTool[] }): unknown;
}

/** The tools (webmcp-tools.ts): the site's MCP tools of the same names, called through /mcp. */
const tools = webMcpTools();

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
