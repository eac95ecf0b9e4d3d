import { describe, expect, it } from 'vitest';
import { UNAVAILABLE_JSONRPC_CODE, unavailable } from './unavailable.ts';

const DETAIL = 'No build to serve: run `npm run build`.';
const ask = (path: string, init: RequestInit = {}): Promise<Response> => unavailable(new Request(`http://localhost${path}`, init), DETAIL);

describe('the 503 of a runtime without a build to serve (stranger s10b, finding 5)', () => {
  it('answers each endpoint in its own error format, saying why, with Retry-After and no-store', async () => {
    const api = await ask('/api/search?q=x');
    expect(api.status).toBe(503);
    expect(api.headers.get('content-type')).toBe('application/problem+json');
    expect(await api.json()).toEqual({ type: 'about:blank', title: 'Service Unavailable', status: 503, detail: DETAIL });
    expect(api.headers.get('retry-after')).toBe('30');
    expect(api.headers.get('cache-control')).toBe('no-store');

    const mcp = await ask('/mcp', { method: 'POST', body: '{}' });
    expect(mcp.headers.get('content-type')).toBe('application/json');
    expect(await mcp.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: UNAVAILABLE_JSONRPC_CODE, message: DETAIL } });
    expect(((await (await ask('/a2a', { method: 'POST', body: '{}' })).json()) as { error: { code: number } }).error.code).toBe(
      UNAVAILABLE_JSONRPC_CODE,
    );

    expect(await (await ask('/oauth/token', { method: 'POST', body: 'grant_type=client_credentials' })).json()).toEqual({
      error: 'temporarily_unavailable',
      error_description: DETAIL,
    });

    const twin = await ask('/blog/a', { headers: { accept: 'text/markdown' } });
    expect(twin.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(await twin.text()).toBe(`# Service unavailable\n\n${DETAIL}\n`);
    expect(await (await ask('/blog/a.md')).text()).toContain(DETAIL);

    const page = await ask('/blog/a');
    expect(page.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await page.text()).toBe(`${DETAIL}\n`);
    expect((await ask('/mcpx')).headers.get('content-type')).toBe('text/plain; charset=utf-8');
  });

  it('sends no body to HEAD', async () => {
    const head = await ask('/api/search', { method: 'HEAD' });
    expect(head.status).toBe(503);
    expect(await head.text()).toBe('');
  });

  it("echoes a JSON-RPC request's id, as the endpoint would (recheck N2); null for a batch or an unreadable body", async () => {
    const idOf = async (body: string): Promise<unknown> =>
      ((await (await ask('/mcp', { method: 'POST', body, headers: { 'content-type': 'application/json' } })).json()) as { id: unknown }).id;
    expect(await idOf('{"jsonrpc":"2.0","id":7,"method":"tools/list"}')).toBe(7);
    expect(await idOf('{"jsonrpc":"2.0","id":"abc","method":"tools/list"}')).toBe('abc');
    expect(await idOf('[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]')).toBeNull();
    expect(await idOf('not json')).toBeNull();
  });
});
