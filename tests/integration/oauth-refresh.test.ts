/**
 * The MCP SDK v1 and v2 clients with an OAuthClientProvider as a host writes one, registering with
 * the metadata MCP clients send by default (authorization_code + refresh_token, public or
 * client_secret_post), over real HTTP: the 401 starts registration and consent, the export
 * succeeds, and after the access token expires (a 3-second lifetime in this file, plus the 30 s
 * clock-skew allowance, passed by moving this process's clock) the SDK refreshes on its own and the
 * export succeeds again. Then RFC 9700 §4.14.2: a spent refresh token presented again revokes the
 * whole grant.
 */
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as TransportV2,
  UnauthorizedError as UnauthorizedErrorV2,
} from '@modelcontextprotocol/client';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CLOCK_SKEW_SECONDS } from '../../src/core/oauth/config.ts';
import { useServedSite } from '../support/browser.ts';
import { InMemoryOAuthProvider } from '../support/mcp-oauth-provider.ts';
import { TEST_ORIGIN } from '../support/origin.ts';

const ACCESS_TOKEN_TTL_SECONDS = 3;
// Read by the functions when the runtime starts (useServedSite's beforeAll).
process.env.OAUTH_ACCESS_TOKEN_TTL_SECONDS = String(ACCESS_TOKEN_TTL_SECONDS);
useServedSite();

const MCP = new URL(`${TEST_ORIGIN}/mcp`);
const EXPORT = { name: 'export_article_index', arguments: { limit: 2 } };

interface ToolResult {
  isError?: boolean;
  structuredContent?: unknown;
}
function expectExported(result: ToolResult): void {
  expect(result.isError).toBeFalsy();
  expect((result.structuredContent as { items: unknown[] }).items).toHaveLength(2);
}

async function refresh(provider: InMemoryOAuthProvider, refreshToken: string): Promise<Response> {
  const client = provider.clientInformation()!;
  return fetch(`${TEST_ORIGIN}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: String(client.client_id),
      ...(client.client_secret ? { client_secret: String(client.client_secret) } : {}),
    }),
  });
}

/** After the SDK refreshed: the first (spent) refresh token again revokes the grant. */
async function expectReuseRevokesGrant(provider: InMemoryOAuthProvider): Promise<void> {
  const [first, ...later] = provider.savedTokens;
  const latest = later.at(-1)!;
  expect(first!.refresh_token).toBeTruthy();
  expect(latest.refresh_token).not.toBe(first!.refresh_token);
  const replay = await refresh(provider, String(first!.refresh_token));
  expect(replay.status).toBe(400);
  expect((await replay.json()).error).toBe('invalid_grant');
  const afterReplay = await refresh(provider, String(latest.refresh_token));
  expect(afterReplay.status).toBe(400);
  expect((await afterReplay.json()).error_description).toMatch(/revoked/);
}

interface Signed {
  provider: InMemoryOAuthProvider;
  callTool: () => Promise<ToolResult>;
  close: () => Promise<void>;
}

/** SDK v1, public client (what mcp-remote and the Inspector register). */
async function signInWithSdkV1(): Promise<Signed> {
  const provider = new InMemoryOAuthProvider('http://localhost:47111/callback', 'none');
  const client = new Client({ name: 'sdk-v1-host', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(MCP, { authProvider: provider as never });
  await client.connect(transport);
  await expect(client.callTool(EXPORT)).rejects.toBeInstanceOf(UnauthorizedError);
  await transport.finishAuth(provider.code!);
  return { provider, callTool: async () => (await client.callTool(EXPORT)) as ToolResult, close: () => client.close() };
}

/** SDK v2, confidential client with client_secret_post (the SDK's own example metadata). */
async function signInWithSdkV2(): Promise<Signed> {
  const provider = new InMemoryOAuthProvider('http://127.0.0.1:47112/callback', 'client_secret_post');
  const client = new ClientV2({ name: 'sdk-v2-host', version: '1.0.0' });
  const transport = new TransportV2(MCP, { authProvider: provider as never });
  await client.connect(transport);
  await expect(client.callTool(EXPORT)).rejects.toBeInstanceOf(UnauthorizedErrorV2);
  await transport.finishAuth(provider.callbackParams!);
  return { provider, callTool: async () => (await client.callTool(EXPORT)) as ToolResult, close: () => client.close() };
}

describe('MCP SDK clients with an OAuth provider at their default metadata', () => {
  const signedIn: Record<'v1' | 'v2', Signed> = {} as never;

  beforeAll(async () => {
    signedIn.v1 = await signInWithSdkV1();
    signedIn.v2 = await signInWithSdkV2();
    for (const { provider, callTool } of Object.values(signedIn)) {
      expectExported(await callTool());
      expect(provider.savedTokens).toHaveLength(1);
      expect(provider.savedTokens[0]).toMatchObject({ token_type: 'Bearer', expires_in: ACCESS_TOKEN_TTL_SECONDS });
    }
    // Past the lifetime and the verifier's clock-skew allowance, for both, without waiting 34 s: the
    // site runs in this process (useServedSite), so moving the clock moves it for the SDKs and the
    // authorization server alike, as the time passing would. Timers stay real; the clock keeps ticking.
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    vi.setSystemTime(Date.now() + (ACCESS_TOKEN_TTL_SECONDS + CLOCK_SKEW_SECONDS + 1) * 1000);
  }, 180_000);

  afterAll(async () => {
    vi.useRealTimers();
    for (const { close } of Object.values(signedIn)) await close();
  });

  it('registration as the SDKs send it was accepted (public and client_secret_post)', () => {
    expect(signedIn.v1.provider.clientInformation()).toMatchObject({
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
    });
    expect(signedIn.v1.provider.clientInformation()).not.toHaveProperty('client_secret');
    expect(signedIn.v2.provider.clientInformation()).toMatchObject({ token_endpoint_auth_method: 'client_secret_post' });
    expect(String(signedIn.v2.provider.clientInformation()!.client_secret).length).toBeGreaterThan(0);
  });

  it.each(['v1', 'v2'] as const)(
    'SDK %s: after the access token expired, the SDK refreshes on its own; a reused refresh token then revokes the grant',
    async (sdk) => {
      const { provider, callTool } = signedIn[sdk];
      expectExported(await callTool());
      expect(provider.savedTokens.length).toBeGreaterThanOrEqual(2);
      expect(provider.savedTokens.at(-1)!.access_token).not.toBe(provider.savedTokens[0]!.access_token);
      await expectReuseRevokesGrant(provider);
    },
    60_000,
  );
});
