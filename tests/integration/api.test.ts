/** /api/* and /health through the real request pipeline (NetlifyDev: functions, Blobs). */
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TEST_ORIGIN } from '../support/origin.ts';
import { useRuntime } from '../support/runtime.ts';

const site = useRuntime();
let ipCounter = 0;
/** A fresh client IP per test, so rate limits of one test never leak into another. */
const freshIp = (): string => `198.51.100.${(++ipCounter % 250) + 1}`;

async function problem(
  res: Response,
): Promise<{ status: number; title: string; detail: string; invalid_params?: { name: string; reason: string }[] }> {
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  const body = await res.json();
  expect(body.status).toBe(res.status);
  expect(typeof body.detail).toBe('string');
  return body;
}

describe('GET /api/search', () => {
  it('returns results with the documented fields, best first, absolute URLs, for zh, en and mixed queries', async () => {
    for (const [q, lang] of [
      ['私有化部署 LLM', 'zh'],
      ['speculative decoding', 'en'],
      ['API 网关 熔断', 'zh'],
    ] as const) {
      const res = await site.fetchPath(`/api/search?q=${encodeURIComponent(q)}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('cache-control')).toMatch(/s-maxage=\d+/);
      const results = await res.json();
      expect(results.length).toBeGreaterThan(0);
      expect(results.length).toBeLessThanOrEqual(10);
      expect(results[0].lang).toBe(lang);
      for (const r of results) {
        expect(Object.keys(r).sort()).toEqual(['category', 'date', 'excerpt', 'lang', 'slug', 'title', 'type', 'url']);
        expect(r.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        expect(['article', 'solution']).toContain(r.type);
        expect(r.url).toBe(`${TEST_ORIGIN}/${r.type === 'article' ? 'blog' : 'solutions'}/${r.slug}`);
      }
    }
  });

  it('searches solutions too and honours limit', async () => {
    const res = await site.fetchPath(`/api/search?q=${encodeURIComponent('12345 热线')}&limit=1`);
    const results = await res.json();
    expect(results).toHaveLength(1);
    expect(results[0].type).toBe('solution');
  });

  it('lang keeps one language', async () => {
    const query = `/api/search?q=${encodeURIComponent('部署 deployment')}&limit=50`;
    const both: { slug: string; lang: string }[] = await (await site.fetchPath(query)).json();
    expect(new Set(both.map((r) => r.lang))).toEqual(new Set(['zh', 'en']));
    for (const lang of ['zh', 'en']) {
      const res = await site.fetchPath(`${query}&lang=${lang}`);
      expect(res.status).toBe(200);
      expect((await res.json()).map((r: { slug: string }) => r.slug)).toEqual(both.filter((r) => r.lang === lang).map((r) => r.slug));
    }
  });

  it.each([
    ['lang unknown', '/api/search?q=llm&lang=fr', 'lang'],
    ['lang twice', '/api/search?q=llm&lang=zh&lang=en', 'lang'],
    ['missing q', '/api/search', 'q'],
    ['blank q', '/api/search?q=%20%20', 'q'],
    ['q too long', `/api/search?q=${'a'.repeat(201)}`, 'q'],
    ['limit 0', '/api/search?q=llm&limit=0', 'limit'],
    ['limit 51', '/api/search?q=llm&limit=51', 'limit'],
    ['limit not a number', '/api/search?q=llm&limit=ten', 'limit'],
    ['q twice', '/api/search?q=a&q=b', 'q'],
    ['q not valid percent-encoded UTF-8', '/api/search?q=%E0%A4%A', 'q'],
  ])('400 problem naming the parameter: %s', async (_name, path, param) => {
    const res = await site.fetchPath(path);
    expect(res.status).toBe(400);
    const body = await problem(res);
    expect(body.invalid_params?.map((p) => p.name)).toContain(param);
  });

  it('answers other methods with 405 and Allow, preflight with 204, HEAD without a body', async () => {
    const post = await site.fetchPath('/api/search?q=x', { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toContain('GET');
    await problem(post);
    const options = await site.fetchPath('/api/search', {
      method: 'OPTIONS',
      headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'GET' },
    });
    expect(options.status).toBe(204);
    expect(options.headers.get('access-control-allow-origin')).toBe('*');
    expect(options.headers.get('access-control-allow-methods')).toContain('GET');
    const head = await site.fetchPath('/api/search?q=llm', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('never fails on odd input', async () => {
    for (const q of ['%F0%9F%A4%96', '%00', '%E2%80%8B', "'; DROP TABLE x;--", '*', '%D8%00']) {
      const res = await site.fetchPath(`/api/search?q=${q}`);
      expect(res.status, q).toBeLessThan(500);
    }
  });
});

describe('unknown /api paths', () => {
  it('are 404 problems, never the HTML page', async () => {
    for (const path of ['/api', '/api/', '/api/nope', '/api/search/extra', '/api/v2/search']) {
      const res = await site.fetchPath(path);
      expect(res.status, path).toBe(404);
      await problem(res);
    }
  });

  it('the catch-all excludes every real /api endpoint', () => {
    const dir = 'netlify/functions';
    const apiPaths = readdirSync(dir)
      .filter((f) => f.endsWith('.mts') && f !== 'api-not-found.mts')
      .flatMap((f) => [...readFileSync(`${dir}/${f}`, 'utf8').matchAll(/path: '(\/api\/[^']+)'/g)].map((m) => m[1]!));
    const excluded = /excludedPath: \[([^\]]*)\]/.exec(readFileSync(`${dir}/api-not-found.mts`, 'utf8'))![1]!;
    expect(apiPaths.length).toBeGreaterThanOrEqual(3);
    for (const path of apiPaths) expect(excluded).toContain(`'${path}'`);
  });
});

describe('GET /api/tweets', () => {
  it('serves the build snapshot, valid and newest first, when nothing is stored', async () => {
    const res = await site.fetchPath('/api/tweets');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-feed-source')).toBe('snapshot');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const feed = await res.json();
    expect(Date.parse(feed.updated_at)).not.toBeNaN();
    expect(feed.tweets.length).toBeGreaterThan(0);
    const times = feed.tweets.map((t: { created_at: string }) => Date.parse(t.created_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    for (const t of feed.tweets) {
      expect(t.author.name).toBeTruthy();
      expect(t.author.username).toMatch(/^\w+$/);
      expect(t.url).toMatch(/^https:\/\//);
    }
  });

  it('405 for POST', async () => {
    const res = await site.fetchPath('/api/tweets', { method: 'POST' });
    expect(res.status).toBe(405);
    await problem(res);
  });
});

describe('GET /health', () => {
  it('reports build facts and live checks, never cached', async () => {
    const res = await site.fetchPath('/health');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = await res.json();
    expect(body.status).toBe('ok');
    expect(body.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(body.commit).toBeTruthy();
    expect(Date.parse(body.built_at)).not.toBeNaN();
    expect(body.checks.search_index.documents).toBeGreaterThan(16);
    expect(body.checks.blobs.ok).toBe(true);
    expect(typeof body.checks.blobs.latency_ms).toBe('number');
  });
});

describe('POST /api/contact', () => {
  const post = (body: BodyInit, headers: Record<string, string>, ip = freshIp()): Promise<Response> =>
    site.fetchPath('/api/contact', { method: 'POST', body, headers: { 'x-forwarded-for': ip, ...headers } });
  const valid = {
    name: 'Li Wei',
    email: 'li.wei@example.com',
    company: 'Example Bank',
    message: 'Sizing workshop for 70B models, please.',
  };

  it('accepts JSON and form bodies once stored', async () => {
    const json = await post(JSON.stringify(valid), { 'content-type': 'application/json' });
    expect(json.status).toBe(200);
    const body = await json.json();
    expect(body.status).toBe('accepted');
    expect(body.id).toMatch(/^[0-9a-f-]{36}$/);
    // The reference a person quotes is the id's first eight hex digits.
    expect(body.reference).toBe(`${body.id.slice(0, 4)}-${body.id.slice(4, 8)}`.toUpperCase());
    const form = await post(new URLSearchParams(valid).toString(), { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' });
    expect(form.status).toBe(200);
    expect((await form.json()).status).toBe('accepted');
  });

  it('400 with one entry per bad field, and invalid posts do not use the quota', async () => {
    const ip = freshIp();
    const res = await post(
      JSON.stringify({ name: '', email: 'not-an-email', company: 'x'.repeat(201), message: 'y'.repeat(5001) }),
      { 'content-type': 'application/json' },
      ip,
    );
    expect(res.status).toBe(400);
    const body = await problem(res);
    expect(body.invalid_params!.map((p) => p.name).sort()).toEqual(['company', 'email', 'message', 'name']);
    const wrongType = await post(JSON.stringify({ name: 42, email: ['a'] }), { 'content-type': 'application/json' }, ip);
    expect((await problem(wrongType)).invalid_params!.map((p) => p.name).sort()).toEqual(['email', 'name']);
    const ok = await post(JSON.stringify(valid), { 'content-type': 'application/json' }, ip);
    expect(ok.status).toBe(200);
  });

  it.each([
    ['text/plain', 415],
    ['multipart/form-data; boundary=x', 415],
    ['', 415],
  ])('content type %j -> %i', async (type, status) => {
    const res = await post('name=a', type ? { 'content-type': type } : {});
    expect(res.status).toBe(status);
    await problem(res);
  });

  it('413 beyond the limit (every field at its longest, form-encoded: about 51 KB), 400 for malformed JSON or a non-object', async () => {
    const big = await post(JSON.stringify({ ...valid, message: 'x'.repeat(60 * 1024) }), { 'content-type': 'application/json' });
    expect(big.status).toBe(413);
    await problem(big);
    for (const bad of ['{"name":', '[1,2]', 'null', '"text"']) {
      const res = await post(bad, { 'content-type': 'application/json' });
      expect(res.status, bad).toBe(400);
      await problem(res);
    }
  });

  it('answers a honeypot as accepted without using the quota', async () => {
    const ip = freshIp();
    const bot = await post(JSON.stringify({ ...valid, website: 'http://spam.example' }), { 'content-type': 'application/json' }, ip);
    expect(bot.status).toBe(200);
    const human = await post(JSON.stringify(valid), { 'content-type': 'application/json' }, ip);
    expect(human.status).toBe(200);
  });

  it('of 20 concurrent posts from one IP exactly one is accepted, 19 get 429 with Retry-After', async () => {
    const ip = freshIp();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => post(JSON.stringify(valid), { 'content-type': 'application/json' }, ip)),
    );
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 429)).toHaveLength(19);
    for (const res of answers.filter((r) => r.status === 429)) {
      const retry = Number(res.headers.get('retry-after'));
      expect(retry).toBeGreaterThanOrEqual(1);
      expect(retry).toBeLessThanOrEqual(60);
      await problem(res);
    }
    // Another IP is unaffected.
    expect((await post(JSON.stringify(valid), { 'content-type': 'application/json' })).status).toBe(200);
  });

  it('without JavaScript: a browser form post gets 303 to the thank-you page, or the form again with errors', async () => {
    const html = { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };
    const ok = await post(new URLSearchParams(valid).toString(), html);
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toMatch(/^\/contact\/thanks\?id=[0-9a-f-]{36}&ref=[0-9A-F]{4}-[0-9A-F]{4}$/);
    const bad = await post(new URLSearchParams({ name: 'Zhang <script>', email: 'nope', message: 'kept text' }).toString(), html);
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const page = await bad.text();
    expect(page).toMatch(/<title>Error: /);
    expect(page).toContain('value="Zhang &lt;script&gt;"');
    expect(page).not.toContain('<script>"');
    expect(page).toMatch(/id="email-error"[^>]*>Please enter an email address like name@example.com/);
    expect(page).toMatch(/<textarea[^>]*>kept text<\/textarea>/);
    expect(page).toMatch(/id="email"[^>]*aria-invalid="true"/);
    const thanks = await site.fetchPath(ok.headers.get('location')!);
    expect(thanks.status).toBe(200);
    expect(await thanks.text()).toContain('Thank you');
  });

  it('without JavaScript, in Chinese: the Chinese page comes back with Chinese messages, then the Chinese thank-you page', async () => {
    const html = { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' };
    const bad = await post(new URLSearchParams({ lang: 'zh', name: '', email: 'li@example.com', product: 'llm-gateway' }).toString(), html);
    expect(bad.status).toBe(400);
    const page = await bad.text();
    expect(page).toContain('<html lang="zh-CN"');
    expect(page).toMatch(/<title>错误：/);
    expect(page).toMatch(/id="name-error"[^>]*>请填写您的姓名，方便我们称呼您。/);
    expect(page).toContain('<option value="llm-gateway" selected>');
    expect(page).toContain('value="li@example.com"');
    const ok = await post(
      new URLSearchParams({ lang: 'zh', name: '李伟', email: 'li@example.com', product: 'llm-gateway' }).toString(),
      html,
    );
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toMatch(/^\/zh\/contact\/thanks\?id=/);
  });

  it('405 for GET, 204 for the preflight', async () => {
    const get = await site.fetchPath('/api/contact');
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toContain('POST');
    expect((await site.fetchPath('/api/contact', { method: 'OPTIONS' })).status).toBe(204);
  });
});
