import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DATA_CONTENT_SECURITY_POLICY, SECURITY_HEADERS, SITE_CONTENT_SECURITY_POLICY, withSecurityHeaders } from './security-headers.ts';

/** The `[headers.values]` of netlify.toml's `for = "/*"` block, names lowercased. */
function netlifyTomlSiteHeaders(): Record<string, string> {
  const toml = readFileSync(path.resolve(import.meta.dirname, '../../../netlify.toml'), 'utf8');
  const block = toml.split('[[headers]]').find((b) => /for\s*=\s*"\/\*"/.test(b));
  if (!block) throw new Error('netlify.toml has no [[headers]] for "/*"');
  return Object.fromEntries(
    [...block.matchAll(/^\s*([A-Za-z-]+)\s*=\s*"(.*)"\s*$/gm)]
      .filter(([, name]) => name !== 'for')
      .map(([, name, value]) => [name!.toLowerCase(), value!]),
  );
}

/**
 * The headers as they must read, written out here rather than imported: a change that weakens the
 * constants and netlify.toml together (shorter HSTS, an unsafe CSP source) fails this table.
 */
const EXPECTED_SITE_HEADERS: Readonly<Record<string, string>> = {
  'strict-transport-security': 'max-age=63072000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
  'cross-origin-opener-policy': 'same-origin',
  'content-security-policy':
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; style-src-attr 'unsafe-inline'; img-src 'self' data:; " +
    "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
};
const EXPECTED_DATA_CSP = "default-src 'none'; frame-ancestors 'none'";

describe('the header values themselves', () => {
  it('static files (netlify.toml) get exactly these', () => {
    expect(netlifyTomlSiteHeaders()).toEqual(EXPECTED_SITE_HEADERS);
  });

  it('pages a function answers get exactly these', async () => {
    const page = withSecurityHeaders(new Response('<p>x</p>', { headers: { 'content-type': 'text/html' } }));
    for (const [name, value] of Object.entries(EXPECTED_SITE_HEADERS)) expect(page.headers.get(name), name).toBe(value);
  });

  it('data a function answers gets the same headers with the CSP that loads nothing', () => {
    const data = withSecurityHeaders(new Response('{}', { headers: { 'content-type': 'application/json' } }));
    for (const [name, value] of Object.entries({ ...EXPECTED_SITE_HEADERS, 'content-security-policy': EXPECTED_DATA_CSP }))
      expect(data.headers.get(name), name).toBe(value);
  });

  it('HSTS lasts at least a year and covers subdomains; the site CSP allows no inline or foreign script', () => {
    const hsts = /^max-age=(\d+); includeSubDomains$/.exec(SECURITY_HEADERS['strict-transport-security']!);
    expect(Number(hsts?.[1])).toBeGreaterThanOrEqual(365 * 24 * 60 * 60);
    const scriptSrc = /(?:^|; )script-src ([^;]+)/.exec(SITE_CONTENT_SECURITY_POLICY)?.[1]?.split(' ');
    expect(scriptSrc).toEqual(["'self'", "'wasm-unsafe-eval'"]);
    expect(SITE_CONTENT_SECURITY_POLICY).not.toMatch(/'unsafe-eval'|\*|https?:/);
  });
});

describe('security headers', () => {
  it('netlify.toml gives static files exactly the headers functions get (one source)', () => {
    expect(netlifyTomlSiteHeaders()).toEqual({ ...SECURITY_HEADERS, 'content-security-policy': SITE_CONTENT_SECURITY_POLICY });
  });

  it('adds every header and the data CSP to a JSON response', async () => {
    const res = withSecurityHeaders(new Response('{"a":1}', { status: 201, headers: { 'content-type': 'application/json' } }));
    expect(res.status).toBe(201);
    expect(await res.text()).toBe('{"a":1}');
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(res.headers.get(name), name).toBe(value);
    expect(res.headers.get('content-security-policy')).toBe(DATA_CONTENT_SECURITY_POLICY);
  });

  it('gives HTML without a CSP the site CSP, and keeps a page its own CSP and Referrer-Policy', () => {
    const page = withSecurityHeaders(new Response('<p>x</p>', { headers: { 'content-type': 'text/html; charset=utf-8' } }));
    expect(page.headers.get('content-security-policy')).toBe(SITE_CONTENT_SECURITY_POLICY);
    const own = withSecurityHeaders(
      new Response('<p>x</p>', {
        headers: { 'content-type': 'text/html', 'content-security-policy': "default-src 'none'", 'referrer-policy': 'no-referrer' },
      }),
    );
    expect(own.headers.get('content-security-policy')).toBe("default-src 'none'");
    expect(own.headers.get('referrer-policy')).toBe('no-referrer');
    expect(own.headers.get('x-frame-options')).toBe('DENY');
  });

  it.each([
    ['text/html', true],
    ['TEXT/HTML; charset=utf-8', true],
    ['  text/html', true],
    ['application/xhtml+xml', true],
    ['text/htmlx', false],
    ['xtext/html', false],
    ['text/plain', false],
    [null, false],
  ])('Content-Type %j is HTML: %s', (contentType, html) => {
    const res = withSecurityHeaders(contentType ? new Response('x', { headers: { 'content-type': contentType } }) : new Response(null));
    expect(res.headers.get('content-security-policy')).toBe(html ? SITE_CONTENT_SECURITY_POLICY : DATA_CONTENT_SECURITY_POLICY);
  });

  it('works on immutable fetched headers, bodiless statuses and keeps repeated headers', async () => {
    const redirect = withSecurityHeaders(Response.redirect('https://example.com/', 303));
    expect(redirect.headers.get('location')).toBe('https://example.com/');
    expect(redirect.headers.get('x-content-type-options')).toBe('nosniff');
    const notModified = withSecurityHeaders(
      new Response(null, {
        status: 304,
        headers: [
          ['set-cookie', 'a=1'],
          ['set-cookie', 'b=2'],
        ],
      }),
    );
    expect(notModified.status).toBe(304);
    expect(notModified.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
  });
});
