/**
 * `/.well-known/api-catalog` (RFC 9727): a linkset (RFC 9264 §4.2) with one context per API this
 * site offers (HTTP API, MCP server, A2A agent), each anchored at the API itself and linking its description, docs, policy and status.
 * @module
 */
import { OAUTH_PATHS } from '../oauth/config.ts';
import { absoluteUrl, paths } from '../kernel/paths.ts';
import { operationSlug } from './reference/reference.ts';

/** RFC 9727 §2 media type (with its profile) of `/.well-known/api-catalog`. */
export const API_CATALOG_CONTENT_TYPE = 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"';

interface LinkTarget {
  href: string;
  type: string;
  title?: string;
}

export interface Linkset {
  linkset: ({ anchor: string } & Record<string, LinkTarget[] | string>)[];
}

/** The catalogue for the site at `origin`: the HTTP API, the MCP server and the A2A agent (public: no auth metadata). */
export function apiCatalog(origin: string, siteName: string): Linkset {
  const url = (path: string): string => absoluteUrl(origin, path);
  return {
    linkset: [
      {
        anchor: url(paths.api),
        'service-desc': [{ href: url(paths.openApi), type: 'application/json', title: `${siteName} HTTP API (OpenAPI 3.1)` }],
        'service-doc': [{ href: url(paths.apiDocs), type: 'text/html', title: `${siteName} API reference` }],
        'service-meta': [{ href: url(paths.authMd), type: 'text/markdown', title: 'How agents authenticate (auth.md)' }],
        status: [{ href: url(paths.health), type: 'application/json' }],
      },
      {
        anchor: url(paths.mcp),
        'service-desc': [
          { href: url(paths.mcpServerCard), type: 'application/mcp-server-card+json', title: `${siteName} MCP server card` },
        ],
        'service-doc': [
          { href: url(paths.apiOperation(operationSlug('mcp'))), type: 'text/html', title: `${siteName} API reference: MCP server` },
        ],
        'service-meta': [
          { href: url(paths.authMd), type: 'text/markdown', title: 'How agents authenticate (auth.md)' },
          { href: url(OAUTH_PATHS.prmMcp), type: 'application/json', title: 'OAuth protected resource metadata (RFC 9728)' },
        ],
        status: [{ href: url(paths.health), type: 'application/json' }],
      },
      {
        anchor: url(paths.a2a),
        'service-desc': [{ href: url(paths.agentCard), type: 'application/json', title: `${siteName} A2A agent card (A2A v1.0)` }],
        'service-doc': [
          { href: url(paths.apiOperation(operationSlug('a2a'))), type: 'text/html', title: `${siteName} API reference: A2A agent` },
        ],
        status: [{ href: url(paths.health), type: 'application/json' }],
      },
    ],
  };
}
