/**
 * The MCP function's token checks: a presented bearer token verified against the signing keys and
 * the revocations (once per request, however many steps ask), and the export tool's gate with its
 * per-client hourly limit. Here rather than in src/core/mcp because it joins two features (MCP and
 * the OAuth resource server), which src/core's layers keep apart.
 */
import { EXPORT_RATE_LIMIT, memoisedCheck, tokenGate } from '../../../src/core/mcp/auth.ts';
import type { McpDeps } from '../../../src/core/mcp/server.ts';
import { consume } from '../../../src/core/kernel/rate-limit.ts';
import { checkBearer } from '../../../src/core/oauth/grants/resource-server.ts';
import { stores } from './deps.ts';
import { nowSeconds, oauth, signingKeys } from './oauth.ts';

/** The `credentials` and `authorize` deps of the MCP server. */
export function mcpAuthorization(): Required<Pick<McpDeps, 'credentials' | 'authorize'>> {
  const credentials = memoisedCheck((req) =>
    checkBearer(req, { config: oauth, keys: signingKeys, revocations: stores('oauth'), nowSeconds: nowSeconds() }),
  );
  const consumeExport = (clientId: string) =>
    consume(stores('ratelimit'), `mcp-export/${encodeURIComponent(clientId)}`, EXPORT_RATE_LIMIT, Date.now());
  return { credentials, authorize: tokenGate({ check: credentials, consumeExport }) };
}
