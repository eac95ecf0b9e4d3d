/**
 * WebMCP in real Chromium: every page registers `search_articles` and `get_article` with the
 * browser's model context (docs/reference/agent-discovery.md §2.15), and their execute functions reach
 * the live site's /mcp (the in-process cases, failures included, are src/browser/webmcp-tools.test.ts).
 * Chromium has no model context yet, so a stub installed before any page script records what the page
 * registers: one at `navigator.modelContext` (earlier Chrome builds), and one at
 * `document.modelContext` that behaves as the W3C draft says (`registerTool(tool, {signal})`
 * returns a promise; aborting the signal unregisters the tool and rejects the promise). The script uses
 * relative URLs, so any free port works here
 * (site.browser.test.ts holds the test origin's port).
 */
import { readFileSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, startRuntime, type LocalRuntime } from '../../scripts/runtime/index.ts';
import { launchBrowser } from '../support/browser.ts';
import { testBlobsDir } from '../support/runtime.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const catalog = JSON.parse(readFileSync(path.join(ROOT, 'generated', 'data', 'catalog.json'), 'utf8')) as {
  articles: { slug: string; path: string; title: string; lang: string }[];
};
const article = catalog.articles.find((a) => a.lang === 'en') ?? catalog.articles[0]!;

/** Installed before page scripts: a model context that keeps every registered tool. */
function installStub(): void {
  const registered: unknown[] = [];
  Object.defineProperty(window, '__webmcpTools', { value: registered });
  Object.defineProperty(navigator, 'modelContext', {
    value: { registerTool: (tool: unknown) => void registered.push(tool) },
    configurable: true,
  });
}

let runtime: LocalRuntime;
let server: Server;
let base: string;
let browser: Browser;

beforeAll(async () => {
  runtime = await startRuntime({ blobsDir: testBlobsDir() });
  ({ server, url: base } = await serve(runtime, 0));
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close(); // and the pages opened with the stub
  if (server) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  await runtime?.stop();
  if (runtime) rmSync(runtime.blobsDir, { recursive: true, force: true });
});

/** Pages opened with the stub, by path: the tests that only read and call the tools share one page per path. */
const withStub = new Map<string, Promise<Page>>();

function openWithStub(pathname: string): Promise<Page> {
  let opened = withStub.get(pathname);
  if (!opened) {
    opened = (async () => {
      const page = await browser.newPage();
      await page.addInitScript(installStub);
      const response = await page.goto(new URL(pathname, base).href, { waitUntil: 'load' });
      expect(response?.status()).toBe(200);
      await page.waitForFunction(() => (window as unknown as { __webmcpTools: unknown[] }).__webmcpTools.length >= 2);
      return page;
    })();
    withStub.set(pathname, opened);
  }
  return opened;
}

/** What the page registered, without the functions (which do not cross into Node). */
function listRegistered(page: Page) {
  return page.evaluate(() =>
    (
      window as unknown as { __webmcpTools: { name: string; description: string; inputSchema: unknown; execute: unknown }[] }
    ).__webmcpTools.map((t) => ({
      name: t.name,
      description: t.description,
      inputSchema: t.inputSchema,
      executable: typeof t.execute === 'function',
    })),
  );
}

/** What our WebMCP tools return: an MCP CallToolResult (the fields these tests read). */
interface ToolResult {
  content: { type: string; text: string }[];
  structuredContent?: { slug: string; markdown: string };
  isError?: boolean;
}

function execute(page: Page, name: string, input: Record<string, string>) {
  return page.evaluate(
    async ({ name, input }) => {
      const tools = (window as unknown as { __webmcpTools: { name: string; execute(i: unknown): Promise<ToolResult> }[] }).__webmcpTools;
      return tools.find((t) => t.name === name)!.execute(input);
    },
    { name, input },
  );
}

describe('WebMCP tools', () => {
  it.each(['/', article.path])('%s registers search_articles and get_article with name, description and inputSchema', async (pathname) => {
    const page = await openWithStub(pathname);
    const tools = await listRegistered(page);
    expect(tools.map((t) => t.name)).toEqual(['search_articles', 'get_article']);
    for (const tool of tools) {
      expect(tool.description.length).toBeGreaterThan(20);
      expect(tool.inputSchema).toMatchObject({ type: 'object', required: [expect.any(String)] });
      expect(tool.executable).toBe(true);
    }
  });

  it('search_articles returns real results through /mcp, as the MCP tool of that name', async () => {
    const page = await openWithStub('/');
    const result = await execute(page, 'search_articles', { query: article.title });
    expect(result.isError ?? false).toBe(false);
    expect(result.content[0]!.type).toBe('text');
    const { results } = result.structuredContent as unknown as { results: { slug: string }[] };
    expect(results.map((h) => h.slug)).toContain(article.slug);
  });

  it('every tool answers bad input and failures with isError and what is wrong, never a success or a throw', async () => {
    const page = await openWithStub('/');
    const cases: [string, unknown, string][] = [
      ['search_articles', {}, 'query'],
      ['search_articles', { query: '' }, 'query must not be blank'],
      ['search_articles', { query: 123 }, 'query must be a string'],
      ['search_articles', { query: 'x'.repeat(100_000) }, 'query must be at most'],
      ['search_articles', null, 'query'],
      ['get_article', {}, 'slug'],
      ['get_article', null, 'slug'],
      ['get_article', { slug: 'a'.repeat(5000) }, 'slug'],
    ];
    for (const [name, input, words] of cases) {
      const result = await page.evaluate(
        async ({ name, input }) => {
          const tools = (window as unknown as { __webmcpTools: { name: string; execute(i: unknown): Promise<ToolResult> }[] })
            .__webmcpTools;
          try {
            return await tools.find((t) => t.name === name)!.execute(input);
          } catch (error) {
            return { thrown: String(error) };
          }
        },
        { name, input },
      );
      const label = `${name} ${JSON.stringify(input)?.slice(0, 30)}`;
      expect(result, label).toMatchObject({ isError: true });
      expect((result as ToolResult).content.map((c) => c.text).join(' '), label).toContain(words);
    }
  });

  it("get_article returns the article's markdown through /mcp; an unknown slug is a tool error", async () => {
    const page = await openWithStub(article.path);
    const result = await execute(page, 'get_article', { slug: article.slug });
    expect(result.isError ?? false).toBe(false);
    const twin = await (await fetch(new URL(`${article.path}.md`, base))).text();
    expect(result.structuredContent!.slug).toBe(article.slug);
    expect(twin).toContain(
      result
        .structuredContent!.markdown.trim()
        .split('\n')
        .find((line: string) => line.trim().length > 20),
    );
    const missing = await execute(page, 'get_article', { slug: 'no-such-article' });
    expect(missing.isError).toBe(true);
  });

  it('registers on document.modelContext with an AbortSignal, unregisters on pagehide and registers again on a back/forward-cache restore', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.addInitScript(() => {
      // The draft's semantics (webmachinelearning/webmcp index.bs, "registerTool" method steps).
      const tools = new Map<string, unknown>();
      const log = { registered: 0, rejected: [] as string[] };
      Object.defineProperty(window, '__draft', { value: { tools, log } });
      const modelContext = {
        registerTool(tool: { name: string }, options: { signal?: AbortSignal } = {}): Promise<undefined> {
          if (tools.has(tool.name)) {
            log.rejected.push(`duplicate ${tool.name}`);
            return Promise.reject(new DOMException('duplicate', 'InvalidStateError'));
          }
          const { signal } = options;
          if (signal?.aborted) return Promise.reject(signal.reason);
          log.registered++;
          tools.set(tool.name, tool);
          return new Promise((_resolve, reject) => {
            signal?.addEventListener('abort', () => {
              tools.delete(tool.name);
              reject(signal.reason);
            });
            if (!signal) log.rejected.push(`no signal for ${tool.name}`);
          });
        },
      };
      Object.defineProperty(document, 'modelContext', { value: modelContext });
      // The same object at both places must not register twice.
      Object.defineProperty(navigator, 'modelContext', { value: modelContext });
    });
    await page.goto(new URL('/', base).href, { waitUntil: 'load' });
    const state = () =>
      page.evaluate(() => {
        const draft = (window as unknown as { __draft: { tools: Map<string, unknown>; log: { registered: number; rejected: string[] } } })
          .__draft;
        return { tools: [...draft.tools.keys()], registered: draft.log.registered, rejected: draft.log.rejected };
      });
    await page.waitForFunction(() => (window as unknown as { __draft: { tools: Map<string, unknown> } }).__draft.tools.size === 2);
    expect(await state()).toEqual({ tools: ['search_articles', 'get_article'], registered: 2, rejected: [] });

    await page.evaluate(() => dispatchEvent(new PageTransitionEvent('pagehide', { persisted: true })));
    expect(await state()).toEqual({ tools: [], registered: 2, rejected: [] });

    await page.evaluate(() => dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true })));
    expect(await state()).toEqual({ tools: ['search_articles', 'get_article'], registered: 4, rejected: [] });
    // A first-load pageshow (persisted: false) does not register a second time.
    await page.evaluate(() => dispatchEvent(new PageTransitionEvent('pageshow', { persisted: false })));
    expect((await state()).rejected).toEqual([]);
    expect(errors).toEqual([]); // the promises rejected by unregistration are handled
    await page.close();
  });

  it('registers through provideContext when registerTool is absent, and does nothing without a model context', async () => {
    const page = await browser.newPage();
    await page.addInitScript(() => {
      const seen: string[][] = [];
      Object.defineProperty(window, '__provided', { value: seen });
      Object.defineProperty(document, 'modelContext', {
        value: { provideContext: (c: { tools: { name: string }[] }) => void seen.push(c.tools.map((t) => t.name)) },
      });
    });
    await page.goto(new URL('/', base).href, { waitUntil: 'load' });
    await page.waitForFunction(() => (window as unknown as { __provided: unknown[] }).__provided.length > 0);
    expect(await page.evaluate(() => (window as unknown as { __provided: string[][] }).__provided)).toEqual([
      ['search_articles', 'get_article'],
    ]);
    const errors: string[] = [];
    const plain = await browser.newPage();
    plain.on('pageerror', (e) => errors.push(e.message));
    await plain.goto(new URL('/', base).href, { waitUntil: 'load' });
    expect(errors).toEqual([]);
    await Promise.all([page.close(), plain.close()]);
  });
});
