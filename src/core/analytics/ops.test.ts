/** The /ops/ page in-process: sign-in (right, wrong, missing, unset), the limit on wrong secrets, headers, the page for seeded usage. */
import { FileSystemConfigLoader, HtmlValidate } from 'html-validate';
import { describe, expect, it } from 'vitest';
import { memoryStore } from '../kernel/memory-store.ts';
import { shardKeys } from '../kernel/rate-limit.ts';
import { secretMatches } from '../kernel/crypto.ts';
import type { Store } from '../kernel/store.ts';
import { basicPassword, type FeedbackItem, handleOps, OPS_SIGN_IN_RATE_LIMIT, OPS_STYLE, type OpsDeps } from './ops.ts';
import { dayKey } from './rollup.ts';

const SECRET = 'operator-secret-0123456789';
const NOW = Date.parse('2027-03-11T10:00:00Z');
const basic = (password: string, user = 'ops'): string =>
  `Basic ${btoa(String.fromCharCode(...new TextEncoder().encode(`${user}:${password}`)))}`;

async function seeded(): Promise<Store> {
  const store = memoryStore();
  await store.set(dayKey('2027-03-09'), {
    day: '2027-03-09',
    counts: {
      'requests.audience.browser': 30,
      'requests.audience.markdown-agent': 10,
      'mcp.tool.search_articles': 4,
      'requests.surface.api': 12,
      'errors.api.404': 2,
    },
    queries: { 'llm gateway': { n: 5, zero: 0 }, 'agent <memory>': { n: 3, zero: 3 } },
  });
  await store.set(dayKey('2027-03-10'), {
    day: '2027-03-10',
    counts: { 'requests.audience.browser': 10, 'mcp.tool.get_article': 1 },
    queries: {},
  });
  await store.set('raw/2027-03-11/i1/000001', { from_ms: 0, to_ms: 0, counts: { 'requests.audience.known-agent': 5 }, queries: {} });
  return store;
}

function setup(overrides: Partial<OpsDeps> = {}) {
  const limits = memoryStore();
  const logs: string[] = [];
  let now = NOW;
  const deps: OpsDeps = {
    secret: SECRET,
    analytics: memoryStore(),
    limits,
    clientNetworkDigest: async () => 'net-a',
    now: () => now,
    log: (line) => logs.push(line),
    ...overrides,
  };
  const get = (query = '', headers: Record<string, string> = {}, method = 'GET') =>
    handleOps(new Request(`https://site.example/ops/${query}`, { method, headers }), deps);
  return { deps, limits, logs, get, advance: (ms: number) => (now += ms) };
}

describe('sign-in', () => {
  it('no credentials: 401 with a Basic challenge (UTF-8), a page saying how to sign in, nothing counted against the network', async () => {
    const s = setup();
    const res = await s.get();
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Basic realm="Site operators", charset="UTF-8"');
    expect(await res.text()).toContain('OPS_SECRET');
    expect(await s.limits.list('')).toEqual([]);
  });

  it('the right secret with any user name: 200 and the report; the admission is given back', async () => {
    const s = setup({ analytics: await seeded() });
    for (const user of ['ops', '', '运营']) {
      const res = await s.get('', { authorization: basic(SECRET, user) });
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('<h1>Usage</h1>');
    }
    for (const key of shardKeys('ops-signin/net-a', OPS_SIGN_IN_RATE_LIMIT.limit))
      expect((await s.limits.get<{ count: number }>(key))?.value.count ?? 0).toBe(0);
  });

  it.each([
    ['a wrong secret', basic('operator-secret-0123456780')],
    ['the secret as the user name', `Basic ${btoa(`${SECRET}:`)}`],
    ['a prefix of the secret', basic(SECRET.slice(0, -1))],
    ['not Basic', `Bearer ${SECRET}`],
    ['not base64', 'Basic %%%'],
    ['no colon', `Basic ${btoa(SECRET)}`],
  ])('%s: 401 again', async (_name, authorization) => {
    const res = await setup().get('', { authorization });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Basic /);
  });

  it('OPS_SECRET unset: every secret is refused exactly as a wrong one is, and the log tells the operator', async () => {
    const unset = setup({ secret: null });
    const wrong = setup();
    const a = await unset.get('', { authorization: basic(SECRET) });
    const b = await wrong.get('', { authorization: basic('something-else-entirely') });
    expect([a.status, await a.text(), [...a.headers]]).toEqual([b.status, await b.text(), [...b.headers]]);
    expect(unset.logs.join('\n')).toContain('OPS_SECRET is not set');
    expect(wrong.logs).toEqual([]);
    await unset.get(); // no secret tried (a crawler, a browser's first request): nothing logged
    expect(unset.logs).toHaveLength(1);
  });

  it(`after ${OPS_SIGN_IN_RATE_LIMIT.limit} wrong secrets the network gets 429 with Retry-After, even with the right one, until the window ends`, async () => {
    const s = setup();
    for (let i = 0; i < OPS_SIGN_IN_RATE_LIMIT.limit; i++)
      expect((await s.get('', { authorization: basic(`wrong-${i}`) })).status).toBe(401);
    const limited = await s.get('', { authorization: basic(SECRET) });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBe(OPS_SIGN_IN_RATE_LIMIT.windowSeconds);
    expect(await limited.text()).toContain('Too many wrong secrets');
    // Another network is not affected; this one is admitted again once the window is over.
    const other = setup({ limits: s.limits, clientNetworkDigest: async () => 'net-b' });
    expect((await other.get('', { authorization: basic(SECRET) })).status).toBe(200);
    s.advance(OPS_SIGN_IN_RATE_LIMIT.windowSeconds * 1000);
    expect((await s.get('', { authorization: basic(SECRET) })).status).toBe(200);
  });

  it('the operator’s own page views never use up the limit', async () => {
    const s = setup();
    for (let i = 0; i < OPS_SIGN_IN_RATE_LIMIT.limit * 2; i++) expect((await s.get('', { authorization: basic(SECRET) })).status).toBe(200);
    expect((await s.get('', { authorization: basic('wrong') })).status).toBe(401);
  });

  it('basicPassword reads UTF-8 and keeps colons after the first', () => {
    expect(basicPassword(basic('pä:ss 密码', 'u'))).toBe('pä:ss 密码');
    expect(basicPassword(`basic   ${btoa('u:p')}`)).toBe('p');
    expect(basicPassword(null)).toBeNull();
    expect(basicPassword(`Basic ${btoa('\xff\xfe:x')}`)).toBeNull(); // not UTF-8
  });

  it('secretMatches: equal only when equal, whatever the lengths', async () => {
    expect(await secretMatches(SECRET, SECRET)).toBe(true);
    expect(await secretMatches(`${SECRET}x`, SECRET)).toBe(false);
    expect(await secretMatches('', SECRET)).toBe(false);
    expect(await secretMatches(SECRET.toUpperCase(), SECRET)).toBe(false);
  });
});

describe('headers', () => {
  it.each([
    ['the page', { authorization: basic(SECRET) }, 200],
    ['the challenge', {}, 401],
  ])('%s: no-store, noindex, no referrer, a CSP that allows the one stylesheet and nothing else', async (_name, headers, status) => {
    const res = await setup().get('', headers);
    expect(res.status).toBe(status);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    const digest = Buffer.from(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(OPS_STYLE))).toString('base64');
    expect(res.headers.get('content-security-policy')).toBe(
      `default-src 'none'; style-src 'sha256-${digest}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
    );
    const html = await res.text();
    expect(html).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(html).not.toMatch(/<script|\sstyle="|\son[a-z]+=/i);
  });

  it('POST: 405 with Allow, before any sign-in', async () => {
    const res = await setup().get('', { authorization: basic(SECRET) }, 'POST');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });
});

describe('the page', () => {
  const signedIn = { authorization: basic(SECRET) };

  it('the default range is the last 7 days including today; the summary, the chart and the tables show the seeded usage', async () => {
    const s = setup({ analytics: await seeded() });
    const html = await (await s.get('', signedIn)).text();
    expect(html).toContain('2027-03-05 to 2027-03-11 · 7 days, UTC');
    expect(html).toContain('<dt>Requests</dt><dd><span class="value">55</span>');
    expect(html).toContain('<dt>Agent requests</dt><dd><span class="value">15</span><span class="note">27.3% of requests</span>');
    expect(html).toContain('<dt>MCP tool calls</dt><dd><span class="value">5</span>');
    // One bar group per day, each with a tooltip naming the day and its parts.
    expect(html.match(/<g><title>/g)).toHaveLength(7);
    expect(html).toContain('<title>2027-03-09: 40\nBrowsers 30\nAgents asking for markdown 10</title>');
    expect(html).toContain('<title>2027-03-11: 5\nKnown agents 5</title>');
    expect(html).toMatch(/<rect class="a-browser" [^>]+\/><rect class="a-markdown-agent"/);
    expect(html).toContain('<tr><th scope="row">2027-03-09</th><td>30</td><td>10</td><td>0</td><td>0</td><td>0</td><td>40</td></tr>');
    expect(html).toContain('<tr><th scope="row">search_articles</th><td>4</td>');
    // Queries are escaped; the zero-result list has only what found nothing.
    expect(html).toContain('agent &lt;memory&gt;');
    expect(html).not.toContain('agent <memory>');
    const zero = html.slice(html.indexOf('id="zero-queries"'), html.indexOf('</section>', html.indexOf('id="zero-queries"')));
    expect(zero).toContain('agent &lt;memory&gt;');
    expect(zero).not.toContain('llm gateway');
    // The other sections, compact, with totals.
    expect(html).toContain(
      '<h3 id="section-0">Requests by surface</h3><table class="compact"><tbody><tr><th scope="row">api</th><td>12</td></tr>',
    );
    expect(html).toContain('<h3 id="section-10">Errors by family and status</h3>');
    expect(html).not.toContain('id="feedback"'); // no feedback store given: no section
  });

  it('?from=&to= choose the range; the form keeps it; a preset link and the language switch keep the rest', async () => {
    const s = setup({ analytics: await seeded() });
    const html = await (await s.get('?from=2027-03-10&to=2027-03-10', signedIn)).text();
    expect(html).toContain('2027-03-10 to 2027-03-10 · 1 day, UTC');
    expect(html).toContain('<span class="value">10</span>');
    expect(html).toContain('name="from" value="2027-03-10"');
    expect(html).toContain('href="?from=2027-03-10&amp;to=2027-03-10&amp;lang=zh"');
    expect(html).toContain('href="?from=2027-02-10&amp;to=2027-03-11&amp;lang=en">30 days</a>');
  });

  it.each([
    ['?from=2027-02-30', '“2027-02-30” is not a day'],
    ['?from=2027-03-11&to=2027-03-01', 'The start (2027-03-11) is after the end (2027-03-01).'],
    ['?from=2020-01-01&to=2027-03-01', 'too long a range: at most 366 days'],
  ])('%s: 400, the form and what is wrong', async (query, message) => {
    const res = await setup().get(query, signedIn);
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain(message);
    expect(html).toContain('<form method="get"');
  });

  it('Chinese by Accept-Language or ?lang=zh; ?lang= wins over the header', async () => {
    const s = setup({ analytics: await seeded() });
    const zh = await s.get('', { ...signedIn, 'accept-language': 'zh-CN,zh;q=0.9,en;q=0.5' });
    expect(zh.headers.get('content-language')).toBe('zh-CN');
    const html = await zh.text();
    expect(html).toContain('<html lang="zh-CN">');
    expect(html).toContain('<h1>使用情况</h1>');
    expect(html).toContain('<dt>请求总数</dt><dd><span class="value">55</span>');
    expect(await (await s.get('?lang=zh', signedIn)).text()).toContain('<h1>使用情况</h1>');
    expect(await (await s.get('?lang=en', { ...signedIn, 'accept-language': 'zh-CN' })).text()).toContain('<h1>Usage</h1>');
    const challenge = await (await s.get('', { 'accept-language': 'zh' })).text();
    expect(challenge).toContain('运营者登录');
  });

  it('the feedback slot lists what it is given, escaped, and says when there is none', async () => {
    const items: FeedbackItem[] = [
      { page: '/blog/a/', kind: 'outdated', text: 'The <b>price</b> changed', received_at: '2027-03-10T08:00:00Z' },
    ];
    const asked: string[][] = [];
    const s = setup({
      feedback: async (from, to) => {
        asked.push([from, to]);
        return items;
      },
    });
    const html = await (await s.get('?from=2027-03-09&to=2027-03-10', signedIn)).text();
    expect(asked).toEqual([['2027-03-09', '2027-03-10']]);
    expect(html).toContain('<h2 id="feedback">Feedback</h2>');
    expect(html).toContain('<td>/blog/a/</td><td>outdated</td><td>The &lt;b&gt;price&lt;/b&gt; changed</td>');
    const none = await (await setup({ feedback: async () => [] }).get('', signedIn)).text();
    expect(none).toContain('No feedback in this range.');
  });

  it('every box that scrolls sideways is a named region a keyboard reaches (axe scrollable-region-focusable)', async () => {
    const feedback = async (): Promise<FeedbackItem[]> => [{ page: '/a/', kind: 'wrong', text: 'x', received_at: '2027-03-10T00:00:00Z' }];
    for (const lang of ['en', 'zh']) {
      const html = await (await setup({ analytics: await seeded(), feedback }).get(`?lang=${lang}`, signedIn)).text();
      const boxes = [...html.matchAll(/<(?:div|section) class="scroll"([^>]*)>/g)].map((m) => m[1]!);
      expect(boxes, lang).toHaveLength(2); // the day table and the feedback table
      // A <section> with a name is a region landmark (html-validate prefers it to role="region" on a div).
      expect(html).toMatch(/<section class="scroll" tabindex="0" aria-label="[^"]+"><table class="numbers">/);
      for (const attributes of boxes) expect(attributes).toMatch(/^ tabindex="0" aria-label="[^"]+"$/);
    }
  });
});

describe('valid HTML', () => {
  it.each([
    ['the page, feedback included', '', { authorization: basic(SECRET) }],
    ['a refused range', '?from=2027-02-30', { authorization: basic(SECRET) }],
    ['the sign-in page', '', {}],
  ])('%s passes html-validate under the site’s rules (.htmlvalidate.json)', async (_name, query, headers) => {
    const feedback = async (): Promise<FeedbackItem[]> => [{ page: '/a/', kind: 'wrong', text: 'x', received_at: '2027-03-10T00:00:00Z' }];
    const html = await (await setup({ analytics: await seeded(), feedback }).get(query, headers)).text();
    const report = await new HtmlValidate(new FileSystemConfigLoader()).validateString(html, 'ops.html');
    expect(report.results.flatMap((r) => r.messages.map((m) => `${m.ruleId}: ${m.message} ${m.selector ?? ''}`))).toEqual([]);
  });
});
