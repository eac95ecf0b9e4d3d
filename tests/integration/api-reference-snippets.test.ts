/**
 * The request samples of the API reference work as printed: the text a reader copies from an
 * operation's page (/docs/api/{slug}; the code block's text) runs unchanged (but for the origin) in
 * curl, Node's fetch and Python `requests`, at their default settings, against the local runtime on
 * a free port.
 */
import { execFile, execFileSync } from 'node:child_process';
import type { Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, startRuntime, type LocalRuntime } from '../../scripts/runtime/index.ts';
import { operationSlug } from '../../src/core/publish/reference/reference.ts';
import { TEST_ORIGIN } from '../support/origin.ts';

const run = promisify(execFile);
let runtime: LocalRuntime;
let server: Server;
let origin = '';
/** Each operation page's HTML, by operationId. */
const pages = new Map<string, string>();

beforeAll(async () => {
  runtime = await startRuntime({ blobsDir: mkdtempSync(path.join(tmpdir(), 'snippet-blobs-')) });
  ({ server, url: origin } = await serve(runtime, 0));
  origin = origin.replace(/\/$/, '');
  for (const id of ['searchArticles', 'registerClient', 'mcp', 'getHealth', 'getTweets', 'sendEnquiry']) {
    pages.set(id, await (await fetch(`${origin}/docs/api/${operationSlug(id)}`)).text());
  }
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await runtime.stop();
  rmSync(runtime.blobsDir, { recursive: true, force: true });
});

const ENTITIES: Record<string, string> = { '&lt;': '<', '&gt;': '>', '&amp;': '&', '&quot;': '"', '&#39;': "'", '&#x27;': "'" };

/** The text of one sample's code block (`{operationId}-request-{n}-{language}`), as `pre.textContent` gives it to the copy button. */
function sample(id: string): string {
  const html = pages.get(id.slice(0, id.indexOf('-request-'))) ?? '';
  const start = html.indexOf(`id="${id}"`);
  expect(start, `sample ${id} on the page`).toBeGreaterThan(0);
  const pre = /<pre[^>]*>([\s\S]*?)<\/pre>/.exec(html.slice(start))![1]!;
  const text = pre.replace(/<[^>]+>/g, '').replace(/&(?:lt|gt|amp|quot|#39|#x27);/g, (e) => ENTITIES[e]!);
  return text.replaceAll(TEST_ORIGIN, origin);
}

async function curl(id: string): Promise<string> {
  return (await run('sh', ['-c', sample(id)], { timeout: 20_000 })).stdout;
}
async function node(id: string): Promise<string> {
  return (await run(process.execPath, ['--input-type=module', '-e', sample(id)], { timeout: 20_000 })).stdout;
}
/**
 * A Python that has `requests`: the one on PATH (pyenv, a venv) or Debian's, where `.ci/run` installs
 * python3-requests. None is a failure, not a skip: the samples are documented for Python.
 */
const pythonWithRequests = ['python3', '/usr/bin/python3'].find((python) => {
  try {
    execFileSync(python, ['-c', 'import requests'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
});
async function python(id: string): Promise<string> {
  if (!pythonWithRequests)
    throw new Error('No Python with the requests package: install it (Debian: apt-get install python3-requests, as .ci/run does)');
  return (await run(pythonWithRequests, ['-c', sample(id)], { timeout: 20_000 })).stdout;
}

describe('request samples of the API reference', () => {
  it('search: curl prints the JSON results; fetch and requests print 200', async () => {
    const results = JSON.parse(await curl('searchArticles-request-1-curl')) as { title: string }[];
    expect(results.length).toBeGreaterThan(0);
    expect(results.length).toBeLessThanOrEqual(3);
    expect(await node('searchArticles-request-1-javascript')).toMatch(/^200 \[/);
  });

  it('register, MCP and health answer as documented from curl and fetch', async () => {
    const registered = JSON.parse(await curl('registerClient-request-1-curl')) as { client_id: string; claim_token: string };
    expect(registered.client_id).toMatch(/^agt_/);
    expect(await node('registerClient-request-2-javascript')).toMatch(/^201 \{/);
    const rpc = JSON.parse(await curl('mcp-request-1-curl')) as { result: { structuredContent: { results: unknown[] } } };
    expect(rpc.result.structuredContent.results.length).toBeGreaterThan(0);
    expect(await node('mcp-request-2-javascript')).toMatch(/^200 \{/);
    const health = JSON.parse(await curl('getHealth-request-1-curl')) as { status: string };
    expect(['ok', 'degraded']).toContain(health.status);
    expect(await node('getTweets-request-1-javascript')).toMatch(/^200 \{/);
  });

  it('contact: the first sample is stored, the next is the documented 429', async () => {
    const stored = JSON.parse(await curl('sendEnquiry-request-1-curl')) as { status: string };
    expect(stored.status).toBe('accepted');
    expect(await node('sendEnquiry-request-1-javascript')).toMatch(/^429 \{/);
  });

  it('Python requests runs the search, MCP and registration samples', async () => {
    expect(await python('searchArticles-request-1-python')).toMatch(/^200 \[\{'slug': /);
    expect(await python('mcp-request-1-python')).toMatch(/^200 \{'jsonrpc': '2.0'/);
    expect(await python('registerClient-request-1-python')).toMatch(/^201 \{'client_id': 'agt_/);
  });
});
