/** RFC 9457 problems and the error mechanism every family shares. */
import { describe, expect, it } from 'vitest';
import { withErrors } from './errors.ts';
import {
  badRequest,
  forbidden,
  HttpProblem,
  internalError,
  methodNotAllowed,
  notFound,
  payloadTooLarge,
  problemBody,
  problemResponse,
  tooManyRequests,
  unsupportedMediaType,
  withProblems,
} from './problem.ts';

describe('problem factories', () => {
  it.each([
    [() => badRequest('Bad thing.'), 400, 'Bad Request', 'Bad thing.', {}, {}],
    [
      () => badRequest('Bad field.', [{ name: 'q', reason: 'too long' }]),
      400,
      'Bad Request',
      'Bad field.',
      {},
      { invalid_params: [{ name: 'q', reason: 'too long' }] },
    ],
    [() => forbidden('No.'), 403, 'Forbidden', 'No.', {}, {}],
    [() => notFound('Gone.'), 404, 'Not Found', 'Gone.', {}, {}],
    [() => methodNotAllowed(['GET', 'HEAD']), 405, 'Method Not Allowed', 'Use GET or HEAD.', { allow: 'GET, HEAD' }, {}],
    [() => payloadTooLarge(1024), 413, 'Content Too Large', 'The request body must be at most 1024 bytes.', {}, {}],
    [
      () => unsupportedMediaType(['application/json', 'text/plain']),
      415,
      'Unsupported Media Type',
      'Send the body as application/json or text/plain.',
      { 'accept-post': 'application/json, text/plain' },
      {},
    ],
    [() => tooManyRequests(30, 'Slow down.'), 429, 'Too Many Requests', 'Slow down.', { 'retry-after': '30' }, { retry_after: 30 }],
    [
      () => internalError('req-1'),
      500,
      'Internal Server Error',
      'Something went wrong on our side (request req-1).',
      {},
      { request_id: 'req-1' },
    ],
  ])('%#: %i %s', (make, status, title, detail, headers, extensions) => {
    const problem = make();
    expect(problem).toBeInstanceOf(HttpProblem);
    expect(problem).toMatchObject({ status, title, message: detail, headers, extensions, name: 'HttpProblem' });
  });
});

describe('HttpProblem', () => {
  it('carries its cause, and nothing extra by default', () => {
    const cause = new Error('inner');
    const problem = new HttpProblem(502, 'Bad Gateway', 'Upstream failed.', { cause });
    expect(problem.cause).toBe(cause);
    expect(problem).toMatchObject({ headers: {}, extensions: {}, name: 'HttpProblem' });
  });
});

describe('problemResponse', () => {
  it('writes the problem document with its status, type, no-store and the problem headers', async () => {
    const res = problemResponse(tooManyRequests(5, 'Later.'), '/api/x');
    expect(res.status).toBe(429);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('retry-after')).toBe('5');
    expect(await res.json()).toEqual({
      type: 'about:blank',
      title: 'Too Many Requests',
      status: 429,
      detail: 'Later.',
      instance: '/api/x',
      retry_after: 5,
    });
    expect(problemBody(notFound('x'))).toEqual({ type: 'about:blank', title: 'Not Found', status: 404, detail: 'x' });
  });
});

describe('withProblems and withErrors', () => {
  const req = new Request('https://site.example/api/search?q=1', { method: 'POST' });

  it('a thrown problem becomes its response, with the path as instance; nothing is logged', async () => {
    const logged: unknown[] = [];
    const res = await withProblems(
      req,
      async () => {
        throw notFound('No such thing.');
      },
      (m) => logged.push(m),
    );
    expect(res.status).toBe(404);
    expect((await res.json()).instance).toBe('/api/search');
    expect(logged).toEqual([]);
  });

  it('anything else is logged with a request id and answered 500 quoting it, without internals', async () => {
    const logged: [string, unknown][] = [];
    const boom = new Error('secret detail');
    const res = await withProblems(
      req,
      async () => {
        throw boom;
      },
      (m, e) => logged.push([m, e]),
    );
    expect(res.status).toBe(500);
    const body = await res.json();
    expect(body.detail).not.toContain('secret');
    expect(logged).toEqual([[`[${body.request_id}] POST /api/search failed`, boom]]);
  });

  it('a good answer passes through; the default log is the console', async () => {
    const ok = new Response('ok');
    expect(await withProblems(req, async () => ok)).toBe(ok);
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => errors.push(args);
    try {
      await withErrors({ known: () => null, unexpected: () => new Response(null, { status: 500 }) }, req, async () => {
        throw new Error('x');
      });
    } finally {
      console.error = original;
    }
    expect(errors).toHaveLength(1);
  });
});
