/**
 * The authorization server and the protected MCP tool with real third-party clients at their
 * default settings, over real HTTP on the test origin: the public contract's literal requests (run
 * with curl), oauth4webapi with either client authentication, openid-client v6, mcp-remote's
 * default browser sign-in and its client-credentials mode, and the MCP Inspector CLI. Each ends in
 * a successful `export_article_index`. (The MCP SDK providers and refresh: oauth-refresh.test.ts;
 * with Client ID Metadata Documents: oauth-cimd.test.ts.)
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import * as oauth from 'oauth4webapi';
import * as openid from 'openid-client';
import { afterAll, describe, expect, it } from 'vitest';
import { useServedSite } from '../support/browser.ts';
import { TEST_ORIGIN } from '../support/origin.ts';

useServedSite();
const ROOT = path.resolve(import.meta.dirname, '..', '..');
const MCP = `${TEST_ORIGIN}/mcp`;
const MCP_REMOTE = path.join(ROOT, 'node_modules', 'mcp-remote', 'dist', 'proxy.js');
const INSPECTOR = path.join(ROOT, 'node_modules', '@modelcontextprotocol', 'inspector', 'clients', 'launcher', 'build', 'index.js');
const HTTP_BROWSER = path.join(ROOT, 'tests', 'support', 'http-browser.ts');
const CHILD_TIMEOUT_MS = 90_000;
const scratch = mkdtempSync(path.join(tmpdir(), 'oauth-clients-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The contract's registration: client_name, grant_types, scope; nothing else. */
const CONTRACT_REGISTRATION = { client_name: 'contract agent', grant_types: ['client_credentials'], scope: 'content:export' };

function run(command: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { timeout: CHILD_TIMEOUT_MS, maxBuffer: 8 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1', ...env } },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
      },
    );
  });
}

async function registerAsContract(): Promise<{ client_id: string; client_secret: string; scope: string }> {
  const res = await fetch(`${TEST_ORIGIN}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(CONTRACT_REGISTRATION),
  });
  expect(res.status).toBe(201);
  return res.json();
}

async function exportWith(
  accessToken: string,
  limit = 2,
): Promise<{ status: number; body: { result: { isError?: boolean; structuredContent: { items: unknown[] } } } }> {
  const res = await fetch(MCP, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${accessToken}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'export_article_index', arguments: { limit } } }),
  });
  return { status: res.status, body: await res.json() };
}

function expectExported(
  result: { status: number; body: { result: { isError?: boolean; structuredContent: { items: unknown[] } } } },
  count = 2,
): void {
  expect(result.status).toBe(200);
  expect(result.body.result.isError).toBeFalsy();
  expect(result.body.result.structuredContent.items).toHaveLength(count);
}

describe('the public contract, literally (curl)', () => {
  it('register, then the token request with the secret in the form body, then the export', async () => {
    const registered = await run('curl', [
      '-sS',
      '-X',
      'POST',
      `${TEST_ORIGIN}/oauth/register`,
      '-H',
      'Content-Type: application/json',
      '-d',
      JSON.stringify(CONTRACT_REGISTRATION),
    ]);
    expect(registered.code, registered.stderr).toBe(0);
    const client = JSON.parse(registered.stdout) as { client_id: string; client_secret: string; scope: string };
    expect(client.client_id).toMatch(/^agt_/);
    expect(client.client_secret.length).toBeGreaterThanOrEqual(40);
    expect(client.scope).toBe('content:export');

    const minted = await run('curl', [
      '-sS',
      '-X',
      'POST',
      `${TEST_ORIGIN}/oauth/token`,
      '-d',
      'grant_type=client_credentials',
      '-d',
      `client_id=${client.client_id}`,
      '-d',
      `client_secret=${client.client_secret}`,
      '-d',
      'scope=content:export',
    ]);
    expect(minted.code, minted.stderr).toBe(0);
    const token = JSON.parse(minted.stdout) as Record<string, unknown>;
    expect(token).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'content:export' });
    expect(Number.isInteger(token.expires_in)).toBe(true);
    const { protectedHeader, payload } = await jwtVerify(
      String(token.access_token),
      createRemoteJWKSet(new URL(`${TEST_ORIGIN}/oauth/jwks.json`)),
      { issuer: TEST_ORIGIN, audience: MCP },
    );
    expect(protectedHeader.alg).toBe('RS256');
    expect(payload.exp! - payload.iat!).toBe(3600);

    const call = await run('curl', [
      '-sS',
      '-X',
      'POST',
      MCP,
      '-H',
      'Content-Type: application/json',
      '-H',
      `Authorization: Bearer ${String(token.access_token)}`,
      '-d',
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'export_article_index', arguments: { limit: 3 } } }),
    ]);
    expect(call.code, call.stderr).toBe(0);
    const body = JSON.parse(call.stdout.startsWith('event:') ? call.stdout.slice(call.stdout.indexOf('{')) : call.stdout);
    expect(body.result.isError).toBeFalsy();
    expect(body.result.structuredContent.items).toHaveLength(3);
  });

  it('the same client may authenticate with HTTP Basic instead; a wrong secret is 401 invalid_client either way', async () => {
    const client = await registerAsContract();
    const basic = `Basic ${btoa(`${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret)}`)}`;
    const ok = await fetch(`${TEST_ORIGIN}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic },
      body: 'grant_type=client_credentials',
    });
    expect(ok.status).toBe(200);
    expect((await ok.json()).scope).toBe('content:export');
    const wrongPost = await fetch(`${TEST_ORIGIN}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: client.client_id, client_secret: 'wrong' }),
    });
    expect(wrongPost.status).toBe(401);
    expect((await wrongPost.json()).error).toBe('invalid_client');
    const noSecret = await fetch(`${TEST_ORIGIN}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: client.client_id }),
    });
    expect(noSecret.status).toBe(401);
  });

  it('scope: the intersection of requested and registered is issued and named; an empty one is invalid_scope', async () => {
    const client = await registerAsContract();
    const form = (scope: string) =>
      fetch(`${TEST_ORIGIN}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: client.client_id,
          client_secret: client.client_secret,
          scope,
        }),
      });
    const wider = await form('articles:read content:export unknown:scope');
    expect(wider.status).toBe(200);
    expect((await wider.json()).scope).toBe('content:export');
    const none = await form('articles:read');
    expect(none.status).toBe(400);
    expect((await none.json()).error).toBe('invalid_scope');
  });
});

describe('OAuth libraries at their defaults', () => {
  const as = async (): Promise<oauth.AuthorizationServer> =>
    oauth.processDiscoveryResponse(
      new URL(TEST_ORIGIN),
      // Default discovery (OpenID's path): only http, which a loopback test origin needs, is allowed explicitly.
      await oauth.discoveryRequest(new URL(TEST_ORIGIN), { [oauth.allowInsecureRequests]: true }),
    );

  it.each([
    ['ClientSecretPost', oauth.ClientSecretPost],
    ['ClientSecretBasic', oauth.ClientSecretBasic],
  ] as const)('oauth4webapi %s with a contract-registered client gets a token the export accepts', async (_name, method) => {
    const server = await as();
    const registered = await registerAsContract();
    const client: oauth.Client = { client_id: registered.client_id };
    const res = await oauth.clientCredentialsGrantRequest(
      server,
      client,
      method(registered.client_secret),
      { scope: 'content:export' },
      { [oauth.allowInsecureRequests]: true },
    );
    const tokens = await oauth.processClientCredentialsResponse(server, client, res);
    expect(tokens.scope).toBe('content:export');
    expectExported(await exportWith(tokens.access_token));
  });

  it('openid-client v6: discovery and clientCredentialsGrant, both at their defaults', async () => {
    const registered = await registerAsContract();
    const config = await openid.discovery(new URL(TEST_ORIGIN), registered.client_id, registered.client_secret, undefined, {
      execute: [openid.allowInsecureRequests],
    });
    const tokens = await openid.clientCredentialsGrant(config, { scope: 'content:export' });
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expectExported(await exportWith(tokens.access_token));
  });
});

describe('mcp-remote at its defaults', () => {
  /** An MCP client speaking to mcp-remote over stdio, as a desktop host does. */
  async function throughMcpRemote(args: string[], env: Record<string, string>): Promise<{ client: Client; stderr: () => string }> {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [MCP_REMOTE, MCP, ...args],
      env: { ...(process.env as Record<string, string>), MCP_REMOTE_CONFIG_DIR: mkdtempSync(path.join(scratch, 'mcp-auth-')), ...env },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: 'desktop-host', version: '1.0.0' });
    await client.connect(transport);
    return { client, stderr: () => stderr };
  }

  it('the default browser sign-in: registration as mcp-remote sends it, consent approved, the export succeeds', async () => {
    // xdg-open (bundled with mcp-remote's `open`) runs $BROWSER: here a browser without JavaScript driven over HTTP.
    const { client, stderr } = await throughMcpRemote([], { BROWSER: `${process.execPath} ${HTTP_BROWSER}` });
    try {
      const result = await client.callTool({ name: 'export_article_index', arguments: { limit: 2 } }).catch((error: unknown) => {
        throw new Error(`${String(error)}\nmcp-remote said:\n${stderr()}`);
      });
      expect(result.isError, stderr()).toBeFalsy();
      expect((result.structuredContent as { items: unknown[] }).items).toHaveLength(2);
      expect(stderr()).not.toMatch(/registration rejected/i);
    } finally {
      await client.close();
    }
  }, 120_000);

  it('--client-credentials with a contract-registered client (it asks for every advertised scope)', async () => {
    const registered = await registerAsContract();
    const info = JSON.stringify({ client_id: registered.client_id, client_secret: registered.client_secret });
    const { client, stderr } = await throughMcpRemote(['--client-credentials', '--static-oauth-client-info', info], {});
    try {
      const result = await client.callTool({ name: 'export_article_index', arguments: { limit: 2 } });
      expect(result.isError, stderr()).toBeFalsy();
      expect((result.structuredContent as { items: unknown[] }).items).toHaveLength(2);
    } finally {
      await client.close();
    }
  }, 120_000);
});

describe('MCP Inspector CLI', () => {
  it('calls export_article_index with a bearer header', async () => {
    const registered = await registerAsContract();
    const minted = await fetch(`${TEST_ORIGIN}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: registered.client_id,
        client_secret: registered.client_secret,
      }),
    });
    const { access_token: accessToken } = (await minted.json()) as { access_token: string };
    const { code, stdout, stderr } = await run(process.execPath, [
      INSPECTOR,
      '--cli',
      MCP,
      '--method',
      'tools/call',
      '--tool-name',
      'export_article_index',
      '--tool-arg',
      'limit=2',
      '--header',
      `Authorization: Bearer ${accessToken}`,
    ]);
    expect(code, `${stdout}\n${stderr}`).toBe(0);
    const result = JSON.parse(stdout.slice(stdout.indexOf('{'), stdout.lastIndexOf('}') + 1)) as {
      isError?: boolean;
      structuredContent: { items: unknown[] };
    };
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.items).toHaveLength(2);
  }, 120_000);
});
