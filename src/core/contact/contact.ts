/**
 * `POST /api/contact`: validate, rate-limit (1 accepted enquiry per minute per client network, CAS in
 * Blobs), store durably, then notify an optional webhook; failed notifications are retried by a
 * scheduled function, so no enquiry is lost.
 * @module
 */
import * as v from 'valibot';
import { hasInvisibleCharacters } from '../kernel/visible-text.ts';
import { proseText } from '../kernel/prose-text.ts';
import { strictObjectMessage } from '../kernel/field-messages.ts';
import type { EdgeOptions } from '../kernel/handler.ts';
import { HttpProblem, badRequest, forbidden, type InvalidParam, PROBLEM_ERRORS, tooManyRequests } from '../kernel/problem.ts';
import { json, mediaTypeOf, readFields, requireMethod } from '../kernel/respond.ts';
import { isCrossSiteRequest } from '../kernel/same-origin.ts';
import { consume, refund } from '../kernel/rate-limit.ts';
import { CONTACT_FIELD_LIMITS, HONEYPOT_FIELD } from './contact-fields.ts';
import { messages, type Lang } from '../content/i18n.ts';
import type { Store } from '../kernel/store.ts';
import type { Usage } from '../kernel/metrics.ts';

/**
 * Bytes one character can take in a form-encoded body: a UTF-16 unit of the Basic Multilingual Plane
 * (every Han character) is up to 3 UTF-8 bytes, each sent as `%XX`. A JSON body (`\uXXXX`, 6 bytes)
 * and a supplementary-plane character (12 bytes for 2 units) take less.
 */
export const FORM_ENCODED_BYTES_PER_CHARACTER = 9;
/** Room for field names, separators, the hidden `lang` field and the honeypot, in bytes. */
const CONTACT_BODY_OVERHEAD_BYTES = 1024;
/**
 * Largest accepted request body: every field at its longest, in the worst-case form encoding, so a
 * message within the form's maxlength is never refused for its size (5,000 Han characters form-encode
 * to 45,000 bytes). About 51 KB, still bounded (docs/limits.md).
 */
export const CONTACT_BODY_LIMIT_BYTES =
  Object.values(CONTACT_FIELD_LIMITS).reduce((sum, chars) => sum + chars, 0) * FORM_ENCODED_BYTES_PER_CHARACTER +
  CONTACT_BODY_OVERHEAD_BYTES;
/** Accepted enquiries per client network and window. */
export const CONTACT_RATE_LIMIT = { limit: 1, windowSeconds: 60 } as const;
export { CONTACT_FIELD_LIMITS, HONEYPOT_FIELD };
/** Notification attempts before an enquiry's notification is marked failed (it stays stored). */
export const MAX_NOTIFY_ATTEMPTS = 8;
/** Backoff between notification attempts, doubled each time. */
export const NOTIFY_BACKOFF_BASE_SECONDS = 300;

/**
 * A one-line field: trimmed, bounded, and free of control and invisible characters (kernel/visible-text.ts),
 * which could clear an operator's terminal, forge lines in `npm run enquiries` or hide text.
 */
const trimmed = (max: number, label: string) =>
  v.pipe(
    v.string('expected text'),
    v.trim(),
    v.maxLength(max, `${label} must be at most ${max} characters`),
    v.check((text) => !hasInvisibleCharacters(text), `${label} must not contain control or invisible characters`),
  );

export const ContactSchema = v.object(
  {
    name: v.pipe(trimmed(CONTACT_FIELD_LIMITS.name, 'name'), v.minLength(1, 'name is required'), v.description('Your name.')),
    email: v.pipe(
      trimmed(CONTACT_FIELD_LIMITS.email, 'email'),
      v.minLength(1, 'email is required'),
      v.email('email must be a valid address, like name@example.com'),
      v.description('Where the answer goes.'),
    ),
    company: v.optional(v.pipe(trimmed(CONTACT_FIELD_LIMITS.company, 'company'), v.description('Your organisation.')), ''),
    /** The product the enquiry is about (a product slug from the product page's link), if any. */
    product: v.optional(
      v.pipe(
        trimmed(CONTACT_FIELD_LIMITS.product, 'product'),
        v.description(
          "Slug of the product the enquiry is about, one of the site's products (as list_products and the product pages give it); empty when none. Any other value is refused (400, `invalid_params` names product and lists the slugs).",
        ),
      ),
      '',
    ),
    message: v.optional(
      // Several lines, but nothing invisible: the same rule as feedback text (kernel/prose-text.ts).
      v.pipe(proseText('message', CONTACT_FIELD_LIMITS.message), v.description('What you need: product, scale, timeline.')),
      '',
    ),
  },
  // A missing field reads "name is required", not valibot's "Invalid key: Expected "name" but received undefined".
  strictObjectMessage,
);
export type ContactInput = v.InferOutput<typeof ContactSchema>;

/** The request body as documented: the fields plus the honeypot. */
export const ContactRequestSchema = v.object({
  ...ContactSchema.entries,
  [HONEYPOT_FIELD]: v.optional(
    v.pipe(
      v.string(),
      v.maxLength(0, 'leave empty: bots fill this field'),
      v.description('Leave empty: a spam trap that people never see.'),
    ),
  ),
});
export const ContactAcceptedSchema = v.object({
  status: v.literal('accepted'),
  id: v.pipe(v.string(), v.description('Identifier of the stored enquiry.')),
  reference: v.pipe(v.string(), v.description('A short reference to quote in replies, e.g. 7F3A-09C2 (the first 8 hex digits of the id).')),
});

/** The reference a person quotes: the id's first eight hex digits, upper case, in two groups ("7F3A-09C2"). */
export function referenceOf(id: string): string {
  const hex = id
    .replace(/[^0-9a-f]/gi, '')
    .slice(0, 8)
    .toUpperCase();
  return hex.length === 8 ? `${hex.slice(0, 4)}-${hex.slice(4)}` : id;
}

export type NotificationState =
  | { status: 'not_configured' }
  | { status: 'sent'; attempts: number; sent_at: string }
  | { status: 'pending'; attempts: number; last_error: string; next_attempt_at: string }
  | { status: 'failed'; attempts: number; last_error: string };

export interface Enquiry extends ContactInput {
  id: string;
  received_at: string;
  /** HMAC-SHA-256 of the client's network (its IPv4 address or IPv6 /64) under the server's secret: never an address. */
  client_ip_digest: string;
  user_agent: string;
  notification: NotificationState;
}

/** Sends one enquiry to the operator's webhook; throws on failure. */
export type Notifier = (enquiry: Enquiry) => Promise<void>;

export interface ContactDeps {
  enquiries: Store;
  limits: Store;
  /** Keyed digest of the client's network, an IPv4 address or IPv6 /64 (kernel/ip-ranges.ts, ip-digest.ts): no address reaches the core. */
  clientNetworkDigest: string;
  now: () => number;
  newId: () => string;
  notify: Notifier | null;
  /** What this request counts (kernel/metrics.ts). */
  usage?: Pick<Usage, 'count'>;
  /** The site's product slugs: the only values `product` takes besides empty (the form's list, the /products pages). */
  products: readonly string[];
}

/** Why `product` is refused: it is none of `products` (the site's slugs). */
export function unknownProductReason(products: readonly string[]): string {
  return products.length
    ? `product must be one of the site's products: ${products.join(', ')} (or empty)`
    : 'product must be empty: the site lists no products';
}

/**
 * Validates raw fields; returns the enquiry input or one entry per bad field. `product` is empty or one of
 * `products` (the site's slugs): an enquiry about a product the site does not list would be stored with no name.
 */
export function validateContact(
  fields: Record<string, unknown>,
  products: readonly string[],
): { ok: true; value: ContactInput } | { ok: false; invalid: InvalidParam[] } {
  const result = v.safeParse(ContactSchema, fields, { abortEarly: false });
  if (result.success) {
    const { product } = result.output;
    if (product !== '' && !products.includes(product))
      return { ok: false, invalid: [{ name: 'product', reason: unknownProductReason(products) }] };
    return { ok: true, value: result.output };
  }
  const invalid = new Map<string, string>();
  for (const issue of result.issues) {
    const name = v.getDotPath(issue) ?? 'body';
    // A field that is not a string is named, like every other reason ("company must be text").
    if (!invalid.has(name)) invalid.set(name, issue.message === 'expected text' ? `${name} must be text` : issue.message);
  }
  return { ok: false, invalid: [...invalid].map(([name, reason]) => ({ name, reason })) };
}

/** Store key: time-ordered, so a listing reads oldest first. */
export function enquiryKey(enquiry: Pick<Enquiry, 'received_at' | 'id'>): string {
  return `enquiry/${enquiry.received_at}/${enquiry.id}`;
}

export type ContactResult =
  | { kind: 'accepted'; id: string }
  | { kind: 'invalid'; invalid: InvalidParam[]; fields: Record<string, string> }
  | { kind: 'limited'; retryAfterSeconds: number };

/** The enquiry pipeline, independent of how the answer is rendered (JSON or HTML form). */
export async function submitContact(fields: Record<string, unknown>, deps: ContactDeps, userAgent: string): Promise<ContactResult> {
  const honeypot = fields[HONEYPOT_FIELD];
  if (typeof honeypot === 'string' && honeypot.trim() !== '') {
    // A bot: answer as if accepted so it learns nothing, store nothing.
    return { kind: 'accepted', id: deps.newId() };
  }
  const checked = validateContact(fields, deps.products);
  if (!checked.ok) {
    const echo = Object.fromEntries(Object.entries(fields).filter(([k, val]) => typeof val === 'string' && k !== HONEYPOT_FIELD)) as Record<
      string,
      string
    >;
    return { kind: 'invalid', invalid: checked.invalid, fields: echo };
  }
  const limitKey = `contact/${deps.clientNetworkDigest}`;
  const decision = await consume(deps.limits, limitKey, CONTACT_RATE_LIMIT, deps.now());
  if (!decision.allowed) return { kind: 'limited', retryAfterSeconds: decision.retryAfterSeconds };

  const enquiry: Enquiry = {
    id: deps.newId(),
    received_at: new Date(deps.now()).toISOString(),
    ...checked.value,
    client_ip_digest: deps.clientNetworkDigest,
    user_agent: userAgent.slice(0, 300),
    notification: deps.notify
      ? { status: 'pending', attempts: 0, last_error: '', next_attempt_at: new Date(deps.now()).toISOString() }
      : { status: 'not_configured' },
  };
  const key = enquiryKey(enquiry);
  try {
    // The retry's marker first: an enquiry stored without one would never be retried; a marker without an enquiry is dropped.
    if (deps.notify) await deps.enquiries.set(pendingKey(key), 0);
    const written = await deps.enquiries.set(key, enquiry, { onlyIfNew: true });
    if (!written.modified) throw new Error(`enquiry key ${key} already exists`);
  } catch (error) {
    // Not stored, so not accepted: give the quota back and let the caller report a server error.
    await refund(deps.limits, decision.record ?? limitKey).catch(() => undefined);
    throw error;
  }
  deps.usage?.count('contact.enquiry');
  if (deps.notify) await deliver(deps.enquiries, key, enquiry, deps.notify, deps.now);
  return { kind: 'accepted', id: enquiry.id };
}

/** Tries the webhook once and records the outcome on the stored enquiry. */
export async function deliver(
  store: Store,
  key: string,
  enquiry: Enquiry,
  notify: Notifier,
  now: () => number,
): Promise<NotificationState> {
  const attempts = ('attempts' in enquiry.notification ? enquiry.notification.attempts : 0) + 1;
  let state: NotificationState;
  try {
    await notify(enquiry);
    state = { status: 'sent', attempts, sent_at: new Date(now()).toISOString() };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    state =
      attempts >= MAX_NOTIFY_ATTEMPTS
        ? { status: 'failed', attempts, last_error: message }
        : {
            status: 'pending',
            attempts,
            last_error: message,
            next_attempt_at: new Date(now() + NOTIFY_BACKOFF_BASE_SECONDS * 1000 * 2 ** (attempts - 1)).toISOString(),
          };
  }
  await store.set(key, { ...enquiry, notification: state });
  if (state.status !== 'pending') await store.delete(pendingKey(key));
  return state;
}

/** `pending/<enquiry key>`: marks an enquiry whose notification is still to be delivered, so the retry reads only those. */
export const PENDING_PREFIX = 'pending/';
const pendingKey = (key: string): string => `${PENDING_PREFIX}${key}`;
/** Set once the markers of enquiries stored before markers existed have been written. */
const PENDING_INDEX_BUILT_KEY = 'notification-index/built';

/**
 * The scheduled retry: every pending notification whose time has come gets one more attempt. It
 * reads only the enquiries marked pending (its cost follows the undelivered ones, not every enquiry
 * ever received), skips a record that does not parse (logged), and stops starting deliveries once
 * `budgetMs` is spent (the next run goes on).
 */
export async function retryNotifications(
  store: Store,
  notify: Notifier,
  now: () => number,
  options: { budgetMs?: number; log?: (line: string) => void } = {},
): Promise<{ retried: number; sent: number; unreadable: number }> {
  const started = now();
  const log = options.log ?? console.warn;
  let retried = 0;
  let sent = 0;
  let unreadable = 0;
  if (!(await store.get(PENDING_INDEX_BUILT_KEY))) {
    // Once: mark the enquiries that were pending before markers existed.
    for (const key of await store.list('enquiry/')) {
      const record = await store.get<Enquiry>(key).catch(() => null);
      if (record?.value.notification?.status === 'pending') await store.set(pendingKey(key), 0);
    }
    await store.set(PENDING_INDEX_BUILT_KEY, { at: new Date(now()).toISOString() });
  }
  for (const marker of await store.list(PENDING_PREFIX)) {
    if (options.budgetMs !== undefined && now() - started >= options.budgetMs) break;
    const key = marker.slice(PENDING_PREFIX.length);
    let record: Awaited<ReturnType<typeof store.get<Enquiry>>>;
    try {
      record = await store.get<Enquiry>(key);
    } catch (error) {
      unreadable++;
      log(`contact retry: skipped ${key}: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    const state = record?.value.notification;
    if (!record || state?.status !== 'pending') {
      await store.delete(marker);
      continue;
    }
    if (Date.parse(state.next_attempt_at) > now()) continue;
    retried++;
    if ((await deliver(store, key, record.value, notify, now)).status === 'sent') sent++;
  }
  return { retried, sent, unreadable };
}

/** A notifier that POSTs the enquiry as JSON to `url`, failing on non-2xx or after `timeoutMs`. */
export function webhookNotifier(url: string, fetchImpl: typeof fetch, timeoutMs = 5000): Notifier {
  return async (enquiry) => {
    const res = await fetchImpl(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'contact.enquiry', enquiry }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!res.ok) throw new Error(`webhook answered ${res.status}`);
  };
}

/** Whether the client wants an HTML page back (a browser form post without JavaScript). */
function wantsHtml(req: Request, form: boolean): boolean {
  const accept = req.headers.get('accept') ?? '';
  return form && accept.includes('text/html');
}

/**
 * The form's language when its body could not be read (too large, not UTF-8): the page it was sent
 * from (a same-origin Referer keeps its path), else the reader's first Accept-Language.
 */
function langOfUnreadForm(req: Request): Lang {
  const referer = req.headers.get('referer') ?? '';
  if (referer) {
    try {
      return new URL(referer).pathname.startsWith('/zh/') ? 'zh' : 'en';
    } catch {
      // An unparsable Referer says nothing: fall through to Accept-Language.
    }
  }
  return /^\s*zh\b/i.test(req.headers.get('accept-language') ?? '') ? 'zh' : 'en';
}

/** Renders the no-JavaScript answers in the form's language: the form again with errors, or a redirect to the thank-you page. */
export interface ContactPages {
  formWithErrors(lang: Lang, fields: Record<string, string>, invalid: InvalidParam[], status: number, notice?: string): Response;
  thanksPath(lang: Lang): string;
}

/** The language of the page the form was sent from (its hidden `lang` field); English otherwise. */
function langOf(fields: Record<string, unknown>): Lang {
  return fields.lang === 'zh' ? 'zh' : 'en';
}

/** 400 for invalid fields: one `invalid_params` entry per field. */
export const invalidEnquiry = (invalid: InvalidParam[]): HttpProblem =>
  badRequest(
    `${invalid.length} field${invalid.length === 1 ? ' is' : 's are'} invalid: ${invalid.map((i) => i.name).join(', ')}.`,
    invalid,
  );
/** 429 once the per-IP limit is reached. */
export const enquiryLimited = (retryAfterSeconds: number): HttpProblem =>
  tooManyRequests(retryAfterSeconds, `One enquiry per minute per client. Try again in ${retryAfterSeconds} seconds.`);
/** 403 for a browser's post from another site (CSRF), refused before the body is read. */
export const crossSitePost = (): HttpProblem =>
  forbidden('This form can only be sent from this site: open the contact page here and send it again.');

/** The edge of `POST /api/contact`: problem JSON, and no CORS (a browser on another site may not post). */
export const CONTACT_EDGE: EdgeOptions = { methods: ['POST'], errors: PROBLEM_ERRORS };

export async function handleContact(req: Request, deps: ContactDeps, pages: ContactPages): Promise<Response> {
  requireMethod(req, ['POST']);
  // CSRF: a browser's post from another site is refused before the body is read.
  if (isCrossSiteRequest(req, req.url)) throw crossSitePost();
  let read: Awaited<ReturnType<typeof readFields>>;
  try {
    read = await readFields(req, CONTACT_BODY_LIMIT_BYTES);
  } catch (error) {
    // A browser form post without JavaScript gets the form page again, saying what went wrong, not problem JSON.
    if (error instanceof HttpProblem && wantsHtml(req, mediaTypeOf(req) === 'application/x-www-form-urlencoded')) {
      const lang = langOfUnreadForm(req);
      const t = messages(lang);
      return pages.formWithErrors(
        lang,
        {},
        [],
        error.status,
        error.status === 413 ? t.errTooLarge(CONTACT_FIELD_LIMITS.message) : t.errUnreadable,
      );
    }
    throw error;
  }
  const { fields, form } = read;
  const html = wantsHtml(req, form);
  const result = await submitContact(fields, deps, req.headers.get('user-agent') ?? '');
  switch (result.kind) {
    case 'accepted':
      return html
        ? new Response(null, {
            status: 303,
            headers: {
              location: `${pages.thanksPath(langOf(fields))}?id=${encodeURIComponent(result.id)}&ref=${encodeURIComponent(referenceOf(result.id))}`,
            },
          })
        : json({ status: 'accepted', id: result.id, reference: referenceOf(result.id) }, { headers: { 'cache-control': 'no-store' } });
    case 'invalid':
      if (html) return pages.formWithErrors(langOf(fields), result.fields, result.invalid, 400);
      throw invalidEnquiry(result.invalid);
    case 'limited':
      if (html) {
        const lang = langOf(fields);
        const response = pages.formWithErrors(
          lang,
          Object.fromEntries(Object.entries(fields).filter(([, val]) => typeof val === 'string')) as Record<string, string>,
          [],
          429,
          messages(lang).errLimited(result.retryAfterSeconds),
        );
        response.headers.set('retry-after', String(result.retryAfterSeconds));
        return response;
      }
      throw enquiryLimited(result.retryAfterSeconds);
  }
}
