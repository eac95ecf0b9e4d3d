/**
 * The instructions for agents, written once and shown where agents read: the "Instructions for
 * agents" section of every llms.txt and the closing section of every markdown twin, served over HTTP
 * or as an MCP resource (the convention Stripe's and Mintlify's docs follow). What to cite comes from
 * the company's content (`operator_attribution` in content/company.yaml); the limits and the token
 * steps come from the constants the endpoints enforce, so the text cannot promise what the server
 * does not do. Here, below MCP and the pages, so that both append the same section.
 * @module
 */
import { absoluteUrl, OAUTH_PATHS, paths } from '../kernel/paths.ts';
import type { Company } from '../content/catalog.ts';
import { EXPORT_RATE_LIMIT, EXPORT_SCOPE } from './export-article-index.ts';

/** The heading of the section, the same in llms.txt and the twins. */
export const AGENT_INSTRUCTIONS_HEADING = '## Instructions for agents';

const perWindow = ({ limit, windowSeconds }: { limit: number; windowSeconds: number }): string =>
  `${limit} per ${windowSeconds === 3600 ? 'hour' : `${windowSeconds} s`}`;

/** The instructions as markdown bullet lines (no heading). */
export function agentInstructions(catalog: { origin: string; company: Pick<Company, 'name' | 'operator_attribution'> }): string {
  const { origin, company } = catalog;
  return [
    `- Cite: ${company.operator_attribution} Link the HTML page (the URL without \`.md\`), not the twin.`,
    `- Authoritative: the pages and their markdown twins, the search API (${absoluteUrl(origin, paths.apiSearch)}) and the MCP and A2A tools all read the same published content; the newest \`date\` or \`updated\` wins. Prices, contracts and commitments come only from ${company.name}'s sales team (see the contact page).`,
    `- Limits: search and reading need no credential and are cached; answer \`429\` by waiting for \`Retry-After\`. Exporting the whole index is ${perWindow(EXPORT_RATE_LIMIT)} per client; registration is limited per network.`,
    `- Feedback: when a page is wrong, outdated or missing something, say so with the MCP tool or A2A skill \`submit_feedback\` (page, kind, text) or \`POST ${absoluteUrl(origin, paths.apiFeedback)}\`. It stores what you send: no personal data.`,
    `- Token: only \`export_article_index\` needs one (scope \`${EXPORT_SCOPE}\`). Register at ${absoluteUrl(origin, OAUTH_PATHS.register)}, then take a token at ${absoluteUrl(origin, OAUTH_PATHS.token)}; every step and error is in ${absoluteUrl(origin, paths.authMd)}.`,
  ].join('\n');
}

/** The section as it closes every markdown twin. */
export function agentInstructionsSection(catalog: Parameters<typeof agentInstructions>[0]): string {
  return `${AGENT_INSTRUCTIONS_HEADING}\n\n${agentInstructions(catalog)}\n`;
}

/** A twin without its closing instructions section (llms-full.txt joins twins and shows the section once). */
export function withoutAgentInstructions(markdown: string, section: string): string {
  return markdown.endsWith(section) ? markdown.slice(0, -section.length).trimEnd() : markdown;
}

/** `markdown` (a twin) closed by the instructions section. */
export function withAgentInstructions(markdown: string, section: string): string {
  return `${markdown.trimEnd()}\n\n${section}`;
}

/**
 * The section every twin has before its instructions for agents: where the whole site is listed (a14y's
 * markdown.sitemap-section). llms-full.txt, which joins twins, leaves it out.
 */
export function twinSitemapSection(origin: string): string {
  return `## Sitemap\n\n- [Site map](${absoluteUrl(origin, paths.sitemapMarkdown)}): every page of this site, by language and kind\n`;
}

/** A twin's body closed by the {@link twinSitemapSection} and the instructions `section`: what pages and MCP resources serve. */
export function withTwinClosing(markdown: string, origin: string, section: string): string {
  return withAgentInstructions(`${markdown.trimEnd()}\n\n${twinSitemapSection(origin)}`, section);
}
