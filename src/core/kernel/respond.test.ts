/** The request and response helpers of `/api/*`: bodies read within their limit, methods, media types, fields. */
import { describe, expect, it } from 'vitest';
import type { HttpProblem } from './problem.ts';
import { json, mediaTypeOf, readBody, readBodyText, readFields, requireMethod, wrongMethodFor } from './respond.ts';

const post = (body: BodyInit | null, headers: Record<string, string> = {}) =>
  new Request('https://site.example/api/x', {
    method: 'POST',
    headers,
    body,
    ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit);

function streamOf(...chunks: string[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
      controller.close();
    },
  });
}

import { PUBLIC_API_CORS, preflightResponse } from './cors.ts';

describe('json and preflight', () => {
  it('json: the body as JSON with its type, a status and headers', async () => {
    const res = json({ a: 1 }, { status: 201, headers: { etag: '"1"' } });
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('etag')).toBe('"1"');
    expect(await res.json()).toEqual({ a: 1 });
    expect(json([]).status).toBe(200);
  });

  it('preflight: 204 with the given headers; the public API allows GET and HEAD from anywhere', async () => {
    const res = preflightResponse(PUBLIC_API_CORS);
    expect(res.status).toBe(204);
    expect(Object.fromEntries(res.headers)).toEqual({
      'access-control-allow-origin': '*',
      'access-control-expose-headers': 'ETag, Retry-After',
      'access-control-allow-methods': 'GET, HEAD, OPTIONS',
      'access-control-allow-headers': 'Accept, Content-Type, If-None-Match',
      'access-control-max-age': '86400',
    });
  });
});

describe('requireMethod', () => {
  const methodOf = (method: string, allowed: string[]) => {
    try {
      requireMethod(new Request('https://site.example/', { method }), allowed);
      return null;
    } catch (error) {
      return error as HttpProblem;
    }
  };

  it('HEAD is allowed wherever GET is; the 405 names the methods with HEAD and OPTIONS', () => {
    expect(methodOf('GET', ['GET'])).toBeNull();
    expect(methodOf('HEAD', ['GET'])).toBeNull();
    expect(methodOf('POST', ['POST'])).toBeNull();
    const refused = methodOf('DELETE', ['GET']);
    expect(refused).toMatchObject({ status: 405, headers: { allow: 'GET, HEAD, OPTIONS' } });
    expect(methodOf('HEAD', ['POST'])).toMatchObject({ status: 405, headers: { allow: 'POST, OPTIONS' } });
    expect(wrongMethodFor(['GET', 'HEAD']).headers.allow).toBe('GET, HEAD, OPTIONS');
  });
});

describe('readBody', () => {
  it('reads UTF-8 text up to the limit, counting bytes', async () => {
    expect(await readBody(post('héllo'), 6)).toEqual({ ok: true, text: 'héllo' });
    expect(await readBody(post('héllo'), 5)).toEqual({ ok: false, problem: 'too-large' });
    expect(await readBody(new Request('https://site.example/'), 5)).toEqual({ ok: true, text: '' });
  });

  it('refuses by Content-Length before reading, and by actual size whatever it claims', async () => {
    expect(await readBody(post('x', { 'content-length': '100' }), 10)).toEqual({ ok: false, problem: 'too-large' });
    expect(await readBody(post(streamOf('12345', '67890', 'x')), 10)).toEqual({ ok: false, problem: 'too-large' });
    expect(await readBody(post(streamOf('12345', '67890')), 10)).toEqual({ ok: true, text: '1234567890' });
  });

  it('joins chunks in order, a character split across them included', async () => {
    const bytes = new TextEncoder().encode('aé');
    const split = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, 2));
        controller.enqueue(bytes.slice(2));
        controller.close();
      },
    });
    expect(await readBody(post(split), 10)).toEqual({ ok: true, text: 'aé' });
  });

  it('refuses bytes that are not UTF-8', async () => {
    expect(await readBody(post(new Uint8Array([0x61, 0xff])), 10)).toEqual({ ok: false, problem: 'not-utf8' });
  });

  it('does not read a content-coded body: it names the coding (identity is no coding)', async () => {
    expect(await readBody(post('x', { 'content-encoding': 'gzip' }), 10)).toEqual({ ok: false, problem: 'encoded', coding: 'gzip' });
    expect(await readBody(post('x', { 'content-encoding': 'identity, BR' }), 10)).toEqual({ ok: false, problem: 'encoded', coding: 'br' });
    expect(await readBody(post('x', { 'content-encoding': 'identity' }), 10)).toEqual({ ok: true, text: 'x' });
  });

  it('readBodyText and readFields: 415 problem for a content coding, with Accept-Encoding: identity', async () => {
    for (const read of [
      readBodyText(post('x', { 'content-encoding': 'gzip' }), 10),
      readFields(post('{}', { 'content-type': 'application/json', 'content-encoding': 'gzip' }), 10),
    ])
      await expect(read).rejects.toMatchObject({
        status: 415,
        message: 'Content-Encoding gzip is not supported: send the body without a content coding (identity).',
        headers: { 'accept-encoding': 'identity' },
      });
  });

  it('readBodyText: 413 and 400 problems', async () => {
    await expect(readBodyText(post('x'.repeat(11)), 10)).rejects.toMatchObject({
      status: 413,
      message: 'The request body must be at most 10 bytes.',
    });
    await expect(readBodyText(post(new Uint8Array([0xff])), 10)).rejects.toMatchObject({
      status: 400,
      message: 'The request body is not valid UTF-8.',
    });
    expect(await readBodyText(post('ok'), 10)).toBe('ok');
  });
});

describe('mediaTypeOf', () => {
  it.each([
    [{ 'content-type': 'Application/JSON; charset=utf-8' }, 'application/json'],
    [{ 'content-type': ' text/plain ' }, 'text/plain'],
    [{}, ''],
  ])('%j -> %s', (headers, type) => expect(mediaTypeOf(new Request('https://site.example/', { headers }))).toBe(type));
});

describe('readFields', () => {
  it('reads a JSON object or a form', async () => {
    expect(await readFields(post('{"a":1,"b":"x"}', { 'content-type': 'application/json' }), 100)).toEqual({
      fields: { a: 1, b: 'x' },
      form: false,
    });
    expect(await readFields(post('a=1&b=x+y', { 'content-type': 'application/x-www-form-urlencoded' }), 100)).toEqual({
      fields: { a: '1', b: 'x y' },
      form: true,
    });
  });

  it('refuses a form that repeats a field or breaks its percent-encoding (URLSearchParams would keep the last, or U+FFFD)', async () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const repeated = await readFields(post('page=%2Fa%2F&kind=wrong&page=%2Fb%2F&kind=missing', form), 200).catch(
      (error: unknown) => error,
    );
    expect(repeated).toMatchObject({
      status: 400,
      message: 'Give each field once: page, kind are repeated.',
      extensions: {
        invalid_params: [
          { name: 'page', reason: 'page is repeated' },
          { name: 'kind', reason: 'kind is repeated' },
        ],
      },
    });
    const broken = await readFields(post('text=%E4%B8', form), 200).catch((error: unknown) => error);
    expect(broken).toMatchObject({ status: 400, message: 'The form body is not valid percent-encoded UTF-8.' });
    expect(await readFields(post('text=%E4%B8%AD+a', form), 200)).toEqual({ fields: { text: '中 a' }, form: true });
  });

  it.each([
    ['text/plain', 'x', 415, 'Send the body as application/json or application/x-www-form-urlencoded.'],
    ['application/json', '{', 400, 'The request body is not valid JSON.'],
    [
      'application/json',
      `${'['.repeat(65)}${']'.repeat(65)}`,
      400,
      'The request body is refused: the JSON nests arrays and objects more than 64 levels deep.',
    ],
    ['application/json', '[1]', 400, 'The JSON body must be an object.'],
    ['application/json', 'null', 400, 'The JSON body must be an object.'],
    ['application/json', '"x"', 400, 'The JSON body must be an object.'],
    ['application/json', 'x'.repeat(201), 413, 'The request body must be at most 200 bytes.'],
  ])('%s %j: %i', async (type, body, status, message) => {
    const refused = await readFields(post(body, { 'content-type': type }), 200).catch((error: unknown) => error);
    expect(refused).toMatchObject({ status, message });
    if (status === 415) expect((refused as HttpProblem).headers['accept-post']).toBe('application/json, application/x-www-form-urlencoded');
  });
});
