/** CORS answers from real Requests: which origin is allowed, what a page may read, and what caches must key on. */
import { edge } from './handler.ts';
import { describe, expect, it } from 'vitest';
import {
  allowances,
  CORS_PREFLIGHT_MAX_AGE_SECONDS,
  corsHeaders,
  type CorsPolicy,
  OAUTH_CORS,
  PUBLIC_API_CORS,
  PUBLIC_DOCUMENT_CORS,
  preflightHeaders,
  preflightResponse,
} from './cors.ts';

const POLICY: CorsPolicy = { methods: ['GET', 'POST'], allowHeaders: ['Authorization', 'Content-Type'], exposeHeaders: ['ETag', 'Link'] };
const APP = 'https://app.example';

describe('corsHeaders', () => {
  it('an echoed origin varies by Origin, so a shared cache never hands one site the answer meant for another', () => {
    expect(corsHeaders(POLICY, APP)).toEqual({
      'access-control-allow-origin': APP,
      'access-control-expose-headers': 'ETag, Link',
      vary: 'Origin',
    });
  });

  it('"*" is the same for every site: no Vary', () => {
    expect(corsHeaders(POLICY)).toEqual({ 'access-control-allow-origin': '*', 'access-control-expose-headers': 'ETag, Link' });
    expect(corsHeaders(POLICY, '*')).toEqual(corsHeaders(POLICY));
  });

  it('no Origin header: nothing added', () => {
    expect(corsHeaders(POLICY, null)).toEqual({});
  });

  it('a policy exposing nothing sends no expose header', () => {
    expect(corsHeaders({ methods: ['GET'], allowHeaders: [] }, APP)).toEqual({ 'access-control-allow-origin': APP, vary: 'Origin' });
    expect(corsHeaders({ methods: ['GET'], allowHeaders: [], exposeHeaders: [] })).toEqual({ 'access-control-allow-origin': '*' });
  });
});

describe('preflights', () => {
  it('allow the policy methods plus OPTIONS, its request headers, cached for a day', () => {
    expect(allowances(POLICY)).toEqual({
      'access-control-allow-methods': 'GET, POST, OPTIONS',
      'access-control-allow-headers': 'Authorization, Content-Type',
    });
    expect(CORS_PREFLIGHT_MAX_AGE_SECONDS).toBe(86_400);
    expect(preflightHeaders(POLICY, APP)).toEqual({
      ...corsHeaders(POLICY, APP),
      ...allowances(POLICY),
      'access-control-max-age': '86400',
    });
    expect(preflightHeaders(POLICY)['access-control-allow-origin']).toBe('*');
  });

  it('answer 204 without a body, with extra headers when asked', async () => {
    const res = preflightResponse(POLICY, APP, { allow: 'GET, POST' });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect(res.headers.get('vary')).toBe('Origin');
    expect(res.headers.get('allow')).toBe('GET, POST');
    expect(res.headers.get('access-control-max-age')).toBe('86400');
    expect(preflightResponse(POLICY).headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('the edge with a CORS policy (kernel/handler.ts edge)', () => {
  it('answers OPTIONS itself: the handler never runs', async () => {
    let ran = false;
    const res = await edge(
      async () => {
        ran = true;
        return new Response('x');
      },
      { cors: POLICY },
    )(new Request('https://site.example/x', { method: 'OPTIONS' }));
    expect(ran).toBe(false);
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, POST, OPTIONS');
  });

  it('adds the headers to the handler answer and keeps its status, text, headers and body', async () => {
    const res = await edge(
      async () =>
        Response.json({ a: 1 }, { status: 201, statusText: 'Made', headers: { etag: '"1"', 'access-control-allow-origin': 'https://x' } }),
      { cors: POLICY },
    )(new Request('https://site.example/x', { method: 'POST' }));
    expect(res.status).toBe(201);
    expect(res.statusText).toBe('Made');
    expect(res.headers.get('etag')).toBe('"1"');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-expose-headers')).toBe('ETag, Link');
    expect(res.headers.get('access-control-allow-methods')).toBeNull();
    expect(await res.json()).toEqual({ a: 1 });
  });
});

describe('the policies', () => {
  it('let pages read what each family sends them', () => {
    expect(allowances(PUBLIC_API_CORS)).toEqual({
      'access-control-allow-methods': 'GET, HEAD, OPTIONS',
      'access-control-allow-headers': 'Accept, Content-Type, If-None-Match',
    });
    expect(corsHeaders(PUBLIC_API_CORS)['access-control-expose-headers']).toBe('ETag, Retry-After');
    expect(allowances(PUBLIC_DOCUMENT_CORS)).toEqual({
      'access-control-allow-methods': 'GET, HEAD, OPTIONS',
      'access-control-allow-headers': 'A2A-Version, Content-Type, If-None-Match',
    });
    expect(corsHeaders(PUBLIC_DOCUMENT_CORS)['access-control-expose-headers']).toBe('ETag, Link');
    expect(allowances(OAUTH_CORS)).toEqual({
      'access-control-allow-methods': 'POST, OPTIONS',
      'access-control-allow-headers': 'Authorization, Content-Type',
    });
    expect(corsHeaders(OAUTH_CORS)['access-control-expose-headers']).toBe('WWW-Authenticate, Retry-After');
  });
});
