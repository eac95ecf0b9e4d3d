/**
 * Official conformance tooling against `POST /mcp` on the local runtime (mcp-oauth.md §7, §10 C1,
 * C2, C5): `@modelcontextprotocol/conformance` server scenarios in both eras and the MCP
 * Inspector CLI in strict mode, each as a child process with a timeout, on loopback only.
 * Known fixture-only failures are listed, with reasons, in tests/fixtures/conformance-baseline.yml.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, startRuntime, type LocalRuntime } from '../../scripts/runtime/index.ts';
import { testBlobsDir } from '../support/runtime.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const CONFORMANCE = path.join(ROOT, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const INSPECTOR = path.join(ROOT, 'node_modules', '@modelcontextprotocol', 'inspector', 'clients', 'launcher', 'build', 'index.js');
const BASELINE = path.join(ROOT, 'tests', 'fixtures', 'conformance-baseline.yml');
const CHILD_TIMEOUT_MS = 90_000;

/** mcp-oauth.md §10 C1 (legacy era) and C2 (2026-07-28). */
const LEGACY_SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'];
const MODERN_SCENARIOS = ['tools-list', 'server-stateless', 'http-header-validation', 'caching', 'dns-rebinding-protection'];

let runtime: LocalRuntime;
let server: Server;
let mcpUrl: string;
let outputDir: string;

beforeAll(async () => {
  runtime = await startRuntime({ blobsDir: testBlobsDir() });
  const served = await serve(runtime, 0);
  server = served.server;
  // A localhost URL: dns-rebinding-protection only runs against one.
  mcpUrl = `${served.url}/mcp`;
  outputDir = mkdtempSync(path.join(tmpdir(), 'mcp-conformance-'));
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

/** Runs a Node CLI with this Node (22, as both tools need) and returns its exit code and output. */
function run(script: string, args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [script, ...args], { cwd: outputDir, timeout: CHILD_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1' } }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({ code, output: `${stdout}\n${stderr}${error?.killed ? '\n[killed: timeout]' : ''}` });
    });
  });
}

const scenario = (name: string, version: string) =>
  run(CONFORMANCE, ['server', '--url', mcpUrl, '--scenario', name, '--spec-version', version, '--expected-failures', BASELINE, '-o', path.join(outputDir, version)]);

describe('C1: conformance, legacy era (2025-11-25)', () => {
  it.each(LEGACY_SCENARIOS)('%s passes', async (name) => {
    const { code, output } = await scenario(name, '2025-11-25');
    expect(code, output).toBe(0);
    expect(output).not.toMatch(/\bFAILURE\b/);
  }, 120_000);
});

describe('C2: conformance, 2026-07-28 (fixture-only checks baselined)', () => {
  it.each(MODERN_SCENARIOS)('%s passes against the baseline', async (name) => {
    const { code, output } = await scenario(name, '2026-07-28');
    expect(code, output).toBe(0);
  }, 120_000);
});

describe('C5: MCP Inspector CLI, strict', () => {
  it.each(['legacy', 'modern'])('tools/list in the %s era lists the five tools', async (era) => {
    const { code, output } = await run(INSPECTOR, ['--cli', mcpUrl, '--method', 'tools/list', '--strict', '--protocol-era', era]);
    expect(code, output).toBe(0);
    const listed = JSON.parse(output.slice(output.indexOf('{'), output.lastIndexOf('}') + 1)) as { tools: { name: string }[] };
    expect(listed.tools.map((t) => t.name)).toEqual(['search_articles', 'get_article', 'list_products', 'get_company_info', 'export_article_index']);
  }, 120_000);
});
