import { describe, expect, it } from 'vitest';
import { matchRedirectUri, redirectUriProblem } from './redirect-uris.ts';

describe('matchRedirectUri', () => {
  const registered = ['https://app.example/cb', 'http://127.0.0.1:3000/cb', 'http://[::1]:3000/cb?x=1', 'http://localhost:3000/cb'];
  it.each([
    ['https://app.example/cb', 'https://app.example/cb'],
    ['http://127.0.0.1:51234/cb', 'http://127.0.0.1:51234/cb'],
    ['http://127.0.0.1/cb', 'http://127.0.0.1/cb'],
    ['http://[::1]:8080/cb?x=1', 'http://[::1]:8080/cb?x=1'],
    ['http://localhost:3000/cb', 'http://localhost:3000/cb'],
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
    // Exact except the port: no other spelling of the address, no dot-segments, no userinfo.
    'http://0x7f.1:4000/cb',
    'http://0x7f000001:4000/cb',
    'http://2130706433:4000/cb',
    'http://127.1:4000/cb',
    'http://127.0.0.01:4000/cb',
    'http://127.0.0.1:4000/x/../cb',
    'http://127.0.0.1:4000/./cb',
    'http://127.0.0.1:4000/%2e%2e/cb',
    'http://user@127.0.0.1:4000/cb',
    'http://user:pw@127.0.0.1:4000/cb',
    'http://[0:0:0:0:0:0:0:1]:4000/cb?x=1',
    'HTTP://127.0.0.1:4000/cb',
    'javascript:alert(1)',
    'not a url',
  ])('refuses %s', (asked) => expect(matchRedirectUri(registered, asked)).toBeNull());

  it('uses the only registered URI when the request names none, and refuses to guess among several', () => {
    expect(matchRedirectUri(['https://app.example/cb'], undefined)).toBe('https://app.example/cb');
    expect(matchRedirectUri(registered, undefined)).toBeNull();
    expect(matchRedirectUri([], undefined)).toBeNull();
  });

  it('a loopback URI registered without a path is matched only exactly', () => {
    expect(matchRedirectUri(['http://127.0.0.1:3000'], 'http://127.0.0.1:3000')).toBe('http://127.0.0.1:3000');
    expect(matchRedirectUri(['http://127.0.0.1:3000'], 'http://127.0.0.1:4000')).toBeNull();
    expect(matchRedirectUri(['http://127.0.0.1:3000/'], 'http://127.0.0.1:4000/')).toBe('http://127.0.0.1:4000/');
  });
});

describe('redirectUriProblem (registration)', () => {
  it.each([
    'https://app.example/cb',
    'https://app.example',
    'http://127.0.0.1:3000/cb',
    'http://localhost:33418/oauth/callback',
    'http://[::1]/cb?x=1',
  ])('accepts %s', (uri) => {
    expect(redirectUriProblem(uri)).toBeNull();
  });
  it.each([
    ['http://app.example/cb', /https/],
    ['https://app.example/cb#x', /fragment/],
    ['https://user@app.example/cb', /userinfo/],
    ['http://0x7f.1/cb', /canonical/],
    ['http://127.0.0.1/a/../cb', /canonical/],
    ['https://App.Example/cb', /canonical/],
    ['custom:/cb', /https/],
    ['ftp://localhost/cb', 'must be https, or http on a loopback address (127.0.0.1, [::1] or localhost)'],
    ['http://localhost.evil.example/cb', /https/],
    ['/relative', /canonical/],
  ])('refuses %s', (uri, why) => expect(redirectUriProblem(uri)).toMatch(why));
});
