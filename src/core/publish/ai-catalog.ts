/**
 * The AI Catalog (`/.well-known/ai-catalog.json`, identical at `/.well-known/ard.json`), profiled by
 * Agentic Resource Discovery: one entry per agentic resource here (the MCP server, the A2A agent,
 * each agent skill), each with example queries derived from the site's own content.
 * @module
 */
import { absoluteUrl, paths } from '../kernel/paths.ts';
import { A2A_AGENT_CARD_TYPE } from '../a2a/card-document.ts';
import { skillSummaries } from './agent-skills.ts';

export const AI_CATALOG_SPEC_VERSION = '1.0';

/** ARD's entry type for one SKILL.md (agentskills.io format); served as text/markdown. */
export const AGENT_SKILL_TYPE = 'text/markdown; profile="urn:air:agent-skills"';

/** Example queries per skill (ARD recommends 2-5), from the site name and its first category. */
const SKILL_QUERIES: Record<string, (site: string, topic: (i: number) => string) => string[]> = {
  'search-library': (site, topic) => [`Search ${site} articles about ${topic(0)}`, `Find ${site} solutions in Chinese or English`],
  'read-article': (site, topic) => [`Read the ${site} article on ${topic(1)} as markdown`, `Get the full text of a ${site} page`],
  'get-export-token': (site) => [`Get an OAuth token for the ${site} article export`, `Export the full ${site} article index`],
};

export interface AiCatalogEntry {
  identifier: string;
  displayName: string;
  description: string;
  type: string;
  url: string;
  version: string;
  tags: string[];
  representativeQueries: string[];
}

export interface AiCatalog {
  specVersion: string;
  host: { displayName: string; identifier: string; documentationUrl: string };
  entries: AiCatalogEntry[];
}

/** What the catalogue is built from: facts from content/ and the build. */
export interface AiCatalogSource {
  origin: string;
  version: string;
  company: { name: string; tagline: string };
  /** English category names, most important first. */
  categoryNames: readonly string[];
  productNames: readonly string[];
}

/** `did:web` of the origin (a port is percent-encoded, as the method requires). */
export function didWeb(origin: string): string {
  return `did:web:${new URL(origin).host.replace(':', '%3A')}`;
}

export function aiCatalog(source: AiCatalogSource): AiCatalog {
  const { origin, version, company } = source;
  const url = (path: string): string => absoluteUrl(origin, path);
  const fqdn = new URL(origin).hostname;
  const urn = (namespace: string, name: string): string => `urn:air:${fqdn}:${namespace}:${name}`;
  const topic = (i: number): string => (source.categoryNames[i % Math.max(1, source.categoryNames.length)] ?? 'AI').toLowerCase();
  return {
    specVersion: AI_CATALOG_SPEC_VERSION,
    host: { displayName: company.name, identifier: didWeb(origin), documentationUrl: url(paths.apiDocs) },
    entries: [
      {
        identifier: urn('mcp', 'site'),
        displayName: `${company.name} MCP server`,
        description: `Search and read ${company.name}'s articles, solutions and products; export the article index with an OAuth token.`,
        type: 'application/mcp-server-card+json',
        url: url(paths.mcpServerCard),
        version,
        tags: ['mcp', 'search', 'articles'],
        representativeQueries: [
          `Search ${company.name} articles about ${topic(0)}`,
          `Read the ${company.name} article on ${topic(1)} as markdown`,
          `Which products does ${company.name} offer?`,
          `Export the full ${company.name} article index`,
        ],
      },
      {
        identifier: urn('a2a', 'site'),
        displayName: `${company.name} A2A agent`,
        description: `Ask ${company.name}'s site agent over A2A v1.0 (JSON-RPC): it searches the library or returns an article, with links to the pages and their markdown twins. Public, no authentication.`,
        // ARD's type for an A2A agent card; the card itself is served as application/json.
        type: A2A_AGENT_CARD_TYPE,
        url: url(paths.agentCard),
        version,
        tags: ['a2a', 'search', 'articles'],
        representativeQueries: [
          `Ask the ${company.name} agent for articles about ${topic(0)}`,
          `Have the ${company.name} agent return an article on ${topic(1)} in markdown`,
        ],
      },
      // The HTTP API (RFC 9727 api-catalog) and the content (llms.txt) are not listed: ARD 1.0 has no
      // media type for either, and Lighthouse's ard-schema audit marks any other type down. Agents
      // find them through the page's Link header (api-catalog, describedby) and the developers hub.
      ...skillSummaries().map((skill) => ({
        identifier: urn('skills', skill.name),
        displayName: `${company.name} agent skill: ${skill.name}`,
        description: skill.description,
        type: AGENT_SKILL_TYPE,
        url: url(skill.path),
        version,
        tags: ['skills', ...skill.name.split('-')],
        representativeQueries: SKILL_QUERIES[skill.name]?.(company.name, topic) ?? [
          skill.description,
          `${company.name} ${skill.name.replace(/-/g, ' ')}`,
        ],
      })),
    ],
  };
}
