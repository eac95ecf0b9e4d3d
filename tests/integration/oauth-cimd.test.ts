/**
 * Client ID Metadata Documents with the MCP SDK clients at their defaults, end to end: v1
 * (`@modelcontextprotocol/sdk`) and v2 (`@modelcontextprotocol/client`). Each host publishes its
 * metadata document over https and names it in `OAuthClientProvider.clientMetadataUrl`; the SDK
 * sees `client_id_metadata_document_supported` in our metadata and sends the URL as its client_id,
 * with no registration. The site is `npm start` (scripts/serve.ts) in a child process started
 * with NODE_EXTRA_CA_CERTS naming a CA made at test time, so the production fetcher
 * (netlify/functions/_shared/client-metadata-fetch.ts) fetches the document over TLS, unchanged.
 * The SDK never fetches its own document (it only sends the URL), so this process trusts no test CA.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as TransportV2,
  UnauthorizedError as UnauthorizedErrorV2,
} from '@modelcontextprotocol/client';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { safeFetchDocument } from '../../netlify/functions/_shared/client-metadata-fetch.ts';
import { CLIENT_METADATA_FETCHER_AGENT } from '../../src/core/oauth/grants/client-metadata-document.ts';
import { InMemoryOAuthProvider } from '../support/mcp-oauth-provider.ts';
import { TEST_ORIGIN, TEST_PORT } from '../support/origin.ts';
import { createTestCertificates } from '../support/test-ca.ts';
import { TEST_PORT_WAIT_MS, waitForTestPort } from '../support/test-port.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const MCP = new URL(`${TEST_ORIGIN}/mcp`);
const EXPORT = { name: 'export_article_index', arguments: { limit: 2 } };
const START_TIMEOUT_MS = 60_000;

const scratch = mkdtempSync(path.join(tmpdir(), 'oauth-cimd-'));
const certificates = createTestCertificates(scratch);

/** The hosts' documents, by path, and every request the https server saw (the authorization server's fetches). */
const documents = new Map<string, Record<string, unknown>>();
const documentRequests: { path: string; userAgent: string }[] = [];
let documentServer: Server;
let documentBase = '';
let site: ChildProcess | undefined;

/** `npm start` on the test origin's port, trusting the test CA the way any Node process can be told to. */
function startSite(): Promise<ChildProcess> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(TEST_PORT),
    NETLIFY_LOCAL_BLOBS_DIR: path.join(scratch, 'blobs'),
    NODE_EXTRA_CA_CERTS: certificates.caPath,
  };
  delete env.SITE_URL;
  delete env.CONTENT_DIR;
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts', 'serve.ts')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`npm start did not get ready within ${START_TIMEOUT_MS} ms:\n${output}`));
    }, START_TIMEOUT_MS);
    const read = (chunk: Buffer): void => {
      output += chunk.toString();
      if (/running at http:\/\/localhost:\d+/.test(output)) {
        clearTimeout(timer);
        resolve(child);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited (${code}) before it was ready:\n${output}`));
    });
  });
}

/** `npm start` once TEST_PORT is free; again if another file bound it first (EADDRINUSE). */
async function startSiteOnTestPort(): Promise<ChildProcess> {
  for (;;) {
    await waitForTestPort();
    try {
      return await startSite();
    } catch (error) {
      if (!String(error).includes('EADDRINUSE')) throw error;
    }
  }
}

async function stopSite(): Promise<void> {
  const child = site;
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

beforeAll(
  async () => {
    documentServer = createServer({ key: certificates.key, cert: certificates.cert }, (req, res) => {
      documentRequests.push({ path: req.url ?? '', userAgent: req.headers['user-agent'] ?? '' });
      const doc = documents.get(req.url ?? '');
      if (!doc) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=300' }).end(JSON.stringify(doc));
    });
    await new Promise<void>((resolve) => documentServer.listen(0, '127.0.0.1', resolve));
    documentBase = `https://127.0.0.1:${(documentServer.address() as AddressInfo).port}`;
    site = await startSiteOnTestPort();
  },
  TEST_PORT_WAIT_MS + START_TIMEOUT_MS + 10_000,
);

afterAll(async () => {
  await stopSite();
  documentServer?.closeAllConnections();
  await new Promise((resolve) => documentServer?.close(resolve));
  rmSync(scratch, { recursive: true, force: true });
});

/** What the SDK's HTTP client sent and got (a pass-through fetch given to the transport). */
interface Exchange {
  method: string;
  path: string;
  status: number;
  authorization: string | null;
  body: string;
}
function recordingFetch(log: Exchange[]): (url: string | URL, init?: RequestInit) => Promise<Response> {
  return async (url, init) => {
    const response = await fetch(url, init);
    log.push({
      method: init?.method ?? 'GET',
      path: new URL(url).pathname,
      status: response.status,
      authorization: new Headers(init?.headers).get('authorization'),
      body: typeof init?.body === 'string' || init?.body instanceof URLSearchParams ? String(init.body) : '',
    });
    return response;
  };
}

interface ToolResult {
  isError?: boolean;
  structuredContent?: unknown;
}
function expectExported(result: ToolResult): void {
  expect(result.isError).toBeFalsy();
  expect((result.structuredContent as { items: unknown[] }).items).toHaveLength(2);
}

interface Host {
  callTool(): Promise<ToolResult>;
  close(): Promise<void>;
}

/** The host's sign-in as in oauth-refresh.test.ts: the 401 sends the person to consent, then finishAuth. */
async function signIn(sdk: 'v1' | 'v2', provider: InMemoryOAuthProvider, log: Exchange[]): Promise<Host> {
  if (sdk === 'v1') {
    const client = new Client({ name: 'cimd-host-v1', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(MCP, { authProvider: provider as never, fetch: recordingFetch(log) });
    await client.connect(transport);
    await expect(client.callTool(EXPORT)).rejects.toBeInstanceOf(UnauthorizedError);
    await transport.finishAuth(provider.code!);
    return { callTool: async () => (await client.callTool(EXPORT)) as ToolResult, close: () => client.close() };
  }
  const client = new ClientV2({ name: 'cimd-host-v2', version: '1.0.0' });
  const transport = new TransportV2(MCP, { authProvider: provider as never, fetch: recordingFetch(log) });
  await client.connect(transport);
  await expect(client.callTool(EXPORT)).rejects.toBeInstanceOf(UnauthorizedErrorV2);
  await transport.finishAuth(provider.callbackParams!);
  return { callTool: async () => (await client.callTool(EXPORT)) as ToolResult, close: () => client.close() };
}

describe('Client ID Metadata Documents with the MCP SDK clients', () => {
  it('the document is served over TLS by a CA only the site process trusts: the same fetcher here, without NODE_EXTRA_CA_CERTS, refuses it', async () => {
    documents.set('/probe/client.json', { client_id: `${documentBase}/probe/client.json`, redirect_uris: ['http://127.0.0.1:1/cb'] });
    await expect(safeFetchDocument(`${documentBase}/probe/client.json`, { allowLoopback: true })).rejects.toThrow(
      /unable to verify the first certificate/,
    );
  });

  it.each([
    ['v1', 'http://localhost:47121/callback'],
    ['v2', 'http://127.0.0.1:47122/callback'],
  ] as const)(
    'SDK %s: 401, discovery, the document URL as client_id (no registration), consent, export; a rejected token is refreshed by the SDK',
    async (sdk, redirectUrl) => {
      const documentPath = `/hosts/${sdk}/oauth-client.json`;
      const clientId = `${documentBase}${documentPath}`;
      const provider = new InMemoryOAuthProvider(redirectUrl, 'none', { clientMetadataUrl: clientId });
      // What a host publishes: its client metadata, with the document's own URL as client_id.
      documents.set(documentPath, { client_id: clientId, ...provider.clientMetadata });
      const log: Exchange[] = [];
      const host = await signIn(sdk, provider, log);
      try {
        expectExported(await host.callTool());

        // The SDK's path: the tool call was refused, it found the AS through the resource metadata, then used the URL.
        expect(log.some((e) => e.method === 'POST' && e.path === '/mcp' && e.status === 401)).toBe(true);
        expect(log.some((e) => e.path.startsWith('/.well-known/oauth-protected-resource') && e.status === 200)).toBe(true);
        expect(log.some((e) => e.path === '/.well-known/oauth-authorization-server' && e.status === 200)).toBe(true);
        expect(provider.clientInformation()).toMatchObject({ client_id: clientId });
        expect(provider.clientInformation()).not.toHaveProperty('client_secret');
        const codeExchange = log.find((e) => e.path === '/oauth/token')!;
        expect(codeExchange.status).toBe(200);
        expect(new URLSearchParams(codeExchange.body).get('client_id')).toBe(clientId);
        expect(provider.savedTokens).toHaveLength(1);
        const first = provider.savedTokens[0]!;
        expect(decodeJwt(String(first.access_token)).client_id).toBe(clientId);
        // The authorization server fetched the document over TLS with its own fetcher.
        expect(documentRequests.filter((r) => r.path === documentPath).length).toBeGreaterThanOrEqual(1);
        // The site's User-Agent, then the fetcher's own token (which stops a nested fetch).
        expect(documentRequests.find((r) => r.path === documentPath)!.userAgent).toMatch(
          new RegExp(`^agent-ready-site/1 \\(\\+http://localhost:\\d+\\) ${CLIENT_METADATA_FETCHER_AGENT}$`),
        );

        // The server stops accepting the access token: the SDK refreshes on the 401 and retries.
        provider.spoilAccessToken();
        expectExported(await host.callTool());
        expect(provider.savedTokens).toHaveLength(2);
        const second = provider.savedTokens[1]!;
        expect(second.access_token).not.toBe(first.access_token);
        expect(second.refresh_token).not.toBe(first.refresh_token);
        const refresh = log.filter((e) => e.path === '/oauth/token').at(-1)!;
        const form = new URLSearchParams(refresh.body);
        expect(refresh.status).toBe(200);
        expect(form.get('grant_type')).toBe('refresh_token');
        expect(form.get('client_id')).toBe(clientId);
        expect(form.has('client_secret')).toBe(false);
        expect(log.filter((e) => e.path === '/mcp').at(-1)).toMatchObject({
          status: 200,
          authorization: `Bearer ${String(second.access_token)}`,
        });

        expect(log.filter((e) => e.path === '/oauth/register')).toEqual([]);
      } finally {
        await host.close();
      }
    },
    60_000,
  );
});
