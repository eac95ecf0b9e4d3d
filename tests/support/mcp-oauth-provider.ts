/**
 * An OAuthClientProvider as an MCP host application writes one (kept in memory), for the MCP SDK
 * v1 and v2 clients. It registers with the metadata MCP clients send by default and, where a host
 * would open a browser, drives the consent page over HTTP (Approve) and keeps the code for
 * `transport.finishAuth`. Given a `clientMetadataUrl`, the SDK uses that URL as its client_id
 * (Client ID Metadata Documents) where the server supports it. Nothing in it adapts the client to
 * this server.
 */
import { authorizeThroughConsent } from './consent.ts';

/** The registration MCP clients send (the SDK examples, mcp-remote, the Inspector). */
export function defaultMcpClientMetadata(redirectUrl: string, authMethod: 'none' | 'client_secret_post' = 'none'): Record<string, unknown> {
  return {
    client_name: 'MCP SDK test client',
    redirect_uris: [redirectUrl],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: authMethod,
    client_uri: 'https://github.com/modelcontextprotocol/typescript-sdk',
    software_id: 'mcp-sdk-test',
    software_version: '1.0.0',
  };
}

export class InMemoryOAuthProvider {
  readonly redirectUrl: string;
  readonly clientMetadata: Record<string, unknown>;
  /** Where the host publishes its Client ID Metadata Document (the SDK then uses it as client_id). */
  readonly clientMetadataUrl: string | undefined;
  #client: Record<string, unknown> | undefined;
  #tokens: Record<string, unknown> | undefined;
  #verifier = '';
  /** Every token response saved, in order (to see refreshes). */
  readonly savedTokens: Record<string, unknown>[] = [];
  /** The code from the last consent, for `transport.finishAuth` (v1). */
  code: string | null = null;
  /** The whole authorization response (code, state, iss), for `transport.finishAuth` (v2). */
  callbackParams: URLSearchParams | null = null;

  constructor(redirectUrl: string, authMethod: 'none' | 'client_secret_post' = 'none', options: { clientMetadataUrl?: string } = {}) {
    this.redirectUrl = redirectUrl;
    this.clientMetadata = defaultMcpClientMetadata(redirectUrl, authMethod);
    this.clientMetadataUrl = options.clientMetadataUrl;
  }

  clientInformation(): Record<string, unknown> | undefined {
    return this.#client;
  }
  saveClientInformation(info: Record<string, unknown>): void {
    this.#client = info;
  }
  tokens(): Record<string, unknown> | undefined {
    return this.#tokens;
  }
  saveTokens(tokens: Record<string, unknown>): void {
    this.#tokens = tokens;
    this.savedTokens.push(tokens);
  }
  /** Stands in for an access token the server no longer accepts (expired, revoked); the refresh token stays. */
  spoilAccessToken(): void {
    if (this.#tokens) this.#tokens = { ...this.#tokens, access_token: 'spoilt' };
  }
  #discovery: unknown;
  /** SDK v2 binds the callback to the authorization server it discovered (SEP-2352): keep it with the verifier. */
  saveDiscoveryState(state: unknown): void {
    this.#discovery = state;
  }
  discoveryState(): unknown {
    return this.#discovery;
  }
  saveCodeVerifier(verifier: string): void {
    this.#verifier = verifier;
  }
  codeVerifier(): string {
    return this.#verifier;
  }
  /** Where a host opens the browser: a person approves on the consent page. */
  async redirectToAuthorization(url: URL): Promise<void> {
    const callback = await authorizeThroughConsent((input, init) => fetch(input, init), url.href);
    if (callback.searchParams.get('iss') === null) throw new Error('the authorization response has no iss (RFC 9207)');
    this.code = callback.searchParams.get('code');
    this.callbackParams = callback.searchParams;
  }
}
