/**
 * The resource server's side: checking a bearer token on `/mcp` (RFC 6750, RFC 9068, RFC 8707).
 * @module
 */
import type { CredentialCheck } from '../../kernel/credentials.ts';
import type { Store } from '../../kernel/store.ts';
import type { OAuthConfig } from '../config.ts';
import type { KeySet } from './keys.ts';
import { verifyAccessToken } from './tokens.ts';

/** Reads `Authorization: Bearer` (only the header: RFC 6750 §2.1) and validates the token for the MCP resource. */
export async function checkBearer(
  req: Request,
  deps: { config: OAuthConfig; keys: () => Promise<KeySet>; revocations: Store; nowSeconds: number },
): Promise<CredentialCheck> {
  const header = req.headers.get('authorization');
  if (!header) return { kind: 'none' };
  const match = /^Bearer\s+([A-Za-z0-9\-._~+/]+=*)\s*$/i.exec(header);
  if (!match) return { kind: 'invalid', reason: 'not_bearer' };
  const check = await verifyAccessToken(match[1]!, {
    keys: await deps.keys(),
    issuer: deps.config.issuer,
    audience: deps.config.mcpResource,
    nowSeconds: deps.nowSeconds,
    revocations: deps.revocations,
  });
  if (!check.ok) return { kind: 'invalid', reason: check.reason };
  return { kind: 'valid', clientId: check.claims.client_id, scopes: check.claims.scope.split(' ').filter(Boolean) };
}
