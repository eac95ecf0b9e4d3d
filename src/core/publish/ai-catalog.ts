/**
 * The AI Catalog (`/.well-known/ai-catalog.json`, identical at `/.well-known/ard.json`), profiled by
 * Agentic Resource Discovery: one entry per thing an agent can use here (the MCP server, the HTTP
 * API, the A2A agent, the content, the skills), each with example queries derived from the site's own content.
 * @module
 */
import { absoluteUrl, paths } from '../kernel/paths.ts';
import { API_CATALOG_CONTENT_TYPE } from './api-catalog.ts';

export const AI_CATALOG_SPEC_VERSION = '1.0';

/** ARD's entry type for an A2A agent card (a de-facto type; A2A itself registers none for the card). */
export const A2A_AGENT_CARD_TYPE = 'application/a2a-agent-card+json';

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
  const product = source.productNames[0] ?? company.name;
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
      {
        identifier: urn('api', 'public'),
        displayName: `${company.name} HTTP API`,
        description: 'Search, AI-industry feed, contact form, health, and the OAuth endpoints for anonymous agents.',
        type: API_CATALOG_CONTENT_TYPE.split(';')[0]!,
        url: url(paths.apiCatalog),
        version,
        tags: ['openapi', 'search', 'oauth'],
        representativeQueries: [
          `${company.name} REST API for full-text search in Chinese and English`,
          `Register an agent with ${company.name} and get an access token`,
          `Send a sales enquiry to ${company.name}`,
        ],
      },
      {
        identifier: urn('content', 'library'),
        displayName: `${company.name} articles and solutions`,
        description: `${company.tagline} Every page as markdown, indexed in llms.txt.`,
        type: 'text/plain',
        url: url(paths.llms),
        version,
        tags: ['content', 'markdown', 'llms.txt'],
        representativeQueries: [
          `${company.name} guide to ${topic(2)}`,
          `What is ${product}?`,
          `${company.name} customer solutions by industry`,
        ],
      },
      {
        identifier: urn('skills', 'index'),
        displayName: `${company.name} agent skills`,
        description: 'SKILL.md instructions for searching the library, reading an article and getting an export token.',
        type: 'application/json',
        url: url(paths.agentSkills),
        version,
        tags: ['skills'],
        representativeQueries: [
          `How do I search ${company.name}'s library from an agent?`,
          `How do I get a ${company.name} token for the article export?`,
        ],
      },
    ],
  };
}
