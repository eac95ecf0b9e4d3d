/**
 * What checking a request's credentials found: the port between the authorization server's
 * resource-server check (oauth/grants/resource-server.ts) and the features it protects (mcp/auth.ts).
 * @module
 */
export type CredentialCheck =
  | { kind: 'none' }
  | { kind: 'invalid'; reason: string }
  | { kind: 'valid'; clientId: string; scopes: string[] };
