import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { devPolicy } from './dev-csp.ts';

const production = /Content-Security-Policy = "([^"]+)"/.exec(readFileSync('netlify.toml', 'utf8'))![1]!;

describe('devPolicy', () => {
  it("adds what Vite's dev server needs to production's policy and keeps the rest", () => {
    const dev = devPolicy(production);
    const directive = (name: string): string[] =>
      dev
        .split('; ')
        .find((d) => d.startsWith(`${name} `))!
        .split(' ')
        .slice(1);
    expect(directive('script-src')).toEqual(expect.arrayContaining(["'self'", "'unsafe-inline'"]));
    expect(directive('style-src')).toEqual(expect.arrayContaining(["'self'", "'unsafe-inline'"]));
    expect(directive('connect-src')).toEqual(expect.arrayContaining(["'self'", 'ws:']));
    expect(directive('frame-ancestors')).toEqual(["'none'"]);
    expect(directive('object-src')).toEqual(["'none'"]);
  });

  it('leaves production strict: no inline scripts or style sheets there', () => {
    expect(production).toMatch(/script-src 'self'[^;]*;/);
    expect(/script-src[^;]*/.exec(production)![0]).not.toContain('unsafe-inline');
    expect(/style-src [^;]*/.exec(production)![0]).not.toContain('unsafe-inline');
  });
});
