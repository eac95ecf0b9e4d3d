/**
 * The MCP server card: one document, built from the same constants as `initialize` and
 * `server/discover`, served at `/mcp/server-card` (SEP-2127, `application/mcp-server-card+json`)
 * and at the two `.well-known` paths the isitagentready scanner probes (SEP-1649 era,
 * `application/json`). It is a superset of both card generations (docs/reference/agent-discovery.md §2.8,
 * docs/reference/mcp-oauth.md §9): the v1 schema fields plus the legacy `serverInfo`/`transport`/`endpoint`/
 * `capabilities` and an `authentication` hint for the one protected tool.
 * @module
 */
import { PUBLIC_DOCUMENT_EDGE, PUBLIC_DOCUMENT_METHODS, type PublicDocument, publicDocument, serveDocument } from '../kernel/document.ts';
import type { EdgeOptions } from '../kernel/handler.ts';
import { methodNotAllowed, PROBLEM_ERRORS, problemResponse } from '../kernel/problem.ts';
import { absoluteUrl, paths } from '../kernel/paths.ts';
import { resourceMetadataUrl } from './auth.ts';
import { SERVER_CAPABILITIES, SUPPORTED_PROTOCOL_VERSIONS, serverInfo, type ServerInfo } from './server-info.ts';
import { serverIdentity } from '../agent-tools/identity.ts';
import { EXPORT_SCOPE } from '../agent-tools/export-article-index.ts';

/** `$schema` of a v1 server card (the only value the v1 schema accepts). */
export const SERVER_CARD_SCHEMA_URL = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';

/** Media type of `GET /mcp/server-card` (SEP-2127). */
export const SERVER_CARD_MEDIA_TYPE = 'application/mcp-server-card+json';

/** SEP-2127 location: `<streamable-http-url>/server-card`. */
export const SERVER_CARD_PATH = paths.mcpServerCard;

/** SEP-1649 locations the scanner probes; served as `application/json`. */
export const WELL_KNOWN_SERVER_CARD_PATHS: readonly string[] = ['/.well-known/mcp/server-card.json', '/.well-known/mcp.json'];

/** Every path the card is served at. */
export const SERVER_CARD_PATHS: readonly string[] = [...WELL_KNOWN_SERVER_CARD_PATHS, SERVER_CARD_PATH];

/** Cards are fixed for a deploy; one hour, as SEP-2127 suggests. */
export const SERVER_CARD_MAX_AGE_SECONDS = 3600;

/** The transport every remote of this server uses. */
const TRANSPORT = 'streamable-http';

/** The server card document. */
export interface ServerCard {
  $schema: string;
  name: string;
  title: string;
  version: string;
  description: string;
  websiteUrl: string;
  remotes: { type: string; url: string; supportedProtocolVersions: string[] }[];
  /** SEP-1649 fields the isitagentready scanner reads. */
  serverInfo: ServerInfo;
  transport: { type: string; endpoint: string };
  endpoint: string;
  capabilities: typeof SERVER_CAPABILITIES;
  /** Public tools need no credentials; the protected one names its scope and the RFC 9728 metadata. */
  authentication: {
    required: boolean;
    schemes: string[];
    resourceMetadata: string;
    scopes: string[];
  };
}

/** The card for the site `siteName` deployed at `origin` with `version`. */
export function serverCard(origin: string, version: string, siteName: string): ServerCard {
  const endpoint = absoluteUrl(origin, paths.mcp);
  const identity = serverIdentity(siteName);
  return {
    $schema: SERVER_CARD_SCHEMA_URL,
    name: identity.name,
    title: identity.title,
    version,
    description: identity.description,
    websiteUrl: absoluteUrl(origin, paths.apiDocs),
    remotes: [{ type: TRANSPORT, url: endpoint, supportedProtocolVersions: [...SUPPORTED_PROTOCOL_VERSIONS] }],
    serverInfo: serverInfo(identity, version),
    transport: { type: TRANSPORT, endpoint },
    endpoint,
    capabilities: SERVER_CAPABILITIES,
    authentication: { required: false, schemes: ['oauth2'], resourceMetadata: resourceMetadataUrl(origin), scopes: [EXPORT_SCOPE] },
  };
}

/** What the card handler needs. */
export interface ServerCardDeps {
  origin: string;
  version: string;
  /** The company name (content/company.yaml): the card's name, title and description derive from it. */
  siteName: string;
}

let cached: { key: string; doc: PublicDocument } | undefined;

/** The serialized card and its ETag, computed once per origin and version. */
async function representation(deps: ServerCardDeps): Promise<PublicDocument> {
  const key = `${deps.origin}\n${deps.version}\n${deps.siteName}`;
  if (cached?.key !== key) {
    cached = { key, doc: await publicDocument(JSON.stringify(serverCard(deps.origin, deps.version, deps.siteName)), 'application/json') };
  }
  return cached.doc;
}

/** The edge of the documents about the MCP server (card, server.json): public documents, a failure a logged 500 problem. */
export const MCP_DOCUMENT_EDGE: EdgeOptions = { ...PUBLIC_DOCUMENT_EDGE, errors: PROBLEM_ERRORS };

/**
 * `GET`/`HEAD` any of {@link SERVER_CARD_PATHS}: the card, open to every origin, cacheable for an
 * hour, with a strong ETag and `If-None-Match` → 304; other methods → 405 (OPTIONS is the edge's: {@link MCP_DOCUMENT_EDGE}).
 */
export async function handleServerCard(req: Request, deps: ServerCardDeps): Promise<Response> {
  const doc = await representation(deps);
  const contentType = new URL(req.url).pathname === SERVER_CARD_PATH ? SERVER_CARD_MEDIA_TYPE : doc.contentType;
  return serveDocument(
    req,
    { ...doc, contentType },
    {
      maxAgeSeconds: SERVER_CARD_MAX_AGE_SECONDS,
      methodNotAllowed: () => problemResponse(methodNotAllowed(PUBLIC_DOCUMENT_METHODS)),
    },
  );
}
