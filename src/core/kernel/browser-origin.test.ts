import { describe, expect, it } from 'vitest';
import { parseRuntimeConfig } from '../config.ts';
import { isAllowedBrowserOrigin, isPublicHttpsOrigin, parseBrowserOriginPolicy } from './browser-origin.ts';

describe('which sites are public (the default lets every origin call them)', () => {
  it.each([
    ['https://www.acme-ai.example', true],
    ['https://acme-ai.netlify.app', true],
    ['https://93.184.216.34', true],
    ['http://www.acme-ai.example', false],
    ['https://localhost:8443', false],
    ['https://app.localhost', false],
    ['https://printer.local', false],
    ['https://wiki.internal', false],
    ['https://intranet', false],
    ['https://10.0.0.5', false],
    ['https://192.168.1.10:8443', false],
    ['https://[::1]', false],
    ['https://[fd00::1]', false],
    ['not a url', false],
  ])('%s -> %s', (origin, expected) => {
    expect(isPublicHttpsOrigin(origin)).toBe(expected);
  });
});

describe('AGENT_BROWSER_ORIGINS', () => {
  it('parses auto, *, same-origin and lists of origins', () => {
    expect(parseBrowserOriginPolicy('')).toEqual({ kind: 'auto' });
    expect(parseBrowserOriginPolicy('auto')).toEqual({ kind: 'auto' });
    expect(parseBrowserOriginPolicy(' * ')).toEqual({ kind: 'any' });
    expect(parseBrowserOriginPolicy('same-origin')).toEqual({ kind: 'listed', origins: [] });
    expect(parseBrowserOriginPolicy('https://app.example, http://localhost:3000/')).toEqual({
      kind: 'listed',
      origins: ['https://app.example', 'http://localhost:3000'],
    });
  });

  it('refuses what is not an origin, naming the variable', () => {
    expect(() => parseBrowserOriginPolicy('app.example')).toThrow('"app.example" is not an origin');
    expect(() => parseBrowserOriginPolicy('https://app.example/path')).toThrow('scheme, host and port only');
    expect(() => parseBrowserOriginPolicy('ftp://app.example')).toThrow('scheme, host and port only');
    expect(() => parseRuntimeConfig({ AGENT_BROWSER_ORIGINS: 'nope' })).toThrow(/^Invalid environment variable AGENT_BROWSER_ORIGINS: /);
    expect(parseRuntimeConfig({}).browserOrigins).toEqual({ kind: 'auto' });
  });

  it('applies the policy: the site itself always, loopback on a loopback site always, others as chosen', () => {
    const site = 'https://www.acme-ai.example';
    expect(isAllowedBrowserOrigin('https://agent.example', site)).toBe(true);
    expect(isAllowedBrowserOrigin('https://agent.example', site, { kind: 'listed', origins: [] })).toBe(false);
    expect(isAllowedBrowserOrigin(site, site, { kind: 'listed', origins: [] })).toBe(true);
    expect(isAllowedBrowserOrigin('https://app.example', site, { kind: 'listed', origins: ['https://app.example'] })).toBe(true);
    const local = 'http://localhost:8888';
    expect(isAllowedBrowserOrigin('http://127.0.0.1:5173', local)).toBe(true);
    expect(isAllowedBrowserOrigin('http://evil.example.com', local)).toBe(false);
    expect(isAllowedBrowserOrigin('http://evil.example.com', local, { kind: 'any' })).toBe(true);
  });
});
