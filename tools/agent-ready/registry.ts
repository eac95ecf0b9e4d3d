/**
 * The agent-readiness checks, in report order, and the runner. Ids are the isitagentready.com
 * scanner's (llmsTxt is ours: the scanner treats llms.txt as guidance, so it is reported but not
 * scored). dnsAid is reported but not scored here (it needs a DNSSEC-validating resolver, which a
 * local run does not have). The commerce checks (neutral for non-commerce sites) are not run.
 * @module
 */
import { checkA2aAgentCard } from './checks/a2a-agent-card.ts';
import { checkAgentSkills } from './checks/agent-skills.ts';
import { checkAiCatalog } from './checks/ai-catalog.ts';
import { checkApiCatalog } from './checks/api-catalog.ts';
import { checkAuthMd } from './checks/auth-md.ts';
import { checkDnsAid } from './checks/dns-aid.ts';
import { checkLinkHeaders } from './checks/link-headers.ts';
import { checkLlmsTxt, checkMarkdownNegotiation } from './checks/markdown.ts';
import { checkMcpServerCard } from './checks/mcp-server-card.ts';
import { checkOAuthDiscovery, checkProtectedResource } from './checks/oauth.ts';
import { checkContentSignals, checkRobotsAiRules, checkRobotsTxt } from './checks/robots.ts';
import { checkSitemap } from './checks/sitemap.ts';
import { budgetCutsRead, SCAN_BUDGET_USED } from './http.ts';
import { type Check, type CheckContext, type CheckResult, neutral, type Verdict } from './types.ts';
import { checkWebBotAuth } from './checks/web-bot-auth.ts';
import { checkWebMcp } from './checks/webmcp.ts';

export const CHECKS: readonly Check[] = [
  { id: 'robotsTxt', title: 'robots.txt', scored: true, run: checkRobotsTxt },
  { id: 'robotsTxtAiRules', title: 'AI bot rules', scored: true, run: checkRobotsAiRules },
  { id: 'contentSignals', title: 'Content Signals', scored: true, run: checkContentSignals },
  { id: 'sitemap', title: 'Sitemap', scored: true, run: checkSitemap },
  { id: 'linkHeaders', title: 'Link headers', scored: true, run: checkLinkHeaders },
  { id: 'markdownNegotiation', title: 'Markdown negotiation', scored: true, run: checkMarkdownNegotiation },
  { id: 'llmsTxt', title: 'llms.txt', scored: false, run: checkLlmsTxt },
  { id: 'apiCatalog', title: 'API catalog (RFC 9727)', scored: true, run: checkApiCatalog },
  { id: 'oauthDiscovery', title: 'OAuth AS metadata (RFC 8414)', scored: true, run: checkOAuthDiscovery },
  { id: 'oauthProtectedResource', title: 'Protected resource metadata (RFC 9728)', scored: true, run: checkProtectedResource },
  { id: 'authMd', title: 'auth.md + agent_auth', scored: true, run: checkAuthMd },
  { id: 'mcpServerCard', title: 'MCP server card', scored: true, run: checkMcpServerCard },
  { id: 'a2aAgentCard', title: 'A2A agent card', scored: true, run: checkA2aAgentCard },
  { id: 'agentSkills', title: 'Agent skills', scored: true, run: checkAgentSkills },
  { id: 'ard', title: 'AI catalog', scored: true, run: checkAiCatalog },
  { id: 'webBotAuth', title: 'Web Bot Auth', scored: true, run: checkWebBotAuth },
  { id: 'webMcp', title: 'WebMCP', scored: true, run: checkWebMcp },
  // Last: it reuses the cards fetched above to tailor the records it suggests.
  { id: 'dnsAid', title: 'DNS-AID', scored: false, run: checkDnsAid },
];

/** The longest reason, fix or evidence line a report carries (a site's own text, e.g. a 200,000-character URL, is cut). */
export const MAX_REPORT_TEXT_CHARS = 1_000;

const cut = (text: string): string =>
  text.length > MAX_REPORT_TEXT_CHARS
    ? `${text.slice(0, MAX_REPORT_TEXT_CHARS)}… (${text.length - MAX_REPORT_TEXT_CHARS} more characters)`
    : text;

/** A verdict with its texts bounded: what a site serves never makes the report unbounded. */
function bounded(verdict: Verdict): Verdict {
  return {
    ...verdict,
    reason: cut(verdict.reason),
    ...(verdict.fix !== undefined ? { fix: cut(verdict.fix) } : {}),
    ...(verdict.evidence ? { evidence: verdict.evidence.map(cut) } : {}),
  };
}

/**
 * A check that read an answer the scan's deadline cut off cannot tell a defect from a missing answer: its FAIL or
 * WARN becomes neutral, "scan budget used up", with its evidence kept. `cutRead` says whether it read such an answer;
 * a verdict built from an earlier check's memoised run (the OAuth steps) names the cut in its own text.
 */
function starvedByBudget(verdict: Verdict, cutRead: boolean): Verdict {
  if (verdict.status !== 'fail' && verdict.status !== 'warn') return verdict;
  if (!cutRead && ![verdict.reason, ...(verdict.evidence ?? [])].some((line) => line.includes(SCAN_BUDGET_USED))) return verdict;
  return neutral(
    `not evaluated: ${SCAN_BUDGET_USED} before this check had its answers`,
    'Run again with a larger scan budget (--budget-s), or make the site answer sooner.',
    verdict.evidence ? { evidence: verdict.evidence } : {},
  );
}

/** Called around each check, e.g. to show progress; never changes the results. */
export interface RunHooks {
  onStart?(check: Check, index: number, total: number): void;
  onDone?(result: CheckResult, index: number, total: number): void;
}

/**
 * Runs every check in order (one at a time: polite to the site, and the request trace is
 * deterministic). A check that throws is a checker bug, not a site defect: it is reported as
 * neutral with the error, so it neither hides nor invents a failure.
 */
export async function runChecks(ctx: CheckContext, checks: readonly Check[] = CHECKS, hooks: RunHooks = {}): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const [index, check] of checks.entries()) {
    hooks.onStart?.(check, index, checks.length);
    let verdict: Verdict;
    const cutsBefore = budgetCutsRead(ctx);
    try {
      verdict = starvedByBudget(await check.run(ctx), budgetCutsRead(ctx) > cutsBefore);
    } catch (error) {
      verdict = neutral(
        `not checked: checker error (${error instanceof Error ? error.message : String(error)})`,
        'This is a bug in the checker, not the site: report it with the URL.',
      );
    }
    const result: CheckResult = { id: check.id, title: check.title, ...bounded(verdict), scored: check.scored };
    if (check.definition) result.definition = check.definition;
    if (check.strength) result.strength = check.strength;
    results.push(result);
    hooks.onDone?.(result, index, checks.length);
  }
  return results;
}
