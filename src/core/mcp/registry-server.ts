/**
 * `server.json` for the official MCP Registry, derived from the server card (so name, version,
 * description and remote cannot drift from what the server says about itself) and served per
 * deploy at `/.well-known/mcp/server.json`, where a maintainer downloads it to publish.
 * Remote-only: no `packages`, one `streamable-http` remote.
 * @module
 */
import { PUBLIC_DOCUMENT_METHODS, type PublicDocument, publicDocument, serveDocument } from '../kernel/document.ts';
import { methodNotAllowed, problemResponse } from '../kernel/problem.ts';
import { paths } from '../kernel/paths.ts';
import { handleServerCard, SERVER_CARD_MAX_AGE_SECONDS, serverCard, type ServerCardDeps } from './server-card.ts';

/** The newest dated server.json schema (registry CHANGELOG); `mcp-publisher validate` accepts only its embedded current one. */
export const REGISTRY_SCHEMA_URL = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';

export const SERVER_JSON_PATH = paths.mcpServerJson;

export interface RegistryServerJson {
  $schema: string;
  /** `<reverse-DNS of the host>/<server>`: the namespace `mcp-publisher login dns|http --domain <host>` grants. */
  name: string;
  title: string;
  description: string;
  version: string;
  websiteUrl: string;
  remotes: { type: string; url: string }[];
}

/** `acme-ai.example` → `example.acme-ai`; a port is not part of a DNS name. */
export function reverseDnsOf(origin: string): string {
  return new URL(origin).hostname.split('.').reverse().join('.');
}

/** The registry entry of the site's MCP server. */
export function registryServerJson(origin: string, version: string, siteName: string): RegistryServerJson {
  const card = serverCard(origin, version, siteName);
  const serverPart = card.name.slice(card.name.indexOf('/') + 1);
  return {
    $schema: REGISTRY_SCHEMA_URL,
    name: `${reverseDnsOf(origin)}/${serverPart}`,
    title: card.title,
    description: card.description,
    version: card.version,
    websiteUrl: card.websiteUrl,
    // The registry's remote has no supportedProtocolVersions (a card-only field).
    remotes: card.remotes.map(({ type, url }) => ({ type, url })),
  };
}

let cached: { key: string; doc: PublicDocument } | undefined;

/** `GET`/`HEAD` {@link SERVER_JSON_PATH}: the document with the server card's caching (ETag, one hour). */
export async function handleServerJson(req: Request, deps: ServerCardDeps): Promise<Response> {
  const key = `${deps.origin}\n${deps.version}\n${deps.siteName}`;
  if (cached?.key !== key) {
    cached = {
      key,
      doc: await publicDocument(JSON.stringify(registryServerJson(deps.origin, deps.version, deps.siteName), null, 2), 'application/json'),
    };
  }
  return serveDocument(req, cached.doc, {
    maxAgeSeconds: SERVER_CARD_MAX_AGE_SECONDS,
    methodNotAllowed: () => problemResponse(methodNotAllowed(PUBLIC_DOCUMENT_METHODS)),
  });
}

/** Routes the documents about the MCP server: {@link SERVER_JSON_PATH}, else the card (server-card.ts). */
export function handleMcpDocument(req: Request, deps: ServerCardDeps): Promise<Response> {
  return new URL(req.url).pathname === SERVER_JSON_PATH ? handleServerJson(req, deps) : handleServerCard(req, deps);
}
