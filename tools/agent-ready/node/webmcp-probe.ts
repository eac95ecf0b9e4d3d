/**
 * The WebMCP probe for the agent-readiness checker: loads a page in Debian's Chromium with a stub
 * `navigator.modelContext` (and `document.modelContext`, the newer draft) installed before any
 * page script runs, and returns the names of the tools the page registers while it loads.
 */
import type { Browser } from 'playwright-core';
import type { WebMcpProbe } from '../types.ts';
import { launchBrowser } from './chromium.ts';

/** Budget for the navigation, up to the load event. */
export const WEBMCP_LOAD_TIMEOUT_MS = 20_000;
/** After load, how long late registrations (deferred and module scripts, idle callbacks) may take. */
export const WEBMCP_SETTLE_MS = 1_500;

/** Runs in the page before its own scripts: one stub model context that records every registration. */
function installModelContextStub(): void {
  const names: string[] = [];
  const context = {
    registerTool(tool: { name?: unknown }) {
      if (typeof tool?.name === 'string') names.push(tool.name);
      return { unregister() {} };
    },
    provideContext(provided: { tools?: { name?: unknown }[] }) {
      for (const tool of provided?.tools ?? []) if (typeof tool?.name === 'string') names.push(tool.name);
    },
    unregisterTool() {},
    clearContext() {},
  };
  Object.defineProperty(window, '__agentReadyWebMcpTools', { value: names });
  Object.defineProperty(navigator, 'modelContext', { value: context, configurable: true });
  Object.defineProperty(document, 'modelContext', { value: context, configurable: true });
}

/** A probe that launches Chromium on first use (null when it cannot), and closes it with `close()`. */
export function createWebMcpProbe(): { probe: WebMcpProbe; close(): Promise<void> } {
  let browser: Promise<Browser | null> | undefined;
  // Several rubrics ask about the same page (isitagentready, Lighthouse, AgentReady.org): load it once.
  const loaded = new Map<string, ReturnType<WebMcpProbe>>();
  const load: WebMcpProbe = async (url) => {
    browser ??= launchBrowser().catch(() => null); // no Chromium → the check reports "not checked"
    const chromium = await browser;
    if (!chromium) return null;
    const context = await chromium.newContext();
    try {
      const page = await context.newPage();
      await page.addInitScript(installModelContextStub);
      const response = await page.goto(url, { waitUntil: 'load', timeout: WEBMCP_LOAD_TIMEOUT_MS });
      if (response && response.status() >= 400) throw new Error(`GET ${new URL(url).pathname} → ${response.status()}`);
      if (new URL(page.url()).origin !== new URL(url).origin) throw new Error(`the page navigated off the origin to ${page.url()}`);
      const registered = () => (window as unknown as { __agentReadyWebMcpTools: string[] }).__agentReadyWebMcpTools.length > 0;
      // None registered within the settle time: the answer is [].
      await page.waitForFunction(registered, undefined, { timeout: WEBMCP_SETTLE_MS }).catch(() => undefined);
      const names = await page.evaluate(() => (window as unknown as { __agentReadyWebMcpTools: string[] }).__agentReadyWebMcpTools);
      return [...new Set(names)];
    } finally {
      await context.close();
    }
  };
  const probe: WebMcpProbe = (url) => {
    let pending = loaded.get(url);
    if (!pending) {
      pending = load(url);
      loaded.set(url, pending);
    }
    return pending;
  };
  return {
    probe,
    close: async () => {
      await (await browser)?.close();
    },
  };
}
