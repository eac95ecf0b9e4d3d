import { describe, expect, it } from 'vitest';
import { authorizationResponseUrl, matchRedirectUri } from './authorize.ts';

describe('matchRedirectUri', () => {
  const registered = ['https://app.example/cb', 'http://127.0.0.1:3000/cb', 'http://[::1]:3000/cb?x=1', 'http://localhost:3000/cb'];
  it.each([
    ['https://app.example/cb', 'https://app.example/cb'],
    ['http://127.0.0.1:51234/cb', 'http://127.0.0.1:51234/cb'],
    ['http://127.0.0.1/cb', 'http://127.0.0.1/cb'],
    ['http://[::1]:8080/cb?x=1', 'http://[::1]:8080/cb?x=1'],
  ])('accepts %s', (asked, expected) => expect(matchRedirectUri(registered, asked)).toBe(expected));

  it.each([
    'https://app.example/cb/',
    'https://APP.example/cb',
    'https://app.example/cb?x=1',
    'https://app.example:8443/cb',
    'http://app.example/cb',
    'http://127.0.0.1:51234/other',
    'http://127.0.0.1:51234/cb#frag',
    'http://[::1]:8080/cb?x=2',
    // RFC 8252 §8.3: port variance only for IP literals, not the name "localhost".
    'http://localhost:4000/cb',
    'javascript:alert(1)',
    'not a url',
  ])('refuses %s', (asked) => expect(matchRedirectUri(registered, asked)).toBeNull());

  it('uses the only registered URI when the request names none, and refuses to guess among several', () => {
    expect(matchRedirectUri(['https://app.example/cb'], undefined)).toBe('https://app.example/cb');
    expect(matchRedirectUri(registered, undefined)).toBeNull();
    expect(matchRedirectUri([], undefined)).toBeNull();
  });
});

describe('authorizationResponseUrl', () => {
  it('keeps the redirect URI query, adds the parameters, and sets iss exactly once', () => {
    const url = new URL(authorizationResponseUrl('https://app.example/cb?tenant=7&iss=spoof', 'https://site.example', { code: 'abc', state: 's 1', error: null }));
    expect(url.searchParams.get('tenant')).toBe('7');
    expect(url.searchParams.get('code')).toBe('abc');
    expect(url.searchParams.get('state')).toBe('s 1');
    expect(url.searchParams.has('error')).toBe(false);
    expect(url.searchParams.getAll('iss')).toEqual(['https://site.example']);
  });
});
