/**
 * Who the MCP server says it is: name, title, instructions and the protocol revisions it speaks.
 * The one source of truth for `initialize`, `server/discover` and (later) the server card.
 * @module
 */

/** The newest revision we speak (mcp-oauth.md §0.1): the stateless, handshake-free era. */
export const LATEST_PROTOCOL_VERSION = '2026-07-28';

/** Modern (handshake-free) revisions, newest first. */
export const MODERN_PROTOCOL_VERSIONS: readonly string[] = ['2026-07-28'];

/** Legacy handshake-era revisions served statelessly, newest first (mcp-oauth.md §1). */
export const LEGACY_PROTOCOL_VERSIONS: readonly string[] = ['2025-11-25', '2025-06-18', '2025-03-26'];

/** Every revision we speak, newest first (`server/discover` `supportedVersions`). */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = [...MODERN_PROTOCOL_VERSIONS, ...LEGACY_PROTOCOL_VERSIONS];

/** The revision `initialize` answers with when the client asks for one we do not speak. */
export const LATEST_LEGACY_PROTOCOL_VERSION = LEGACY_PROTOCOL_VERSIONS[0]!;

/** Server card style name (`^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$`, mcp-oauth.md §9): reverse domain / server. */
export const SERVER_NAME = 'example.acme-ai/site';

/** Human-readable server title. */
export const SERVER_TITLE = 'Acme AI site';

/** One-line description (≤ 100 characters, the server card limit). */
export const SERVER_DESCRIPTION = 'Search and read Acme AI articles, solutions, products and company facts.';

/** Guidance for the model using this server (`initialize` / `server/discover` `instructions`). */
export const SERVER_INSTRUCTIONS = [
  'Read-only access to the Acme AI website (a placeholder enterprise AI vendor).',
  'Use search_articles to find articles and solutions (Chinese and English), then get_article with a slug for the full markdown.',
  'list_products describes the product line; get_company_info gives the profile, contact channels and key resources.',
  'export_article_index pages through the whole article index and needs an OAuth access token with scope content:export.',
  'Cite the page URLs returned by the tools when quoting content.',
].join(' ');

/** What we declare: tools only, and the tool list never changes during a deploy. */
export const SERVER_CAPABILITIES = { tools: { listChanged: false } } as const;

/** `serverInfo` (an MCP `Implementation`). */
export interface ServerInfo {
  name: string;
  title: string;
  version: string;
}

/** The `serverInfo` object for a deploy of `version`. */
export function serverInfo(version: string): ServerInfo {
  return { name: SERVER_NAME, title: SERVER_TITLE, version };
}
