/**
 * The type of a parsed JSON reply that a test reads by path (`body.error.data[0].reason`).
 * @module
 */

/**
 * A wrong path reads `undefined` and the assertion on it fails, so the test still checks the shape; typing every
 * protocol reply the unit tests read (MCP, A2A, discovery documents) would repeat their schemas in the tests.
 */
// biome-ignore lint/suspicious/noExplicitAny: parsed JSON read by path in tests; the assertion on each value is the check
export type ParsedJson = any;
