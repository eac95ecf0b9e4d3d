import { describe, expect, it } from 'vitest';
import { requestText } from './request-text.ts';

const sent = (query: Record<string, string>): URL => {
  const url = new URL('https://site.example/api/search');
  for (const [name, value] of Object.entries(query)) url.searchParams.append(name, value);
  return url;
};

describe('requestText (issue 28 stranger #17)', () => {
  it('shows the escapes that keep a value one value, as sent', () => {
    expect(requestText(sent({ q: 'a&limit=50&lang=en', limit: '3' }))).toBe('GET /api/search?q=a%26limit%3D50%26lang%3Den&limit=3');
    expect(requestText(sent({ q: 'a b+c#d%' }))).toBe('GET /api/search?q=a+b%2Bc%23d%25');
  });

  it('shows Chinese as Chinese, next to escaped ASCII in the same run', () => {
    expect(requestText(sent({ q: '网关&x' }))).toBe('GET /api/search?q=网关%26x');
    expect(requestText(sent({ q: '😀' }))).toBe('GET /api/search?q=😀');
    expect(requestText(new URL('https://site.example/api/search?q=%E7%BD'))).toBe('GET /api/search?q=%E7%BD');
  });
});
