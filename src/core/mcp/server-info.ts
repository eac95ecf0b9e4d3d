/**
 * What the MCP server speaks and declares: the protocol revisions, its capabilities and its
 * `serverInfo`. Who it is (name, title, instructions) is shared with the A2A agent:
 * agent-tools/identity.ts.
 * @module
 */
import type { ServerIdentity } from '../agent-tools/identity.ts';

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
