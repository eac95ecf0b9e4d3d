import { describe, expect, it } from 'vitest';
import { UNAVAILABLE_JSONRPC_CODE, unavailable } from './unavailable.ts';

const DETAIL = 'No build to serve: run `npm run build`.';
const ask = (path: string, init: RequestInit = {}): Response => unavailable(new Request(`http://localhost${path}`, init), DETAIL);

describe('the 503 of a runtime without a build to serve (stranger s10b, finding 5)', () => {
  it('answers each endpoint in its own error format, saying why, with Retry-After and no-store', async () => {
    const api = ask('/api/search?q=x');
    expect(api.status).toBe(503);
    expect(api.headers.get('content-type')).toBe('application/problem+json');
    expect(await api.json()).toEqual({ type: 'about:blank', title: 'Service Unavailable', status: 503, detail: DETAIL });
    expect(api.headers.get('retry-after')).toBe('30');
    expect(api.headers.get('cache-control')).toBe('no-store');

    const mcp = ask('/mcp', { method: 'POST', body: '{}' });
    expect(mcp.headers.get('content-type')).toBe('application/json');
    expect(await mcp.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: UNAVAILABLE_JSONRPC_CODE, message: DETAIL } });
    expect(((await ask('/a2a', { method: 'POST', body: '{}' }).json()) as { error: { code: number } }).error.code).toBe(
      UNAVAILABLE_JSONRPC_CODE,
    );

    expect(await ask('/oauth/token', { method: 'POST', body: 'grant_type=client_credentials' }).json()).toEqual({
      error: 'temporarily_unavailable',
      error_description: DETAIL,
    });

    const twin = ask('/blog/a', { headers: { accept: 'text/markdown' } });
    expect(twin.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(await twin.text()).toBe(`# Service unavailable\n\n${DETAIL}\n`);
    expect(await ask('/blog/a.md').text()).toContain(DETAIL);

    const page = ask('/blog/a');
    expect(page.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await page.text()).toBe(`${DETAIL}\n`);
    expect(ask('/mcpx').headers.get('content-type')).toBe('text/plain; charset=utf-8');
  });

  it('sends no body to HEAD', async () => {
    const head = ask('/api/search', { method: 'HEAD' });
    expect(head.status).toBe(503);
    expect(await head.text()).toBe('');
  });
});
