/**
 * Every agent entry point of the site, in one list: llms.txt, auth.md, the `get_company_info` tool
 * and the catalogues all render from it, so a new document shows up everywhere at once.
 * @module
 */
import { OAUTH_PATHS } from '../oauth/config.ts';
import { absoluteUrl, paths } from '../kernel/paths.ts';
import { TOOLS } from '../agent-tools/registry.ts';

export interface EntryPoint {
  title: string;
  /** Root-relative path on this site. */
  path: string;
  /** Media type of what the path answers. */
  type: string;
  description: string;
  /** The endpoint answers POST only (a GET is 405), so pages show it without a hyperlink. */
  postOnly?: boolean;
}

export const AGENT_ENTRY_POINTS: readonly EntryPoint[] = [
  {
    title: 'llms.txt',
    path: paths.llms,
    type: 'text/plain',
    description: 'A plain-text map of this site for language models and agents, linking the markdown version of every page.',
  },
  {
    title: 'Full text (llms-full.txt)',
    path: paths.llmsFull,
    type: 'text/plain',
    description: 'Every article, solution and product in one markdown file.',
  },
  {
    title: 'API catalog',
    path: paths.apiCatalog,
    type: 'application/linkset+json',
    description: 'RFC 9727 linkset naming the HTTP API and the MCP server with their descriptions, docs and status.',
  },
  {
    title: 'AI catalog',
    path: paths.aiCatalog,
    type: 'application/json',
    description:
      'Agentic resource catalogue (also at /.well-known/ard.json): the MCP server, the HTTP API and the content, with example queries.',
  },
  {
    title: 'Agent skills',
    path: paths.agentSkills,
    type: 'application/json',
    description: 'Skills as SKILL.md files with sha256 digests: search the library, read an article, get an export token.',
  },
  {
    title: 'MCP server',
    path: paths.mcp,
    type: 'application/json',
    description: `JSON-RPC 2.0 over Streamable HTTP (POST): ${TOOLS.map((t) => t.name).join(', ')}.`,
    postOnly: true,
  },
  {
    title: 'MCP server card',
    path: paths.mcpServerCard,
    type: 'application/mcp-server-card+json',
    description: 'Name, version, transport and protocol versions of the MCP server (also at /.well-known/mcp/server-card.json).',
  },
  {
    title: 'A2A agent card',
    path: paths.agentCard,
    type: 'application/json',
    description:
      'A2A agent card (v1.0, and the hybrid 0.3 clients read when they send no A2A-Version): the JSON-RPC interface and its skills (search, read an article, products, company facts, feedback on a page), public; only submit_feedback stores anything.',
  },
  {
    title: 'A2A endpoint',
    path: paths.a2a,
    type: 'application/json',
    description:
      'A2A JSON-RPC 2.0 (POST; A2A-Version: 1.0, or 0.3 with message/send): plain text in Chinese or English (a search, an article URL, the products, the company and its contacts) answers at once with a Message and links; no tasks are kept.',
    postOnly: true,
  },
  {
    title: 'OpenAPI description',
    path: paths.openApi,
    type: 'application/json',
    description: 'OpenAPI 3.1 description of the HTTP API and the OAuth endpoints.',
  },
  {
    title: 'API reference',
    path: paths.apiDocs,
    type: 'text/html',
    description: 'Endpoints, authentication and error codes of the public API and the MCP server.',
  },
  {
    title: 'Agent authorization guide (auth.md)',
    path: paths.authMd,
    type: 'text/markdown',
    description: 'How agents register anonymously, obtain OAuth tokens for the protected tool and revoke them.',
  },
  {
    title: 'OAuth authorization server metadata',
    path: OAUTH_PATHS.asMetadata,
    type: 'application/json',
    description: 'RFC 8414 metadata with the agent_auth block: every OAuth endpoint, grant and scope.',
  },
  {
    title: 'OAuth protected resource metadata',
    path: OAUTH_PATHS.prmMcp,
    type: 'application/json',
    description: 'RFC 9728 metadata of the MCP server: its resource identifier, authorization server and scopes.',
  },
  {
    title: 'Web Bot Auth key directory',
    path: paths.httpMessageSignaturesDirectory,
    type: 'application/http-message-signatures-directory+json',
    description: "Public Ed25519 keys (JWKS) that sign this site's own outbound requests (webhooks, feed fetches), with a signed response.",
  },
  { title: 'Health', path: paths.health, type: 'application/json', description: 'Service status and build version.' },
];

/** The entry points as a markdown list of absolute links with their media types (auth.md, the API reference). */
export function entryPointList(origin: string): string {
  return AGENT_ENTRY_POINTS.map((e) => `- [${e.title}](${absoluteUrl(origin, e.path)}) (\`${e.type}\`): ${e.description}`).join('\n');
}
