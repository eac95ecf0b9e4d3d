/** OAuth error responses (RFC 6749 §5.2): statuses by code, the body, and the headers every answer carries. */
import { describe, expect, it } from 'vitest';
import { OAuthError, oauthErrorBody, oauthErrorResponse, oauthJson, serverError, withOAuthErrors } from './errors.ts';

describe('OAuthError', () => {
  it.each([
    ['invalid_client', 401],
    ['slow_down', 429],
    ['rate_limited', 429],
    ['temporarily_unavailable', 503],
    ['invalid_request', 400],
    ['invalid_grant', 400],
    ['access_denied', 400],
  ] as const)('%s defaults to %i', (code, status) => {
    const error = new OAuthError(code, 'why');
    expect(error).toMatchObject({ code, status, message: 'why', name: 'OAuthError', headers: {} });
  });

  it('takes a status, headers and a cause', () => {
    const cause = new Error('inner');
    expect(new OAuthError('invalid_request', 'x', { status: 405, headers: { allow: 'POST' }, cause })).toMatchObject({
      status: 405,
      headers: { allow: 'POST' },
      cause,
    });
  });
});

describe('responses', () => {
  it('an error: its status, the RFC 6749 body, JSON, never cached, its own headers', async () => {
    const error = new OAuthError('slow_down', 'Poll less.', { headers: { 'retry-after': '5' } });
    expect(oauthErrorBody(error)).toEqual({ error: 'slow_down', error_description: 'Poll less.' });
    const res = oauthErrorResponse(error);
    expect(res.status).toBe(429);
    expect(Object.fromEntries(res.headers)).toEqual({
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      pragma: 'no-cache',
      'retry-after': '5',
    });
    expect(await res.json()).toEqual({ error: 'slow_down', error_description: 'Poll less.' });
  });

  it('a success: JSON, never cached, with a status and headers', async () => {
    const res = oauthJson({ a: 1 }, 201, { location: '/x' });
    expect(res.status).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('pragma')).toBe('no-cache');
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('location')).toBe('/x');
    expect(await res.json()).toEqual({ a: 1 });
    expect(oauthJson({}).status).toBe(200);
  });

  it('withOAuthErrors: an OAuthError is its response; anything else a logged 500 server_error naming the request id', async () => {
    const req = new Request('https://site.example/oauth/token', { method: 'POST' });
    const known = await withOAuthErrors(req, async () => {
      throw new OAuthError('invalid_grant', 'No.');
    });
    expect(known.status).toBe(400);
    const logged: string[] = [];
    const res = await withOAuthErrors(
      req,
      async () => {
        throw new TypeError('internal detail');
      },
      (message) => logged.push(message),
    );
    expect(res.status).toBe(500);
    const body = await res.json();
    const id = /^Unexpected error \(request ([0-9a-f-]{36})\)\.$/.exec(body.error_description)?.[1];
    expect(body.error).toBe('server_error');
    expect(logged).toEqual([`[${id}] POST /oauth/token failed`]);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(serverError('r1')).toMatchObject({ code: 'server_error', status: 500, message: 'Unexpected error (request r1).' });
  });
});
