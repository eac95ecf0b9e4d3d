/**
 * The Node half of the checker: the WebMCP probe on Debian's Chromium and the browser launcher.
 * @module
 */
export { CHROMIUM_FLAGS, CHROMIUM_HEADLESS_FLAGS, CHROMIUM_PATH, HEADLESS_CHROMIUM_PATH, launchBrowser } from './chromium.ts';
export { createWebMcpProbe, WEBMCP_LOAD_TIMEOUT_MS, WEBMCP_SETTLE_MS } from './webmcp-probe.ts';
