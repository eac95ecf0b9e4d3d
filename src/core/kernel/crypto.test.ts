/** Encodings, digests and the constant-time comparison, against published vectors. */
import { describe, expect, it } from 'vitest';
import { base64, base64url, randomSecret, sha256, sha256Base64url, sha256Hex, timingSafeEqual } from './crypto.ts';

describe('base64 and base64url (RFC 4648 §10 vectors)', () => {
  it.each([
    ['', '', ''],
    ['f', 'Zg==', 'Zg'],
    ['fo', 'Zm8=', 'Zm8'],
    ['foo', 'Zm9v', 'Zm9v'],
    ['foob', 'Zm9vYg==', 'Zm9vYg'],
    ['fooba', 'Zm9vYmE=', 'Zm9vYmE'],
    ['foobar', 'Zm9vYmFy', 'Zm9vYmFy'],
  ])('%j', (text, standard, url) => {
    const bytes = new TextEncoder().encode(text);
    expect(base64(bytes)).toBe(standard);
    expect(base64url(bytes)).toBe(url);
  });

  it('base64url uses - and _ where base64 has + and /', () => {
    const bytes = new Uint8Array([0xfb, 0xff, 0xbf]);
    expect(base64(bytes)).toBe('+/+/');
    expect(base64url(bytes)).toBe('-_-_');
  });
});

describe('SHA-256', () => {
  it('of text (UTF-8) and of bytes', async () => {
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(await sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(await sha256Hex('é')).toBe(
      [...(await sha256(new TextEncoder().encode('é')))].map((b) => b.toString(16).padStart(2, '0')).join(''),
    );
    expect((await sha256(new Uint8Array([0x61, 0x62, 0x63]).buffer)).length).toBe(32);
  });

  it('the PKCE S256 transform of RFC 7636 Appendix B', async () => {
    expect(await sha256Base64url('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });
});

describe('randomSecret', () => {
  it('is base64url of the asked number of bytes, different each time', () => {
    expect(randomSecret()).toMatch(/^[\w-]{43}$/);
    expect(randomSecret(16)).toMatch(/^[\w-]{22}$/);
    expect(new Set(Array.from({ length: 50 }, () => randomSecret(16))).size).toBe(50);
  });
});

describe('timingSafeEqual', () => {
  it.each([
    ['abc', 'abc', true],
    ['', '', true],
    ['abc', 'abd', false],
    ['abc', 'ab', false],
    ['ab', 'abc', false],
    ['abc', 'xbc', false],
    ['a\u0000', 'a', false],
    ['', 'a', false],
  ])('%j = %j: %s', (a, b, equal) => expect(timingSafeEqual(a, b)).toBe(equal));
});
