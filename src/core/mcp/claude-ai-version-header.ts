/**
 * Workaround for a client bug: claude.ai connectors (through Claude Desktop and the Claude Code CLI)
 * negotiate MCP 2026-07-28 with `server/discover` and then send every request with a 2026-07-28 body
 * (`_meta["io.modelcontextprotocol/protocolVersion"]`) under the header
 * `MCP-Protocol-Version: 2025-11-25`. SEP-2243 makes that a header mismatch (-32020), so a strict
 * server fails every call: https://github.com/anthropics/claude-code/issues/93290 (open).
 *
 * The rule, and only this: when the header is `2025-11-25` (the newest handshake-era revision, the
 * default of the SDK that client uses: a client that speaks 2026-07-28 is built on one that knows no
 * older default) and the body's `_meta` names a 2026-07-28-era revision this server speaks, the
 * request is answered in the body's revision, the SEP-2243 `Mcp-Method`/`Mcp-Name` headers are
 * checked when sent (a value that is sent must match) and may be missing, and the combination is
 * logged (once per instance and client, for at most {@link MAX_LOGGED_CLIENTS} clients: the name is
 * the client's to choose). Every other disagreement stays -32020, which is what the MCP conformance
 * suite checks (a 2026-07-28 header with another `_meta` revision). Remove this module once the
 * client sends the negotiated revision.
 * @module
 */
import { MODERN_PROTOCOL_VERSIONS } from './server-info.ts';

/** The upstream report this module works around. */
export const CLIENT_BUG_URL = 'https://github.com/anthropics/claude-code/issues/93290';

/** The header revision the client sends over a 2026-07-28 body: the one combination tolerated. */
export const TOLERATED_HEADER_VERSION = '2025-11-25';

/** Whether a header/body pair is the known client bug this server tolerates. */
export function isToleratedVersionPair(headerVersion: string | null, metaVersion: unknown): boolean {
  return headerVersion === TOLERATED_HEADER_VERSION && typeof metaVersion === 'string' && MODERN_PROTOCOL_VERSIONS.includes(metaVersion);
}

/**
 * Client names one instance logs the tolerated pair for. `clientInfo.name` is whatever an anonymous client writes, so
 * the log stays a few lines however many names it makes up; the operator needs to see whether the known client still
 * sends the pair, not every name.
 */
export const MAX_LOGGED_CLIENTS = 5;

/** The log of tolerated pairs of one instance: a line per client the first time, for the first few clients only. */
export class ToleratedPairLog {
  readonly #logged = new Set<string>();
  #full = false;

  /** Logs a tolerated pair once per client, naming it (as JSON: a name cannot forge a line) so the operator sees who sends it. */
  note(headerVersion: string, metaVersion: string, clientName: string, warn: (message: string) => void): void {
    const key = `${headerVersion} ${metaVersion} ${clientName}`;
    if (this.#full || this.#logged.has(key)) return;
    if (this.#logged.size >= MAX_LOGGED_CLIENTS) {
      this.#full = true;
      warn(
        `MCP: more clients sent MCP-Protocol-Version ${headerVersion} with a ${metaVersion} body than the ${MAX_LOGGED_CLIENTS} logged; they are answered and not logged again by this instance (${CLIENT_BUG_URL}).`,
      );
      return;
    }
    this.#logged.add(key);
    warn(
      `MCP: client ${JSON.stringify(clientName)} sent MCP-Protocol-Version ${headerVersion} with a ${metaVersion} body; answered in ${metaVersion} (${CLIENT_BUG_URL}).`,
    );
  }
}

const instanceLog = new ToleratedPairLog();

/** Logs a tolerated pair in this instance's {@link ToleratedPairLog}. */
export function logToleratedPair(headerVersion: string, metaVersion: string, clientName: string, warn: (message: string) => void): void {
  instanceLog.note(headerVersion, metaVersion, clientName, warn);
}
