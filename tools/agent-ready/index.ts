/**
 * The agent-readiness checker as a library: run the checks against any origin with any `fetch`,
 * then score them. Runtime-neutral (fetch and Web Crypto only); the Node command line, the
 * Chromium launcher and the WebMCP probe live in node/.
 * @module
 */
export { dnsOverHttpsResolver } from './dns-over-https.ts';
export { REQUEST_TIMEOUT_MS, USER_AGENT } from './http.ts';
export { CHECKS, runChecks, type RunHooks } from './registry.ts';
export { buildReport, LEVEL_NAMES, levelOf, scoreOf, type NextLevel, type Report } from './score.ts';
export type { Check, CheckContext, CheckResult, CheckStatus, DnsAnswer, DnsRecord, DnsResolver, Verdict, WebMcpProbe } from './types.ts';
