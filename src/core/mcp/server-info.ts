/**
 * Who the MCP server says it is: name, title, instructions and the protocol revisions it speaks.
 * The one source of truth for `initialize`, `server/discover` and (later) the server card.
 * @module
 */

/** The newest revision we speak (docs/reference/mcp-oauth.md §0.1): the stateless, handshake-free era. */
export const LATEST_PROTOCOL_VERSION = '2026-07-28';

/** Modern (handshake-free) revisions, newest first. */
export const MODERN_PROTOCOL_VERSIONS: readonly string[] = ['2026-07-28'];

/** Legacy handshake-era revisions served statelessly, newest first (docs/reference/mcp-oauth.md §1). */
export const LEGACY_PROTOCOL_VERSIONS: readonly string[] = ['2025-11-25', '2025-06-18', '2025-03-26'];

/** Every revision we speak, newest first (`server/discover` `supportedVersions`). */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = [...MODERN_PROTOCOL_VERSIONS, ...LEGACY_PROTOCOL_VERSIONS];

/** The revision `initialize` answers with when the client asks for one we do not speak. */
export const LATEST_LEGACY_PROTOCOL_VERSION = LEGACY_PROTOCOL_VERSIONS[0]!;

/** Who the server says it is; every string derives from the company name in content/company.yaml. */
export interface ServerIdentity {
  /** Server card style name (`^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$`, docs/reference/mcp-oauth.md §9). */
  name: string;
  title: string;
  /** One line, at most 100 characters (the server card limit). */
  description: string;
  /** Guidance for the model (`initialize` / `server/discover` `instructions`). */
  instructions: string;
}

const DESCRIPTION_MAX_CHARS = 100;

/** The identity of the MCP server of the site called `siteName`. */
export function serverIdentity(siteName: string): ServerIdentity {
  const slug =
    siteName
      .normalize('NFKD')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'site';
  const description = `Search and read ${siteName} articles, solutions, products and company facts.`;
  return {
    name: `${slug}/site`,
    title: `${siteName} site`,
    description:
      description.length <= DESCRIPTION_MAX_CHARS ? description : 'Search and read articles, solutions, products and company facts.',
    instructions: [
      `Read-only access to the ${siteName} website.`,
      'Use search_articles to find articles and solutions (Chinese and English), then get_article with a slug for the full markdown.',
      'list_products describes the product line; get_company_info gives the profile, contact channels and key resources.',
      'export_article_index pages through the whole article index and needs an OAuth access token with scope content:export.',
      'Every article, solution, product and category listing is also a resource: its markdown twin at its page URL plus .md (resources/templates/list; completion/complete fills the slug).',
      'Cite the page URLs returned by the tools when quoting content.',
    ].join(' '),
  };
}

/**
 * What we declare: tools, resources and completions. Nothing changes during a deploy, so no
 * list-changed notifications and no resource subscriptions (hence no `subscriptions/listen`).
 */
export const SERVER_CAPABILITIES = {
  tools: { listChanged: false },
  resources: { subscribe: false, listChanged: false },
  completions: {},
} as const;

/** `serverInfo` (an MCP `Implementation`). */
export interface ServerInfo {
  name: string;
  title: string;
  version: string;
}

/** The `serverInfo` object for a deploy of `version`. */
export function serverInfo(identity: ServerIdentity, version: string): ServerInfo {
  return { name: identity.name, title: identity.title, version };
}
