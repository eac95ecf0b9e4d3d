/**
 * The page's WebMCP tools in-process: declared as the MCP registry declares them, called through the
 * real /mcp handler (memory fixtures), and every failure a tool error that says what went wrong.
 */
import { describe, expect, it } from 'vitest';
import { FIXTURE_DEPS, FIXTURE_ORIGIN } from '../../tests/support/core-fixtures.ts';
import { webMcpListings } from '../core/agent-tools/webmcp.ts';
import { edge } from '../core/kernel/handler.ts';
import { handleMcp, mcpEdge } from '../core/mcp/server.ts';
import declared from './webmcp-tools.json';
import { type SiteFetch, type ToolResult, webMcpTools } from './webmcp-tools.ts';

/** The site as the page reaches it: relative URLs, answered by /mcp in-process. */
const mcp = edge((req: Request) => handleMcp(req, FIXTURE_DEPS), mcpEdge(FIXTURE_DEPS));
const site: SiteFetch = (path, init) => mcp(new Request(new URL(path, FIXTURE_ORIGIN), init));

const tool = (name: string, siteFetch: SiteFetch = site) => webMcpTools(siteFetch).find((t) => t.name === name)!;
const textOf = (result: ToolResult) => result.content.map((c) => c.text).join('\n');

describe('the declarations', () => {
  it('are the MCP registry’s listings (regenerate webmcp-tools.json from webMcpListings() when this fails)', () => {
    expect(declared).toEqual(webMcpListings());
  });

  it('match what tools/list says of the same tools, schema and description', async () => {
    const res = await site('/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    const listed = ((await res.json()) as { result: { tools: { name: string; description: string; inputSchema: object }[] } }).result.tools;
    for (const t of webMcpTools(site)) {
      const same = listed.find((l) => l.name === t.name)!;
      expect([t.description, t.inputSchema], t.name).toEqual([same.description, same.inputSchema]);
      expect(t.annotations).toEqual({ readOnlyHint: true });
    }
  });
});

describe('search_articles', () => {
  it('answers a query with the MCP tool’s result', async () => {
    const result = await tool('search_articles').execute({ query: 'rag' });
    expect(result.isError ?? false).toBe(false);
    const { results } = result.structuredContent as { results: { slug: string }[] };
    expect(results.length).toBeGreaterThan(0);
  });

  it.each<[string, unknown, string]>([
    ['no query', {}, 'query'],
    ['a blank query', { query: '' }, 'query must not be blank'],
    ['a query that is not a string', { query: 123 }, 'query must be a string'],
    ['an overlong query', { query: 'x'.repeat(100_000) }, 'query must be at most 200 characters'],
    ['a limit out of range', { query: 'rag', limit: 1e9 }, 'limit must be a whole number from 1 to 50'],
    ['an unknown argument', { query: 'rag', page: 2 }, 'page'],
    ['null', null, 'query'],
    ['an array', ['rag'], "Invalid arguments: expected an object of the tool's input schema, not an array"],
    // A bare string was told the protocol's words ("tools/call needs ...") rather than the tool's (recheck s9, 4).
    ['a bare string', 'RAG', "Invalid arguments: expected an object of the tool's input schema, not string"],
  ])('%s: a tool error saying what is wrong', async (_name, input, words) => {
    const result = await tool('search_articles').execute(input);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(words);
  });
});

describe('get_article', () => {
  it.each<[string, unknown, string]>([
    ['no slug', {}, 'slug'],
    ['null', null, 'slug'],
    ['a slug that is not a string', { slug: 5 }, 'slug'],
    ['an unknown slug', { slug: 'no-such-article' }, 'no-such-article'],
  ])('%s: a tool error saying what is wrong', async (_name, input, words) => {
    const result = await tool('get_article').execute(input);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(words);
  });
});

describe('when the site fails', () => {
  const answering =
    (res: () => Response): SiteFetch =>
    async () =>
      res();
  it.each<[string, SiteFetch, string]>([
    [
      'a problem (429 from a limit in front)',
      answering(() =>
        Response.json(
          { type: 'about:blank', title: 'Too Many Requests', status: 429, detail: 'Too many requests. Retry after 3 s.' },
          { status: 429, headers: { 'content-type': 'application/problem+json' } },
        ),
      ),
      'Too many requests. Retry after 3 s.',
    ],
    [
      'a JSON-RPC error (the read limit)',
      answering(() =>
        Response.json({ jsonrpc: '2.0', id: 1, error: { code: -32029, message: 'Too many requests from your network.' } }, { status: 429 }),
      ),
      'Too many requests from your network.',
    ],
    [
      'a plain 413 of the platform',
      answering(() => new Response('Payload Too Large', { status: 413, statusText: 'Payload Too Large' })),
      'HTTP 413',
    ],
    ['a 200 that is not JSON', answering(() => new Response('<html>', { status: 200 })), 'HTTP 200'],
    [
      'no answer at all',
      async () => {
        throw new TypeError('Failed to fetch');
      },
      'could not be reached: Failed to fetch',
    ],
  ])('%s: a tool error with its words, never a throw or a success', async (_name, siteFetch, words) => {
    for (const name of ['search_articles', 'get_article']) {
      const result = await tool(name, siteFetch).execute({ query: 'rag', slug: 'x' });
      expect(result.isError, name).toBe(true);
      expect(textOf(result), name).toContain(words);
    }
  });
});
