import { memoryStore } from '../kernel/memory-store.ts';
import type { Store } from '../kernel/store.ts';
import { describe, expect, it } from 'vitest';
import { useBlobs } from '../../../tests/support/blobs.ts';
import { sendJson, useFakeUpstream } from '../../../tests/support/fake-upstream.ts';
import { ipDigest } from '../kernel/ip-digest.ts';
import { HttpProblem, problemBody } from '../kernel/problem.ts';
import {
  CONTACT_BODY_LIMIT_BYTES,
  CONTACT_FIELD_LIMITS,
  type ContactPages,
  type Enquiry,
  handleContact,
  MAX_NOTIFY_ATTEMPTS,
  referenceOf,
  retryNotifications,
  submitContact,
  validateContact,
  webhookNotifier,
} from './contact.ts';

const blobs = useBlobs();
const webhook = useFakeUpstream();
let clock = Date.parse('2026-11-20T10:00:00Z');
const now = (): number => clock;
let n = 0;
const SECRET = 'unit-test-secret-of-at-least-32-characters';
const deps = async (ip: string, notify: ReturnType<typeof webhookNotifier> | null) => ({
  enquiries: blobs.store('enquiries'),
  limits: blobs.store('ratelimit'),
  clientNetworkDigest: await ipDigest(SECRET, ip),
  now,
  newId: () => `id-${++n}`,
  notify,
  products: PRODUCTS,
});
/** The site's product slugs (generated/data/contact-page.json in the function). */
const PRODUCTS = ['llm-gateway', 'agent-studio'];
const valid = { name: 'Wang Fang', email: 'wang@example.com', company: '', message: 'hello' };

async function stored(): Promise<Enquiry[]> {
  const store = blobs.store('enquiries');
  return Promise.all((await store.list('enquiry/')).map(async (k) => (await store.get<Enquiry>(k))!.value));
}

describe('validateContact', () => {
  it('trims, defaults optional fields and reports every bad field once', () => {
    expect(validateContact({ name: '  Li ', email: ' li@example.com ' }, PRODUCTS)).toEqual({
      ok: true,
      value: { name: 'Li', email: 'li@example.com', company: '', product: '', message: '' },
    });
    const bad = validateContact({ name: '   ', email: 'a@b', company: 5 }, PRODUCTS);
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.invalid.map((i) => i.name).sort()).toEqual(['company', 'email', 'name']);
  });

  it('words a missing or non-text field for people, not as the validation library does (issue 28 stranger #17)', () => {
    const missing = validateContact({ email: 'li@example.com', company: 5 }, PRODUCTS);
    expect(!missing.ok && missing.invalid).toEqual([
      { name: 'name', reason: 'name is required' },
      { name: 'company', reason: 'company must be text' },
    ]);
  });

  it('refuses a product the site does not list, naming the field and the slugs it takes (stranger s10b: "nope" was stored)', () => {
    const unknown = validateContact({ name: 'Li', email: 'li@example.com', product: 'nope' }, PRODUCTS);
    expect(!unknown.ok && unknown.invalid).toEqual([
      { name: 'product', reason: "product must be one of the site's products: llm-gateway, agent-studio (or empty)" },
    ]);
    // Empty (no product) stays fine, and so does every listed slug.
    expect(validateContact({ name: 'Li', email: 'li@example.com', product: '' }, PRODUCTS).ok).toBe(true);
    for (const product of PRODUCTS) expect(validateContact({ name: 'Li', email: 'li@example.com', product }, PRODUCTS).ok).toBe(true);
    const none = validateContact({ name: 'Li', email: 'li@example.com', product: 'llm-gateway' }, []);
    expect(!none.ok && none.invalid).toEqual([{ name: 'product', reason: 'product must be empty: the site lists no products' }]);
  });

  it('keeps the product the form was opened for, trimmed, and refuses an overlong one', () => {
    const ok = validateContact({ name: 'Li', email: 'li@example.com', product: ' llm-gateway ' }, PRODUCTS);
    expect(ok.ok && ok.value.product).toBe('llm-gateway');
    const long = validateContact({ name: 'Li', email: 'li@example.com', product: 'x'.repeat(81) }, PRODUCTS);
    expect(!long.ok && long.invalid.map((i) => i.name)).toEqual(['product']);
  });
});

describe('one-line fields refuse control and invisible characters', () => {
  it.each([
    ['name', 'Eve\u001b[2J'],
    ['name', 'Eve\u2028Approved: yes'],
    ['company', 'Acme\u200B'],
    ['company', '\u202Eevil'],
    ['company', 'Acme\u{E0041}'],
    ['email', 'eve@example.com\u0007'],
  ])('%s %j', (field, value) => {
    const result = validateContact({ ...valid, [field]: value }, PRODUCTS);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.invalid).toEqual([{ name: field, reason: expect.stringContaining('control or invisible characters') }]);
  });

  // The stranger's list (report s8a, finding 4): each one stored raw before, each refused now, naming the field.
  it.each([
    ['NUL', 'a\u0000b'],
    ['BS', 'a\u0008b'],
    ['ESC (terminal escape)', 'a\u001b[2Jb'],
    ['DEL', 'a\u007fb'],
    ['U+202E (bidi override)', 'a\u202eb'],
    ['U+200B (zero-width space)', 'a\u200bb'],
    ['U+0085 (next line)', 'a\u0085b'],
    ['U+2028 (line separator)', 'a\u2028b'],
    ['a tag character', 'a\u{E0041}b'],
  ])('message with %s is refused, naming the field', (_name, message) => {
    const result = validateContact({ ...valid, message }, PRODUCTS);
    expect(!result.ok && result.invalid).toEqual([
      {
        name: 'message',
        reason: 'message must be plain text: line breaks and emoji are fine, but not control, bidirectional or invisible characters',
      },
    ]);
  });

  it('a message keeps its lines (CRLF from a textarea as LF) and tabs, trimmed', () => {
    const result = validateContact({ ...valid, message: '  Line one\r\n\tLine two\rLine three\n\n' }, PRODUCTS);
    expect(result.ok && result.value.message).toBe('Line one\n\tLine two\nLine three');
  });

  it('CJK text, the ideographic space and a multi-line message with emoji are accepted', () => {
    const result = validateContact({ ...valid, name: '王　小明', company: '示例科技', message: 'Hello\nteam 👩‍💻' }, PRODUCTS);
    expect(result.ok).toBe(true);
  });
});

describe('referenceOf', () => {
  it('is the first eight hex digits of the id, upper case, in two groups', () => {
    expect(referenceOf('7f3a09c2-1b2c-4d5e-8f90-123456789abc')).toBe('7F3A-09C2');
  });
});

describe('enquiries and the notification webhook', () => {
  it('stores the enquiry without personal IP data and marks it sent when the webhook answers 2xx', async () => {
    webhook.respondWith((_req, _body, res) => sendJson(res, 204, ''));
    const result = await submitContact(valid, await deps('203.0.113.1', webhookNotifier(`${webhook.url}/hook`, fetch, 500)), 'test-agent');
    expect(result.kind).toBe('accepted');
    const [enquiry] = (await stored()).filter((e) => result.kind === 'accepted' && e.id === result.id);
    expect(enquiry!.notification.status).toBe('sent');
    expect(JSON.stringify(enquiry)).not.toContain('203.0.113.1');
    expect(enquiry!.client_ip_digest).toBe(await ipDigest(SECRET, '203.0.113.1'));
    expect(enquiry!.client_ip_digest).not.toBe(await ipDigest('another-secret-of-at-least-32-characters', '203.0.113.1'));
    expect(JSON.parse(webhook.requests.at(-1)!.body).enquiry.email).toBe('wang@example.com');
  });

  it('keeps the enquiry when the webhook fails and delivers it on a later scheduled retry', async () => {
    webhook.respondWith((_req, _body, res) => sendJson(res, 500, { error: 'down' }));
    const notify = webhookNotifier(`${webhook.url}/hook`, fetch, 500);
    const result = await submitContact(valid, await deps('203.0.113.2', notify), 'test-agent');
    expect(result.kind).toBe('accepted');
    const id = result.kind === 'accepted' ? result.id : '';
    const pending = (await stored()).find((e) => e.id === id)!;
    expect(pending.notification).toMatchObject({ status: 'pending', attempts: 1, last_error: 'webhook answered 500' });

    // Not due yet: nothing retried.
    expect((await retryNotifications(blobs.store('enquiries'), notify, now)).retried).toBe(0);
    clock += 10 * 60_000;
    webhook.respondWith((_req, _body, res) => sendJson(res, 200, { ok: true }));
    expect(await retryNotifications(blobs.store('enquiries'), notify, now)).toEqual({ retried: 1, sent: 1, unreadable: 0 });
    expect((await stored()).find((e) => e.id === id)!.notification).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('stops retrying after MAX_NOTIFY_ATTEMPTS but never deletes the enquiry', async () => {
    webhook.respondWith((req) => req.socket.destroy());
    const notify = webhookNotifier(`${webhook.url}/hook`, fetch, 500);
    const result = await submitContact(valid, await deps('203.0.113.3', notify), 'test-agent');
    const id = result.kind === 'accepted' ? result.id : '';
    for (let i = 0; i < MAX_NOTIFY_ATTEMPTS + 2; i++) {
      clock += 24 * 3600_000;
      await retryNotifications(blobs.store('enquiries'), notify, now);
    }
    const enquiry = (await stored()).find((e) => e.id === id)!;
    expect(enquiry.notification).toMatchObject({ status: 'failed', attempts: MAX_NOTIFY_ATTEMPTS });
    expect(enquiry.email).toBe('wang@example.com');
  });
});

describe('CSRF on POST /api/contact', () => {
  const pages: ContactPages = {
    thanksPath: () => '/contact/thanks',
    formWithErrors: (_lang, _fields, _invalid, status) => new Response('form', { status, headers: { 'content-type': 'text/html' } }),
  };
  const SITE = 'https://site.example';
  const formPost = (headers: Record<string, string>) =>
    new Request(`${SITE}/api/contact`, {
      method: 'POST',
      body: new URLSearchParams(valid),
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', ...headers },
    });

  it('refuses a cross-site form post with 403', async () => {
    for (const headers of [
      { origin: 'https://evil.example' },
      { 'sec-fetch-site': 'cross-site' },
      // An opaque origin, with or without Fetch Metadata (report s8a, finding 8: without, it was stored).
      { origin: 'null' },
      { origin: 'null', 'sec-fetch-site': 'same-origin' },
    ] as Record<string, string>[]) {
      const error = await handleContact(formPost(headers), await deps('203.0.113.50', null), pages).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(HttpProblem);
      expect((error as HttpProblem).status).toBe(403);
    }
  });

  it('accepts a same-origin form post (303) and a JSON post without browser headers (200)', async () => {
    const form = await handleContact(formPost({ origin: SITE, 'sec-fetch-site': 'same-origin' }), await deps('203.0.113.51', null), pages);
    expect(form.status).toBe(303);
    const jsonPost = new Request(`${SITE}/api/contact`, {
      method: 'POST',
      body: JSON.stringify(valid),
      headers: { 'content-type': 'application/json' },
    });
    const res = await handleContact(jsonPost, await deps('203.0.113.52', null), pages);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'accepted' });
  });
});

describe('an unknown product on POST /api/contact (stranger s10b)', () => {
  const SITE = 'https://site.example';
  const forms: { status: number; invalid: unknown }[] = [];
  const pages: ContactPages = {
    thanksPath: () => '/contact/thanks',
    formWithErrors: (_lang, _fields, invalid, status) => {
      forms.push({ status, invalid });
      return new Response('form', { status, headers: { 'content-type': 'text/html' } });
    },
  };

  it('JSON: 400 problem naming product and the slugs it takes; nothing stored, no quota spent', async () => {
    const before = (await stored()).length;
    const post = new Request(`${SITE}/api/contact`, {
      method: 'POST',
      body: JSON.stringify({ ...valid, product: 'nope' }),
      headers: { 'content-type': 'application/json' },
    });
    const error = await handleContact(post, await deps('203.0.113.70', null), pages).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpProblem);
    const problem = problemBody(error as HttpProblem);
    expect(problem).toMatchObject({
      status: 400,
      detail: '1 field is invalid: product.',
      invalid_params: [{ name: 'product', reason: "product must be one of the site's products: llm-gateway, agent-studio (or empty)" }],
    });
    expect((await stored()).length).toBe(before);
    // The same client may send the corrected enquiry at once.
    const fixed = new Request(`${SITE}/api/contact`, {
      method: 'POST',
      body: JSON.stringify({ ...valid, product: 'agent-studio' }),
      headers: { 'content-type': 'application/json' },
    });
    expect((await handleContact(fixed, await deps('203.0.113.70', null), pages)).status).toBe(200);
  });

  it('a form post without JavaScript: the form again, 400, with the error beside the product field', async () => {
    const post = new Request(`${SITE}/api/contact`, {
      method: 'POST',
      body: new URLSearchParams({ ...valid, product: 'nope' }),
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', origin: SITE },
    });
    const res = await handleContact(post, await deps('203.0.113.71', null), pages);
    expect(res.status).toBe(400);
    expect(forms.at(-1)).toEqual({
      status: 400,
      invalid: [{ name: 'product', reason: "product must be one of the site's products: llm-gateway, agent-studio (or empty)" }],
    });
  });
});

describe('body size: every field at its longest, form-encoded', () => {
  const SITE = 'https://site.example';
  const seen: { lang: string; status: number; notice?: string }[] = [];
  const pages: ContactPages = {
    thanksPath: () => '/zh/contact/thanks',
    formWithErrors: (lang, _fields, _invalid, status, notice) => {
      seen.push({ lang, status, ...(notice ? { notice } : {}) });
      return new Response(`<p>${notice ?? ''}</p>`, { status, headers: { 'content-type': 'text/html; charset=utf-8' } });
    },
  };
  const longest = {
    name: '王'.repeat(CONTACT_FIELD_LIMITS.name),
    email: `${'a'.repeat(64)}@${'b'.repeat(CONTACT_FIELD_LIMITS.email - 69)}.com`,
    company: '公'.repeat(CONTACT_FIELD_LIMITS.company),
    message: '网'.repeat(CONTACT_FIELD_LIMITS.message),
    lang: 'zh',
  };
  const formPost = (body: string, headers: Record<string, string> = {}) =>
    new Request(`${SITE}/api/contact`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', origin: SITE, ...headers },
    });

  it('accepts a Chinese enquiry with every field at its maximum, sent by a form without JavaScript (303)', async () => {
    const body = new URLSearchParams({ ...longest, website: '' }).toString();
    expect(new TextEncoder().encode(body).byteLength).toBeGreaterThan(45_000);
    const res = await handleContact(formPost(body), await deps('203.0.113.60', null), pages);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toMatch(/^\/zh\/contact\/thanks\?id=/);
  });

  it("answers a form post over the limit with the form page in the sender's language, not problem JSON", async () => {
    const body = new URLSearchParams({ ...longest, message: '网'.repeat(CONTACT_FIELD_LIMITS.message * 2) }).toString();
    const res = await handleContact(formPost(body, { referer: `${SITE}/zh/contact` }), await deps('203.0.113.61', null), pages);
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(seen.at(-1)).toMatchObject({ lang: 'zh', status: 413 });
    expect(seen.at(-1)!.notice).toContain('5000 个字符以内');
    // Without a Referer, the reader's Accept-Language decides; a JSON client still gets the problem.
    await handleContact(formPost(body, { 'accept-language': 'en-GB,zh;q=0.5' }), await deps('203.0.113.62', null), pages);
    expect(seen.at(-1)).toMatchObject({ lang: 'en', status: 413 });
    const jsonPost = new Request(`${SITE}/api/contact`, {
      method: 'POST',
      body: JSON.stringify({ ...valid, message: 'x'.repeat(CONTACT_BODY_LIMIT_BYTES) }),
      headers: { 'content-type': 'application/json' },
    });
    const error = await handleContact(jsonPost, await deps('203.0.113.63', null), pages).catch((e: unknown) => e);
    expect((error as HttpProblem).status).toBe(413);
  });
});

describe('the notification retry at scale', () => {
  const pendingEnquiry = (id: string, at: string): Enquiry => ({
    ...valid,
    product: '',
    id,
    received_at: at,
    client_ip_digest: 'd',
    user_agent: 'ua',
    notification: { status: 'pending', attempts: 1, last_error: 'webhook answered 500', next_attempt_at: at },
  });

  it('reads only the enquiries still to deliver, however many were delivered; a record that does not parse is skipped', async () => {
    const store = memoryStore();
    for (let i = 0; i < 200; i++)
      await store.set(`enquiry/2026-11-01T00:00:${String(i % 60).padStart(2, '0')}.000Z/s${i}`, {
        ...pendingEnquiry(`s${i}`, '2026-11-01T00:00:00.000Z'),
        notification: { status: 'sent', attempts: 1, sent_at: '2026-11-01T00:00:01.000Z' },
      });
    await retryNotifications(store, async () => {}, now); // the one-time marking of enquiries from before markers
    const due = 'enquiry/2026-11-02T00:00:00.000Z/p1';
    const broken = 'enquiry/2026-11-02T00:00:01.000Z/p2';
    await store.set(due, pendingEnquiry('p1', '2026-11-02T00:00:00.000Z'));
    await store.set(`pending/${due}`, 0);
    await store.set(`pending/${broken}`, 0);
    let reads = 0;
    const counting: Store = {
      ...store,
      get: async <T>(key: string) => {
        reads++;
        if (key === broken) throw new SyntaxError('Unexpected end of JSON input');
        return store.get<T>(key);
      },
    };
    const logged: string[] = [];
    const result = await retryNotifications(counting, async () => {}, now, { log: (line) => logged.push(line) });
    expect(result).toEqual({ retried: 1, sent: 1, unreadable: 1 });
    expect(reads).toBeLessThanOrEqual(4);
    expect(logged).toEqual([expect.stringContaining(broken)]);
    expect(await store.list('pending/')).toEqual([`pending/${broken}`]);
  });

  it('enquiries left pending before markers existed are found once and retried', async () => {
    const store = memoryStore();
    await store.set('enquiry/2026-11-02T00:00:00.000Z/old', pendingEnquiry('old', '2026-11-02T00:00:00.000Z'));
    const delivered: string[] = [];
    expect(await retryNotifications(store, async (e) => void delivered.push(e.id), now)).toEqual({ retried: 1, sent: 1, unreadable: 0 });
    expect(delivered).toEqual(['old']);
    expect(await store.list('pending/')).toEqual([]);
  });
});
