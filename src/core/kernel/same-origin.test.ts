import { describe, expect, it } from 'vitest';
import { isCrossSiteRequest } from './same-origin.ts';

const SITE = 'https://site.example';
const post = (headers: Record<string, string>) => new Request(`${SITE}/api/contact`, { method: 'POST', headers });

describe('isCrossSiteRequest', () => {
  it.each<[string, Record<string, string>]>([
    ['no browser headers (curl, an agent)', {}],
    ['our origin', { origin: SITE }],
    ['same-origin fetch metadata', { origin: SITE, 'sec-fetch-site': 'same-origin' }],
    ['user-typed navigation', { 'sec-fetch-site': 'none' }],
  ])('lets through %s', (_name, headers) => {
    expect(isCrossSiteRequest(post(headers), SITE)).toBe(false);
  });

  it.each<[string, Record<string, string>]>([
    ['a foreign origin', { origin: 'https://evil.example' }],
    ['another port of our host', { origin: 'https://site.example:8443' }],
    ['cross-site fetch metadata', { 'sec-fetch-site': 'cross-site' }],
    ['same-site (a sibling subdomain)', { 'sec-fetch-site': 'same-site' }],
    ['Origin: null from another site', { origin: 'null', 'sec-fetch-site': 'cross-site' }],
    // An opaque origin is foreign whatever Fetch Metadata says (report s8a, finding 8: without it, null passed).
    ['Origin: null without fetch metadata (an older browser)', { origin: 'null' }],
    ['Origin: null with same-origin fetch metadata', { origin: 'null', 'sec-fetch-site': 'same-origin' }],
    ['Origin: null of a typed navigation', { origin: 'null', 'sec-fetch-site': 'none' }],
  ])('refuses %s', (_name, headers) => {
    expect(isCrossSiteRequest(post(headers), SITE)).toBe(true);
  });

  it('compares origins only (a full URL may be passed)', () => {
    expect(isCrossSiteRequest(post({ origin: SITE }), `${SITE}/api/contact?x=1`)).toBe(false);
  });
});
