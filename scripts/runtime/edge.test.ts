/** `context.next()` semantics of the in-process edge runner, as Netlify's Deno bootstrap has them. */
import { describe, expect, it, vi } from 'vitest';
import { runEdgeFunction, type EdgeHandler } from './edge.ts';

/** These functions hand nothing to waitUntil. */
const noWaiting = (): void => undefined;

type Next = (input?: Request | { sendConditionalRequest?: boolean }, options?: { sendConditionalRequest?: boolean }) => Promise<Response>;
const nextOf = (context: object): Next => (context as { next: Next }).next;

function originSpy() {
  const seen: Request[] = [];
  const origin = vi.fn(async (request: Request) => {
    seen.push(request);
    return new Response(`origin ${new URL(request.url).pathname}`);
  });
  return { origin, seen };
}

const request = (headers: Record<string, string> = {}): Request =>
  new Request('http://localhost/page', { headers: { 'if-none-match': '"a"', 'x-nf-client-connection-ip': '9.9.9.9', ...headers } });

describe('runEdgeFunction', () => {
  it('hides x-nf-* headers from the function and drops conditional headers on next() unless asked', async () => {
    const { origin, seen } = originSpy();
    let sawInternal: string | null = 'unset';
    const handler: EdgeHandler = async (req, context) => {
      sawInternal = req.headers.get('x-nf-client-connection-ip');
      return nextOf(context)();
    };
    await runEdgeFunction('t', handler, request(), origin, '127.0.0.1', noWaiting);
    expect(sawInternal).toBeNull();
    expect(seen[0]!.headers.get('if-none-match')).toBeNull();

    await runEdgeFunction(
      't',
      (_req, context) => nextOf(context)({ sendConditionalRequest: true }),
      request(),
      origin,
      '127.0.0.1',
      noWaiting,
    );
    expect(seen[1]!.headers.get('if-none-match')).toBe('"a"');
  });

  it('a Request passed to next() replaces the URL, on the same origin only', async () => {
    const { origin, seen } = originSpy();
    const res = await runEdgeFunction(
      't',
      (req, context) => nextOf(context)(new Request(new URL('/page.md', req.url), { headers: req.headers })),
      request(),
      origin,
      '127.0.0.1',
      noWaiting,
    );
    expect(await res.text()).toBe('origin /page.md');
    expect(seen[0]!.url).toBe('http://localhost/page.md');

    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const refused = await runEdgeFunction(
      't',
      (_req, context) => nextOf(context)(new Request('http://evil.example/x')),
      request(),
      origin,
      '127.0.0.1',
      noWaiting,
    );
    errors.mockRestore();
    expect(refused.status).toBe(500);
    expect(seen).toHaveLength(1);
  });

  it('returning undefined passes the request on', async () => {
    const { origin, seen } = originSpy();
    const res = await runEdgeFunction('t', () => undefined, request(), origin, '127.0.0.1', noWaiting);
    expect(await res.text()).toBe('origin /page');
    expect(seen[0]!.headers.get('if-none-match')).toBe('"a"');
    expect(seen[0]!.headers.get('x-nf-client-connection-ip')).toBeNull();
  });
});
