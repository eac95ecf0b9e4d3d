/**
 * The agent-readiness checks, in report order, and the runner. Ids are the isitagentready.com
 * scanner's (llmsTxt is ours: the scanner treats llms.txt as guidance, so it is reported but not
 * scored). DNS-AID (needs DNSSEC-validated DNS), the A2A card (off in the scanner's default
 * profile) and the commerce checks (neutral for non-commerce sites) are not run.
 * @module
 */
import { checkAgentSkills } from './checks/agent-skills.ts';
import { checkAiCatalog } from './checks/ai-catalog.ts';
import { checkApiCatalog } from './checks/api-catalog.ts';
import { checkAuthMd } from './checks/auth-md.ts';
import { checkLinkHeaders } from './checks/link-headers.ts';
import { checkLlmsTxt, checkMarkdownNegotiation } from './checks/markdown.ts';
import { checkMcpServerCard } from './checks/mcp-server-card.ts';
import { checkOAuthDiscovery, checkProtectedResource } from './checks/oauth.ts';
import { checkContentSignals, checkRobotsAiRules, checkRobotsTxt } from './checks/robots.ts';
import { checkSitemap } from './checks/sitemap.ts';
import { type Check, type CheckContext, type CheckResult, neutral } from './types.ts';
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
  { id: 'agentSkills', title: 'Agent skills', scored: true, run: checkAgentSkills },
  { id: 'ard', title: 'AI catalog', scored: true, run: checkAiCatalog },
  { id: 'webBotAuth', title: 'Web Bot Auth', scored: true, run: checkWebBotAuth },
  { id: 'webMcp', title: 'WebMCP', scored: true, run: checkWebMcp },
];

/**
 * Runs every check in order (one at a time: polite to the site, and the request trace is
 * deterministic). A check that throws is a checker bug, not a site defect: it is reported as
 * neutral with the error, so it neither hides nor invents a failure.
 */
export async function runChecks(ctx: CheckContext, checks: readonly Check[] = CHECKS): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const check of checks) {
    let verdict;
    try {
      verdict = await check.run(ctx);
    } catch (error) {
      verdict = neutral(`not checked: checker error (${error instanceof Error ? error.message : String(error)})`, 'This is a bug in the checker, not the site: report it with the URL.');
    }
    results.push({ id: check.id, title: check.title, ...verdict, scored: check.scored });
  }
  return results;
}
