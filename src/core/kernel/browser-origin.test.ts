/** Which browser origins may call /mcp and /a2a. */
import { describe, expect, it } from 'vitest';
import { isAllowedBrowserOrigin } from './browser-origin.ts';

describe('isAllowedBrowserOrigin', () => {
  it.each([
    ['the site origin, by default', 'https://site.example', 'https://site.example', undefined, true],
    ['another origin, by default', 'https://app.example', 'https://site.example', undefined, false],
    ['a configured origin', 'https://app.example', 'https://site.example', ['https://app.example'], true],
    ['the site origin when others are configured instead', 'https://site.example', 'https://site.example', ['https://app.example'], false],
    ['any loopback origin for a loopback site', 'http://127.0.0.1:9000', 'http://localhost:8888', undefined, true],
    ['a loopback origin for a public site', 'http://localhost:4321', 'https://site.example', undefined, false],
    ['a public origin for a loopback site', 'https://evil.example', 'http://localhost:8888', undefined, false],
    ['"null" for a loopback site', 'null', 'http://localhost:8888', undefined, false],
  ] as const)('%s: %s', (_name, origin, site, allowed, expected) => {
    expect(isAllowedBrowserOrigin(origin, site, allowed)).toBe(expected);
  });
});
