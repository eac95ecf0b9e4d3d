import { describe, expect, it } from 'vitest';
import { authorizationResponseUrl } from './authorize.ts';

describe('authorizationResponseUrl', () => {
  it('keeps the redirect URI query, adds the parameters, and sets iss exactly once', () => {
    const url = new URL(
      authorizationResponseUrl('https://app.example/cb?tenant=7&iss=spoof', 'https://site.example', {
        code: 'abc',
        state: 's 1',
        error: null,
      }),
    );
    expect(url.searchParams.get('tenant')).toBe('7');
    expect(url.searchParams.get('code')).toBe('abc');
    expect(url.searchParams.get('state')).toBe('s 1');
    expect(url.searchParams.has('error')).toBe(false);
    expect(url.searchParams.getAll('iss')).toEqual(['https://site.example']);
  });
});
