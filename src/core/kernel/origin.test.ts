import { describe, expect, it } from 'vitest';
import { isLoopbackOrigin, normalizeOrigin, resolveOrigin } from './origin.ts';

describe('resolveOrigin', () => {
  it.each([
    [{}, 'http://localhost:8888'],
    [{ PORT: '4000' }, 'http://localhost:4000'],
    [{ URL: 'https://acme.example/', PORT: '4000' }, 'https://acme.example'],
    [
      { URL: 'https://acme.example', DEPLOY_PRIME_URL: 'https://preview--acme.netlify.app', CONTEXT: 'deploy-preview' },
      'https://preview--acme.netlify.app',
    ],
    [{ URL: 'https://acme.example', DEPLOY_PRIME_URL: 'https://main--acme.netlify.app', CONTEXT: 'production' }, 'https://acme.example'],
    [{ SITE_URL: 'https://override.example/path', URL: 'https://acme.example' }, 'https://override.example'],
    [{ DEPLOY_PRIME_URL: 'https://branch--acme.netlify.app', CONTEXT: 'branch-deploy', PORT: '1' }, 'https://branch--acme.netlify.app'],
    [{ DEPLOY_PRIME_URL: 'https://branch--acme.netlify.app', PORT: '5000' }, 'http://localhost:5000'],
    [{ SITE_URL: '', URL: 'https://acme.example' }, 'https://acme.example'],
  ])('%j -> %s', (env, expected) => {
    expect(resolveOrigin(env)).toBe(expected);
  });

  it('rejects non-http origins and garbage', () => {
    expect(() => normalizeOrigin('ftp://x.example')).toThrow(/http or https/);
    expect(() => normalizeOrigin('not a url')).toThrow(/not a URL/);
  });
});

describe('isLoopbackOrigin', () => {
  it.each([
    ['http://localhost:8888', true],
    ['https://127.0.0.1', true],
    ['http://[::1]:9000/x', true],
    ['http://localhost.example', false],
    ['https://site.example', false],
    ['ftp://localhost', false],
    ['null', false],
  ])('%s: %s', (origin, loopback) => expect(isLoopbackOrigin(origin)).toBe(loopback));

  it('normalizeOrigin drops the path and says why it refuses', () => {
    expect(normalizeOrigin('https://a.example/x?y#z')).toBe('https://a.example');
    expect(() => normalizeOrigin('ftp://x.example')).toThrow('Site origin "ftp://x.example" must use http or https');
    expect(() => normalizeOrigin('nope')).toThrow('Site origin "nope" is not a URL');
  });
});
