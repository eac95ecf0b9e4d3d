/**
 * webMcp check: the home page registers WebMCP tools (`navigator.modelContext.registerTool` /
 * `provideContext`, or `document.modelContext`) while it loads in a real browser. The browser is
 * injected (`ctx.probeWebMcp`); without one the check is neutral, like the scanner's
 * "unable to check".
 * @module
 */
import { type CheckContext, fail, neutral, pass, type Verdict } from '../types.ts';

const FIX =
  'On page load, feature-detect navigator.modelContext (and document.modelContext) and call registerTool({name, description, inputSchema, execute}) for each tool.';

/** webMcp: ≥ 1 tool registered during load of `/`. */
export async function checkWebMcp(ctx: CheckContext): Promise<Verdict> {
  if (!ctx.probeWebMcp) return neutral('not checked: no browser available', 'Install Chromium (or set CHROME_PATH) to check WebMCP.');
  let tools: string[] | null;
  try {
    tools = await ctx.probeWebMcp(new URL('/', `${ctx.baseUrl}/`).href);
  } catch (error) {
    return fail(
      `the page could not be loaded in the browser: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
      FIX,
    );
  }
  if (tools === null)
    return neutral('not checked: the browser could not be started', 'Install Chromium (or set CHROME_PATH) to check WebMCP.');
  if (tools.length === 0) return fail('no WebMCP tool was registered while / loaded', FIX);
  return pass(`/ registers ${tools.length} WebMCP tool(s): ${tools.join(', ')}`);
}
