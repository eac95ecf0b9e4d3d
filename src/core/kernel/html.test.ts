/** Server-rendered pages: escaping, the page shell, and the headers such pages must carry. */
import { describe, expect, it } from 'vitest';
import { escapeHtml, htmlPage, htmlResponse, seeOther, withPageErrors } from './html.ts';

describe('escapeHtml', () => {
  it('escapes the five characters that can break out of text or an attribute, every occurrence', () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a><b>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;&lt;b&gt;',
    );
    expect(escapeHtml('plain 文字')).toBe('plain 文字');
  });
});

describe('htmlPage', () => {
  it('is a whole document in the given language, with the title escaped and the body as given', () => {
    const page = htmlPage('A <b> title', '<p>body</p>', 'zh-CN');
    expect(page.startsWith('<!doctype html>\n<html lang="zh-CN">')).toBe(true);
    expect(page).toContain('<title>A &lt;b&gt; title</title>');
    expect(page).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(page).toContain('<main>\n<p>body</p>\n</main>');
    expect(htmlPage('t', 'b')).toContain('<html lang="en">');
  });
});

describe('htmlResponse', () => {
  it('never cached, framed or leaking its URL; its one style allowed by hash; forms post only here by default', async () => {
    const res = await htmlResponse('<p>x</p>');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('<p>x</p>');
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('pragma')).toBe('no-cache');
    // No Referer to other origins, and the page's own form posts carry its real Origin (no-referrer sends `null`).
    expect(res.headers.get('referrer-policy')).toBe('same-origin');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('content-security-policy')).toMatch(
      /^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]{43}='; form-action 'self'; frame-ancestors 'none'; base-uri 'none'$/,
    );
  });

  it('the style hash is the hash of the page style', async () => {
    const html = htmlPage('t', 'b');
    const style = /<style>([\s\S]*)<\/style>/.exec(html)![1]!;
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(style)));
    const hash = btoa(String.fromCharCode(...digest));
    expect((await htmlResponse(html)).headers.get('content-security-policy')).toContain(`style-src 'sha256-${hash}'`);
  });

  it('takes a status, headers as pairs or a record (repeated ones kept), and the origins a form may reach', async () => {
    const res = await htmlResponse('x', {
      status: 404,
      headers: [
        ['set-cookie', 'a=1'],
        ['set-cookie', 'b=2'],
      ],
      formTargets: ['https://app.example', 'http://127.0.0.1:3000'],
    });
    expect(res.status).toBe(404);
    expect(res.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(res.headers.get('content-security-policy')).toContain("form-action 'self' https://app.example http://127.0.0.1:3000;");
    expect((await htmlResponse('x', { headers: { 'retry-after': '5' } })).headers.get('retry-after')).toBe('5');
  });
});

describe('seeOther', () => {
  it('is a 303 with the location, not cached, no referrer, and extra headers appended', () => {
    const res = seeOther('https://app.example/cb?code=1', [
      ['set-cookie', 'a=; Max-Age=0'],
      ['set-cookie', 'b=; Max-Age=0'],
    ]);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('https://app.example/cb?code=1');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.getSetCookie()).toEqual(['a=; Max-Age=0', 'b=; Max-Age=0']);
    expect([...seeOther('/x').headers.keys()].sort()).toEqual(['cache-control', 'location', 'referrer-policy']);
  });
});

describe('withPageErrors', () => {
  it('answers a failure with a 500 page quoting the request id it was logged under', async () => {
    const logged: string[] = [];
    const res = await withPageErrors(
      new Request('https://site.example/oauth/authorize'),
      async () => {
        throw new Error('boom');
      },
      (message) => logged.push(message),
    );
    expect(res.status).toBe(500);
    const html = await res.text();
    const id = /quote request ([0-9a-f-]{36})\./.exec(html)?.[1];
    expect(id).toBeDefined();
    expect(html).toContain('<h1>Something went wrong</h1>');
    expect(html).toContain('<title>Something went wrong</title>');
    expect(html).not.toContain('boom');
    expect(logged).toEqual([`[${id}] GET /oauth/authorize failed`]);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('passes a good answer through', async () => {
    const ok = new Response('fine');
    expect(await withPageErrors(new Request('https://site.example/'), async () => ok)).toBe(ok);
  });
});
