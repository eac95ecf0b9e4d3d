import { describe, expect, it } from 'vitest';
import { submitFeedback } from '../agent-tools/submit-feedback.ts';
import type { ToolContext } from '../agent-tools/tool.ts';
import { inMemoryCatalog } from '../content/catalog-reader.ts';
import { memoryStore } from '../kernel/memory-store.ts';
import { FIXTURE_CATALOG } from '../../../tests/support/core-fixtures.ts';
import { PROBLEM_ERRORS } from '../kernel/problem.ts';
import { withErrors } from '../kernel/errors.ts';
import { edge } from '../kernel/handler.ts';
import {
  monthsBetween,
  FEEDBACK_RATE_LIMIT,
  type FeedbackDeps,
  type FeedbackRecord,
  feedbackBetween,
  feedbackSink,
  FEEDBACK_EDGE,
  handleFeedback,
  pagePathOf,
  sitePagePathOf,
  storeFeedback,
} from './feedback.ts';

const ORIGIN = 'https://site.example';
const NOT_A_PAGE = 'page must be a page of https://site.example: an article, solution, product or listing';
const PAGES = inMemoryCatalog(FIXTURE_CATALOG);
const T0 = Date.UTC(2026, 10, 26, 9);

function setup(network = 'net-a') {
  let id = 0;
  let nowMs = T0;
  const feedback = memoryStore();
  const deps: FeedbackDeps = {
    feedback,
    limits: memoryStore(),
    origin: ORIGIN,
    pages: PAGES,
    clientNetworkDigest: async () => network,
    now: () => nowMs,
    newId: () => `id-${++id}`,
  };
  return { deps, feedback, advance: (ms: number) => (nowMs += ms) };
}

const post = (body: string, headers: Record<string, string>) =>
  withErrors(PROBLEM_ERRORS, new Request(`${ORIGIN}/api/feedback`), () =>
    handleFeedback(new Request(`${ORIGIN}/api/feedback`, { method: 'POST', headers, body }), s.deps),
  );
let s = setup();

describe('storeFeedback', () => {
  it('stores a piece under its time, with the page as a path and the network digest, never an address', async () => {
    s = setup();
    const stored = await storeFeedback(
      { page: `${ORIGIN}/blog/vector-search/?utm=1#top`, kind: 'outdated', text: 'The price changed in 2026.' },
      'mcp',
      s.deps,
    );
    expect(stored).toEqual({ ok: true, receipt: { status: 'stored', id: 'id-1', page: '/blog/vector-search', kind: 'outdated' } });
    const keys = await s.feedback.list('feedback/');
    expect(keys).toEqual(['feedback/2026-11-26T09:00:00.000Z/id-1']);
    expect((await s.feedback.get<FeedbackRecord>(keys[0]!))?.value).toEqual({
      id: 'id-1',
      received_at: '2026-11-26T09:00:00.000Z',
      page: '/blog/vector-search',
      kind: 'outdated',
      text: 'The price changed in 2026.',
      channel: 'mcp',
      client_ip_digest: 'net-a',
    });
  });

  it.each([
    [{ page: 'https://elsewhere.example/blog/vector-search', kind: 'wrong', text: 'x' }, 'page', NOT_A_PAGE],
    [{ page: '/blog/no-such-article', kind: 'wrong', text: 'x' }, 'page', NOT_A_PAGE],
    [{ page: '/wp-admin/', kind: 'helpful' }, 'page', NOT_A_PAGE],
    [{ page: '/blog/vector-search/../../etc', kind: 'helpful' }, 'page', NOT_A_PAGE],
    [{ page: '/solutions/vector-search', kind: 'helpful' }, 'page', NOT_A_PAGE],
    [
      { page: '/blog/vector-search/', kind: 'rude', text: 'x' },
      'kind',
      'kind must be one of wrong, outdated, missing, helpful, not_helpful',
    ],
    [{ page: '/blog/vector-search/', kind: 'wrong' }, 'text', 'text is required for wrong: say what'],
    [{ page: '/blog/vector-search/', kind: 'missing', text: 'a'.repeat(1001) }, 'text', 'text must be at most 1000 characters'],
    [
      { page: '/blog/vector-search/', kind: 'missing', text: 'hidden\u202etext' },
      'text',
      'text must be plain text: line breaks and emoji are fine, but not control, bidirectional or invisible characters',
    ],
    [{ kind: 'helpful' }, 'page', 'page is required'],
    [{ page: '/', kind: 'helpful', extra: 1 }, 'extra', 'unknown field "extra"'],
    [
      { page: '/', kind: 'missing', text: 'a\u0007b' },
      'text',
      'text must be plain text: line breaks and emoji are fine, but not control, bidirectional or invisible characters',
    ],
  ])('refuses %j: %s', async (fields, name, reason) => {
    s = setup();
    const stored = await storeFeedback(fields, 'api', s.deps);
    expect(stored.ok).toBe(false);
    expect(!stored.ok && stored.refusal).toMatchObject({ kind: 'invalid', invalid: expect.arrayContaining([{ name, reason }]) });
    expect(await s.feedback.list()).toEqual([]);
  });

  it('takes a report of several lines (CRLF from a form kept as LF), tabs and emoji', async () => {
    s = setup();
    const stored = await storeFeedback(
      { page: '/blog/vector-search', kind: 'wrong', text: 'Line one\r\nLine two\tindented ❤️ 👩\u200d💻' },
      'form',
      s.deps,
    );
    expect(stored.ok).toBe(true);
    const [key] = await s.feedback.list('feedback/');
    expect((await s.feedback.get<FeedbackRecord>(key!))?.value.text).toBe('Line one\nLine two\tindented ❤️ 👩\u200d💻');
  });

  it('takes helpful and not_helpful without text', async () => {
    s = setup();
    expect((await storeFeedback({ page: '/blog/agent-tools-zh', kind: 'helpful' }, 'form', s.deps)).ok).toBe(true);
    expect((await storeFeedback({ page: '/blog/agent-tools-zh', kind: 'not_helpful' }, 'form', s.deps)).ok).toBe(true);
  });

  it('limits each network per hour; other networks are not affected; the window ends', async () => {
    s = setup();
    const piece = { page: '/blog/vector-search/', kind: 'helpful' };
    for (let i = 0; i < FEEDBACK_RATE_LIMIT.limit; i++) expect((await storeFeedback(piece, 'api', s.deps)).ok).toBe(true);
    const refused = await storeFeedback(piece, 'api', s.deps);
    expect(refused).toEqual({
      ok: false,
      refusal: {
        kind: 'limited',
        retryAfterSeconds: 3600,
        detail: 'At most 10 pieces of feedback per hour from one network. Try again in 3600 s.',
      },
    });
    expect((await storeFeedback(piece, 'api', { ...s.deps, clientNetworkDigest: async () => 'net-b' })).ok).toBe(true);
    s.advance(3600_000);
    expect((await storeFeedback(piece, 'api', s.deps)).ok).toBe(true);
  });

  it('a failed write stores nothing and gives the quota back', async () => {
    s = setup();
    const broken = { ...s.deps, feedback: { ...s.deps.feedback, set: async () => Promise.reject(new Error('Blobs down')) } };
    await expect(storeFeedback({ page: '/products/gateway', kind: 'helpful' }, 'api', broken)).rejects.toThrow('Blobs down');
    for (let i = 0; i < FEEDBACK_RATE_LIMIT.limit; i++)
      expect((await storeFeedback({ page: '/products/gateway', kind: 'helpful' }, 'api', s.deps)).ok).toBe(true);
  });
});

describe('sitePagePathOf', () => {
  it.each([
    ['/', '/'],
    ['/zh/', '/zh'],
    ['https://site.example/blog/vector-search/', '/blog/vector-search'],
    ['/blog/vector-search.md', '/blog/vector-search'],
    ['/blog/agent-tools-zh?x=1#h', '/blog/agent-tools-zh'],
    ['/solutions/retail-assistant', '/solutions/retail-assistant'],
    ['/zh/solutions/retail-assistant/', '/zh/solutions/retail-assistant'],
    ['/zh/blog/category/rag', '/zh/blog/category/rag'],
    ['/zh/products/gateway', '/zh/products/gateway'],
    ['/blog/category/rag', '/blog/category/rag'],
    ['/docs/api', '/docs/api'],
    ['/zh/glossary', '/zh/glossary'],
    ['/index.md', '/'],
  ])('%s is the page %s', (page, path) => {
    expect(sitePagePathOf(page, ORIGIN, PAGES)).toBe(path);
  });

  it.each([
    '/blog/nothing',
    '/solutions/vector-search',
    '/products/none',
    '/blog/category/none',
    '/.env',
    '/blog/%E4',
    'https://x.example/',
  ])('%s is no page', (page) => {
    expect(sitePagePathOf(page, ORIGIN, PAGES)).toBeNull();
  });
});

describe('pagePathOf', () => {
  it('takes a path or a URL of the site, never another origin', () => {
    expect(pagePathOf('/blog/x/', ORIGIN)).toBe('/blog/x/');
    expect(pagePathOf('https://site.example/zh/', ORIGIN)).toBe('/zh/');
    expect(pagePathOf('//evil.example/x', ORIGIN)).toBeNull();
    expect(pagePathOf('http://site.example/x', ORIGIN)).toBeNull();
  });
});

describe('the submit_feedback tool', () => {
  it('is annotated as not read-only and says it stores what it is sent', () => {
    expect(submitFeedback.listing.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    expect(submitFeedback.listing.description).toContain('Stores what it is sent');
  });

  it('stores through the sink, and words a refusal for the model', async () => {
    s = setup();
    const ctx = { feedback: feedbackSink('mcp', s.deps) } as unknown as ToolContext;
    const ok = await submitFeedback.call({ page: '/blog/vector-search/', kind: 'missing', text: 'No price list.' }, ctx);
    expect(ok.structuredContent).toEqual({ status: 'stored', id: 'id-1', page: '/blog/vector-search', kind: 'missing' });
    const refused = await submitFeedback.call({ page: 'https://elsewhere.example/', kind: 'helpful' }, ctx);
    expect(refused).toMatchObject({ isError: true, content: [{ text: `Not stored: ${NOT_A_PAGE}.` }] });
    const nowhere = await submitFeedback.call({ page: '/products/gateway', kind: 'helpful' }, {} as ToolContext);
    expect(nowhere).toMatchObject({ isError: true, content: [{ text: 'Feedback is not taken here.' }] });
  });
});

describe('POST /api/feedback', () => {
  it('JSON: 201 with the receipt; a bad field is a 400 problem naming it; past the limit a 429 with Retry-After', async () => {
    s = setup();
    const ok = await post(JSON.stringify({ page: '/blog/vector-search/', kind: 'wrong', text: 'The port is 8443.' }), {
      'content-type': 'application/json',
    });
    expect(ok.status).toBe(201);
    expect(await ok.json()).toEqual({ status: 'stored', id: 'id-1', page: '/blog/vector-search', kind: 'wrong' });
    const bad = await post(JSON.stringify({ page: '/blog/vector-search/', kind: 'wrong' }), { 'content-type': 'application/json' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ invalid_params: [{ name: 'text', reason: 'text is required for wrong: say what' }] });
    for (let i = 1; i < FEEDBACK_RATE_LIMIT.limit; i++)
      await post(JSON.stringify({ page: '/products/gateway', kind: 'helpful' }), { 'content-type': 'application/json' });
    const limited = await post(JSON.stringify({ page: '/products/gateway', kind: 'helpful' }), { 'content-type': 'application/json' });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('3600');
  });

  it('the article form without JavaScript: 303 back to the page at the fragment that thanks, or that says it failed', async () => {
    s = setup();
    const form = { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' };
    const ok = await post('page=%2Fblog%2Fagent-tools-zh&kind=helpful', form);
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toBe('/blog/agent-tools-zh#feedback-sent');
    const failed = await post('page=%2Fblog%2Fagent-tools-zh&kind=wrong&text=', form);
    expect(failed.headers.get('location')).toBe('/blog/agent-tools-zh#feedback-failed');
    const notAPage = await post('page=%2Fblog%2Fnothing&kind=helpful', form);
    expect(notAPage.headers.get('location')).toBe('/#feedback-failed');
    // A repeated field is a 400 problem, not the last value silently taken.
    const repeated = await post('page=%2Fblog%2Fagent-tools-zh&kind=helpful&page=%2F', form);
    expect(repeated.status).toBe(400);
    expect(await s.feedback.list('feedback/')).toHaveLength(1);
    const elsewhere = await post('page=https%3A%2F%2Fevil.example%2F&kind=helpful', form);
    expect(elsewhere.headers.get('location')).toBe('/#feedback-failed');
  });

  it('refuses a browser posting from another site (403) and other methods (405), answers a preflight without CORS', async () => {
    s = setup();
    const cross = await post('page=%2F&kind=helpful', {
      'content-type': 'application/x-www-form-urlencoded',
      'sec-fetch-site': 'cross-site',
    });
    expect(cross.status).toBe(403);
    // An opaque origin is foreign even without Fetch Metadata (an older browser, a sandboxed frame).
    const opaque = await post('page=%2F&kind=helpful', { 'content-type': 'application/x-www-form-urlencoded', origin: 'null' });
    expect(opaque.status).toBe(403);
    expect(await s.feedback.list('feedback/')).toHaveLength(0);
    const get = await withErrors(PROBLEM_ERRORS, new Request(`${ORIGIN}/api/feedback`), () =>
      handleFeedback(new Request(`${ORIGIN}/api/feedback`), s.deps),
    );
    expect(get.status).toBe(405);
    // A preflight is answered (the methods it may use), without CORS headers: no other site may post.
    const preflight = await edge(
      (req: Request) => handleFeedback(req, s.deps),
      FEEDBACK_EDGE,
    )(new Request(`${ORIGIN}/api/feedback`, { method: 'OPTIONS', headers: { origin: 'https://evil.example' } }));
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('allow')).toBe('POST, OPTIONS');
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('feedbackBetween', () => {
  it('lists the days asked for, newest first, skipping what is not a feedback record', async () => {
    s = setup();
    await storeFeedback({ page: '/blog/vector-search', kind: 'helpful' }, 'api', s.deps);
    s.advance(86_400_000);
    await storeFeedback({ page: '/products/gateway', kind: 'helpful' }, 'api', s.deps);
    await s.feedback.set('feedback/2026-11-27T10:00:00.000Z/junk', { nope: true });
    const logged: string[] = [];
    const list = await feedbackBetween(s.feedback, '2026-11-26', '2026-11-27', (line) => logged.push(line));
    expect(list.map((r) => r.page)).toEqual(['/products/gateway', '/blog/vector-search']);
    expect(logged).toEqual(['feedback: skipped feedback/2026-11-27T10:00:00.000Z/junk: not a feedback record']);
    expect((await feedbackBetween(s.feedback, '2026-11-27', '2026-11-27')).map((r) => r.page)).toEqual(['/products/gateway']);
  });
});

describe('monthsBetween', () => {
  it('names each month a range touches, across a year', () => {
    expect(monthsBetween('2026-11-26', '2026-11-30')).toEqual(['2026-11']);
    expect(monthsBetween('2026-11-26', '2027-02-01')).toEqual(['2026-11', '2026-12', '2027-01', '2027-02']);
    expect(monthsBetween('2026-12-02', '2026-11-01')).toEqual([]);
  });
});
