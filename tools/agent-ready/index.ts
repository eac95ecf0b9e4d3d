/**
 * The agent-readiness checker as a library: scan any origin with any `fetch` against every rubric (or
 * one), or run one rubric's checks. Runtime-neutral (fetch and Web Crypto only); the Node command line,
 * the Chromium launcher and the WebMCP probe live in node/.
 * @module
 */
export { dnsOverHttpsResolver } from './dns-over-https.ts';
export { REQUEST_TIMEOUT_MS, USER_AGENT } from './http.ts';
export { CHECKS, runChecks, type RunHooks } from './registry.ts';
export { buildReport, LEVEL_NAMES, levelOf, scoreOf, type NextLevel, type Report } from './score.ts';
export {
  CHECKER,
  countsOf,
  RUBRICS,
  scan,
  selectRubrics,
  type Counts,
  type RubricReport,
  type ScanHooks,
  type ScanReport,
} from './scan.ts';
export { AFDOCS } from './rubrics/afdocs.ts';
export { AGENT_READABILITY } from './rubrics/agent-readability.ts';
export { AGENTREADY_ORG } from './rubrics/agentready-org.ts';
export { BEHAVIOUR } from './rubrics/behaviour.ts';
export { CACHE_SAFETY } from './rubrics/cache-safety.ts';
export { ISITAGENTREADY } from './rubrics/isitagentready.ts';
export { LIGHTHOUSE } from './rubrics/lighthouse.ts';
export { MINTLIFY } from './rubrics/mintlify.ts';
export { DEFAULT_PAGE_SAMPLE } from './site.ts';
export type {
  Check,
  CheckContext,
  CheckResult,
  CheckStatus,
  DnsAnswer,
  DnsRecord,
  DnsResolver,
  PageTally,
  Rubric,
  RubricSummary,
  Strength,
  Verdict,
  WebMcpProbe,
} from './types.ts';
