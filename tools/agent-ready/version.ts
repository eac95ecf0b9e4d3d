/**
 * The checker's name and version (package.json's; a test keeps them equal), stamped on every report, the
 * User-Agent of every request and the MCP client identity.
 * @module
 */
export const CHECKER_NAME = 'agent-ready-check';
export const CHECKER_VERSION = '2.0.0';
