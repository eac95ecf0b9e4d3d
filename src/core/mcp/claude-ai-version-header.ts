/**
 * Workaround for a client bug: claude.ai connectors (through Claude Desktop and the Claude Code CLI)
 * negotiate MCP 2026-07-28 with `server/discover` and then send every request with a 2026-07-28 body
 * (`_meta["io.modelcontextprotocol/protocolVersion"]`) under the header
 * `MCP-Protocol-Version: 2025-11-25`. SEP-2243 makes that a header mismatch (-32020), so a strict
 * server fails every call: https://github.com/anthropics/claude-code/issues/93290 (open).
 *
 * The rule, and only this: when the header names a handshake-era revision this server speaks and
 * the body's `_meta` names a 2026-07-28-era revision it speaks, the request is answered in the
 * body's revision, the SEP-2243 `Mcp-Method`/`Mcp-Name` headers are checked when sent (a value that
 * is sent must match) and may be missing, and the combination is logged (once per instance per
 * pair and client). Every other disagreement stays -32020, which is what the MCP conformance suite
 * checks (a 2026-07-28 header with another `_meta` revision). Remove this module once the client
 * sends the negotiated revision.
 * @module
 */
import { LEGACY_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS } from './server-info.ts';

/** The upstream report this module works around. */
export const CLIENT_BUG_URL = 'https://github.com/anthropics/claude-code/issues/93290';

/** Whether a header/body pair is the known client bug this server tolerates. */
export function isToleratedVersionPair(headerVersion: string | null, metaVersion: unknown): boolean {
  return (
    headerVersion !== null &&
    typeof metaVersion === 'string' &&
    LEGACY_PROTOCOL_VERSIONS.includes(headerVersion) &&
    MODERN_PROTOCOL_VERSIONS.includes(metaVersion)
  );
}

/** Pairs already logged by this instance (bounded: a flood of client names cannot grow it). */
const logged = new Set<string>();
const MAX_LOGGED_PAIRS = 64;

/** Logs a tolerated pair once per instance, naming the client so the operator can see who still sends it. */
export function logToleratedPair(headerVersion: string, metaVersion: string, clientName: string, warn: (message: string) => void): void {
  const key = `${headerVersion} ${metaVersion} ${clientName}`;
  if (logged.has(key) || logged.size >= MAX_LOGGED_PAIRS) return;
  logged.add(key);
  warn(
    `MCP: client "${clientName}" sent MCP-Protocol-Version ${headerVersion} with a ${metaVersion} body; answered in ${metaVersion} (${CLIENT_BUG_URL}).`,
  );
}
