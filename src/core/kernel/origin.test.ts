import { describe, expect, it } from 'vitest';
import { normalizeOrigin, resolveOrigin } from './origin.ts';

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
  ])('%j -> %s', (env, expected) => {
    expect(resolveOrigin(env)).toBe(expected);
  });

  it('rejects non-http origins and garbage', () => {
    expect(() => normalizeOrigin('ftp://x.example')).toThrow(/http or https/);
    expect(() => normalizeOrigin('not a url')).toThrow(/not a URL/);
  });
});
