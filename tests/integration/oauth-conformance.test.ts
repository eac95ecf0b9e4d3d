/**
 * The MCP conformance suite's authorization-server scenarios (docs/reference/mcp-oauth.md §7.1, §10 C3/C4)
 * against the local runtime served over real HTTP on the test origin (the issuer must equal the
 * URL the suite is given). `authorization-code-grant` prints an authorization URL and waits for
 * its callback on 127.0.0.1; this test plays the person: it opens the consent page, approves, and
 * follows the 303 to the suite's callback server.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRuntime, type LocalRuntime } from '../../scripts/runtime/index.ts';
import { answerFormPage, openFormPage } from '../support/consent.ts';
import { TEST_ORIGIN } from '../support/origin.ts';
import { serveOnTestPort } from '../support/test-port.ts';
import { testBlobsDir } from '../support/runtime.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const CONFORMANCE = path.join(ROOT, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const CALLBACK_PORT = 3917;
const CHILD_TIMEOUT_MS = 120_000;

let runtime: LocalRuntime;
let server: Server;
let outputDir: string;

beforeAll(async () => {
  runtime = await startRuntime({ blobsDir: testBlobsDir() });
  server = (await serveOnTestPort(runtime)).server;
  outputDir = mkdtempSync(path.join(tmpdir(), 'oauth-conformance-'));
});

afterAll(async () => {
  if (server) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  await runtime?.stop();
  if (runtime) rmSync(runtime.blobsDir, { recursive: true, force: true });
  if (outputDir) rmSync(outputDir, { recursive: true, force: true });
});

/** Runs the suite's authorization mode; `onUrl` is called with the authorization URL it prints. */
function runAuthorizationSuite(
  args: string[],
  onUrl: (url: string) => Promise<void>,
): Promise<{ code: number; output: string; driverError?: unknown }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CONFORMANCE, 'authorization', '--url', TEST_ORIGIN, '-o', outputDir, ...args], {
      cwd: outputDir,
      env: { ...process.env, NO_COLOR: '1' },
    });
    let output = '';
    let driverError: unknown;
    let driven = false;
    const timer = setTimeout(() => child.kill('SIGKILL'), CHILD_TIMEOUT_MS);
    const read = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = /^(http:\/\/\S+\/oauth\/authorize\?\S+)$/m.exec(output);
      if (match && !driven && output.includes('Waiting')) {
        driven = true;
        onUrl(match[1]!).catch((error: unknown) => {
          driverError = error;
          child.kill('SIGKILL');
        });
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, output, driverError });
    });
  });
}

describe('C3 + C4: conformance, authorization-server scenarios', () => {
  it.each([
    ['without resource (the server defaults it)', []],
    ['with --resource <origin>/mcp (RFC 8707)', ['--resource', `${TEST_ORIGIN}/mcp`]],
  ])(
    'authorization-server-metadata-endpoint and authorization-code-grant pass, %s',
    async (_name, extraArgs) => {
      const registration = await fetch(`${TEST_ORIGIN}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          client_name: 'MCP conformance suite',
          grant_types: ['authorization_code'],
          redirect_uris: [`http://127.0.0.1:${CALLBACK_PORT}/callback`],
          token_endpoint_auth_method: 'none',
        }),
      });
      expect(registration.status).toBe(201);
      const { client_id: clientId } = await registration.json();

      const result = await runAuthorizationSuite(
        ['--client-id', clientId, '-p', String(CALLBACK_PORT), ...extraArgs],
        async (authorizationUrl) => {
          const page = await openFormPage(fetch, authorizationUrl);
          if (page.response.status !== 200) throw new Error(`consent page: ${page.response.status}`);
          const answer = await answerFormPage(fetch, page, 'approve');
          const callback = answer.headers.get('location');
          if (answer.status !== 303 || !callback) throw new Error(`consent answer: ${answer.status}`);
          // The browser would now follow the redirect to the suite's callback server.
          await fetch(callback);
        },
      );
      expect(result.driverError).toBeUndefined();
      expect(result.code, result.output).toBe(0);
      expect(result.output).toMatch(/Passed: 2\/2|2 passed/);
      expect(result.output).not.toMatch(/\bFAILURE\b/);
    },
    CHILD_TIMEOUT_MS + 30_000,
  );
});
