/**
 * Feedback from agents and readers (issue 29): the `submit_feedback` tool's sink, `POST
 * /api/feedback` (JSON, or the form at the end of each article, which works without JavaScript),
 * and the listing `npm run feedback` and `/ops/` read. Each piece is stored once, under
 * `feedback/<received_at>/<id>` in the `feedback` store, with the keyed digest of the client's
 * network (never an address). Limited per network and for everyone per day, so strangers cannot
 * fill the store.
 * @module
 */
import * as v from 'valibot';
import {
  FEEDBACK_KINDS,
  type FeedbackInput,
  FeedbackInputSchema,
  type FeedbackKind,
  type FeedbackReceipt,
  type FeedbackSink,
} from '../agent-tools/submit-feedback.ts';
import type { CatalogReader } from '../content/catalog-reader.ts';
import { LANGS } from '../content/i18n.ts';
import type { Usage } from '../kernel/metrics.ts';
import { paths } from '../kernel/paths.ts';
import type { EdgeOptions } from '../kernel/handler.ts';
import { badRequest, forbidden, type HttpProblem, type InvalidParam, PROBLEM_ERRORS, tooManyRequests } from '../kernel/problem.ts';
import { busyText, consume, consumeShared, type RateLimitRule, refund } from '../kernel/rate-limit.ts';
import { json, readFields, requireMethod } from '../kernel/respond.ts';
import { isCrossSiteRequest } from '../kernel/same-origin.ts';
import type { Store } from '../kernel/store.ts';

/** Pieces of feedback one client network may send. */
export const FEEDBACK_RATE_LIMIT: RateLimitRule = { limit: 10, windowSeconds: 3600 };
/** Pieces everyone together may send in a day (spread over shards: kernel/rate-limit.ts consumeShared). */
export const FEEDBACK_DAILY_LIMIT: RateLimitRule = { limit: 2000, windowSeconds: 86_400 };
const FEEDBACK_DAILY_SHARDS = 8;
/** Largest request body of `POST /api/feedback`. */
export const FEEDBACK_BODY_LIMIT_BYTES = 4 * 1024;
/** The fragment the article's form is sent back to: the page shows its thanks (CSS :target, no script). */
export const FEEDBACK_SENT_FRAGMENT = 'feedback-sent';
export const FEEDBACK_FAILED_FRAGMENT = 'feedback-failed';

/** Where a piece of feedback came from. */
export type FeedbackChannel = 'mcp' | 'a2a' | 'api' | 'form';

export interface FeedbackRecord {
  id: string;
  received_at: string;
  page: string;
  kind: FeedbackKind;
  text: string;
  channel: FeedbackChannel;
  /** HMAC-SHA-256 of the client's network under the server's secret: never an address. */
  client_ip_digest: string;
}

export interface FeedbackDeps {
  feedback: Store;
  limits: Store;
  /** The site's public origin: a page must be one of its own. */
  origin: string;
  /** Which paths are pages of the site. */
  pages: SitePages;
  clientNetworkDigest: () => Promise<string>;
  now: () => number;
  newId: () => string;
  usage?: Pick<Usage, 'count'>;
}

/** Store key: time-ordered, so a listing reads oldest first and a date range is a key range. */
export const feedbackKey = (record: Pick<FeedbackRecord, 'received_at' | 'id'>): string => `feedback/${record.received_at}/${record.id}`;

/** The path of `page` when it is on the site at `origin` (a URL there, or a path), else null. */
export function pagePathOf(page: string, origin: string): string | null {
  let url: URL;
  try {
    url = new URL(page, origin);
  } catch {
    return null;
  }
  if (url.origin !== new URL(origin).origin) return null;
  return url.pathname;
}

/** What tells a page of the site from any other path: the catalogue (documents, products, categories). */
export type SitePages = Pick<CatalogReader, 'document' | 'products' | 'categories'>;

/** The pages every build has, in both languages: the homes, listings, hubs and forms. */
const FIXED_PAGES: ReadonlySet<string> = new Set(
  LANGS.flatMap((lang) => [
    paths.langHome(lang),
    paths.langBlog(lang),
    paths.langSolutions(lang),
    paths.langProducts(lang),
    paths.langDevelopers(lang),
    paths.langContact(lang),
    paths.langSearch(lang),
    paths.langGlossary(lang),
  ]).concat([paths.blog, paths.apiDocs, paths.apiAll]),
);

/**
 * The canonical path of the page `page` names (a URL of the site or a path; a trailing slash, a
 * query, a fragment and a `.md` twin suffix are dropped), when it is a page of this site: a fixed
 * page, an article or solution, a product, a category. Anything else is null, so nobody files
 * feedback under paths of their choosing.
 */
export function sitePagePathOf(page: string, origin: string, pages: SitePages): string | null {
  const raw = pagePathOf(page, origin);
  if (raw === null) return null;
  let path = raw.replace(/\/index\.md$/, '/').replace(/\.md$/, '');
  try {
    path = decodeURIComponent(path);
  } catch {
    return null;
  }
  path = path.replace(/\/+$/, '') || '/';
  if (FIXED_PAGES.has(path)) return path;
  const slug = path.slice(path.lastIndexOf('/') + 1);
  // A document or category is also built in the other language's chrome (paths.ts inChrome): /zh/solutions/<slug>.
  const inAnyChrome = (own: string): boolean => LANGS.some((lang) => path === own || path === `/${lang}${own}`);
  const doc = pages.document(slug);
  if (doc && inAnyChrome(doc.path)) return path;
  if (pages.products.some((product) => LANGS.some((lang) => paths.langProduct(lang, product.slug) === path))) return path;
  if (pages.categories.some((category) => inAnyChrome(paths.category(category.slug)))) return path;
  return null;
}

/** Why feedback was not stored, in words for the client. */
export type FeedbackRefusal = { kind: 'invalid'; invalid: InvalidParam[] } | { kind: 'limited'; retryAfterSeconds: number; detail: string };

/** Validates, limits and stores one piece of feedback. */
export async function storeFeedback(
  fields: unknown,
  channel: FeedbackChannel,
  deps: FeedbackDeps,
): Promise<{ ok: true; receipt: FeedbackReceipt } | { ok: false; refusal: FeedbackRefusal }> {
  const parsed = v.safeParse(FeedbackInputSchema, fields, { abortEarly: false });
  if (!parsed.success) {
    const invalid = new Map<string, string>();
    for (const issue of parsed.issues) {
      const name = v.getDotPath(issue) ?? 'body';
      if (!invalid.has(name)) invalid.set(name, issue.message);
    }
    return { ok: false, refusal: { kind: 'invalid', invalid: [...invalid].map(([name, reason]) => ({ name, reason })) } };
  }
  const input: FeedbackInput = parsed.output;
  const page = sitePagePathOf(input.page, deps.origin, deps.pages);
  if (page === null)
    return {
      ok: false,
      refusal: {
        kind: 'invalid',
        invalid: [{ name: 'page', reason: `page must be a page of ${deps.origin}: an article, solution, product or listing` }],
      },
    };
  if ((input.kind === 'wrong' || input.kind === 'outdated' || input.kind === 'missing') && input.text === '')
    return { ok: false, refusal: { kind: 'invalid', invalid: [{ name: 'text', reason: `text is required for ${input.kind}: say what` }] } };

  const network = await deps.clientNetworkDigest();
  const limitKey = `feedback/${network}`;
  const nowMs = deps.now();
  const own = await consume(deps.limits, limitKey, FEEDBACK_RATE_LIMIT, nowMs);
  if (!own.allowed)
    return {
      ok: false,
      refusal: {
        kind: 'limited',
        retryAfterSeconds: own.retryAfterSeconds,
        detail: own.contended
          ? busyText('Feedback is')
          : `At most ${FEEDBACK_RATE_LIMIT.limit} pieces of feedback per hour from one network. Try again in ${own.retryAfterSeconds} s.`,
      },
    };
  const everyone = await consumeShared(deps.limits, 'feedback-daily', FEEDBACK_DAILY_LIMIT, FEEDBACK_DAILY_SHARDS, nowMs);
  if (!everyone.allowed) {
    await refund(deps.limits, own.record ?? limitKey).catch(() => undefined);
    return {
      ok: false,
      refusal: {
        kind: 'limited',
        retryAfterSeconds: everyone.retryAfterSeconds,
        detail: 'The site takes no more feedback today. Try again tomorrow.',
      },
    };
  }
  const record: FeedbackRecord = {
    id: deps.newId(),
    received_at: new Date(nowMs).toISOString(),
    page,
    kind: input.kind,
    text: input.text,
    channel,
    client_ip_digest: network,
  };
  try {
    const written = await deps.feedback.set(feedbackKey(record), record, { onlyIfNew: true });
    if (!written.modified) throw new Error(`feedback key ${feedbackKey(record)} already exists`);
  } catch (error) {
    // Not stored, so not taken: give the network its quota back.
    await refund(deps.limits, own.record ?? limitKey).catch(() => undefined);
    throw error;
  }
  // Under `contact.`: the report's "Contact and feedback" section (analytics/report.ts REPORT_SECTIONS) lists that prefix alone.
  deps.usage?.count(`contact.feedback.${channel}.${record.kind}`);
  return { ok: true, receipt: { status: 'stored', id: record.id, page, kind: record.kind } };
}

/** The sink the `submit_feedback` tool writes to (its refusals as one sentence for the model). */
export function feedbackSink(channel: 'mcp' | 'a2a', deps: FeedbackDeps): FeedbackSink {
  return async (input) => {
    const stored = await storeFeedback(input, channel, deps);
    if (stored.ok) return stored;
    const { refusal } = stored;
    return {
      ok: false,
      message: refusal.kind === 'limited' ? refusal.detail : `Not stored: ${refusal.invalid.map((i) => i.reason).join('; ')}.`,
    };
  };
}

/** 400: one `invalid_params` entry per field. */
export const invalidFeedback = (invalid: InvalidParam[]): HttpProblem =>
  badRequest(`${invalid.length === 1 ? 'A field is' : 'Fields are'} invalid: ${invalid.map((i) => i.name).join(', ')}.`, invalid);

/** The edge of `POST /api/feedback`: a preflight learns the method and nothing more (no CORS, so no browser on another site may post). */
export const FEEDBACK_EDGE: EdgeOptions = { methods: ['POST'], errors: PROBLEM_ERRORS };

/**
 * `POST /api/feedback`: JSON (an agent, a script) answered with the receipt or an RFC 9457 problem;
 * the article's form (form-encoded, a browser asking for HTML) answered with a 303 back to the page,
 * at the fragment that shows the thanks or the failure without JavaScript.
 */
export async function handleFeedback(req: Request, deps: FeedbackDeps): Promise<Response> {
  requireMethod(req, ['POST']);
  // CSRF: a browser's post from another site is refused before the body is read.
  if (isCrossSiteRequest(req, req.url)) throw forbidden('Feedback can only be sent from this site: open the page here and send it again.');
  const { fields, form } = await readFields(req, FEEDBACK_BODY_LIMIT_BYTES);
  const stored = await storeFeedback(fields, form ? 'form' : 'api', deps);
  if (form && (req.headers.get('accept') ?? '').includes('text/html')) {
    const page = typeof fields.page === 'string' ? (sitePagePathOf(fields.page, deps.origin, deps.pages) ?? '/') : '/';
    const fragment = stored.ok ? FEEDBACK_SENT_FRAGMENT : FEEDBACK_FAILED_FRAGMENT;
    return new Response(null, { status: 303, headers: { location: `${page}#${fragment}`, 'cache-control': 'no-store' } });
  }
  if (stored.ok) return json(stored.receipt, { status: 201, headers: { 'cache-control': 'no-store' } });
  const { refusal } = stored;
  if (refusal.kind === 'limited') throw tooManyRequests(refusal.retryAfterSeconds, refusal.detail);
  throw invalidFeedback(refusal.invalid);
}

/** The months (`YYYY-MM`) that the UTC days `from`..`to` touch: the key prefixes a range lists. */
export function monthsBetween(from: string, to: string): string[] {
  const months: string[] = [];
  let [year, month] = from.slice(0, 7).split('-').map(Number) as [number, number];
  const last = to.slice(0, 7);
  for (let m = `${from.slice(0, 7)}`; m <= last && months.length < 1200; ) {
    months.push(m);
    month++;
    if (month > 12) {
      month = 1;
      year++;
    }
    m = `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}`;
  }
  return months;
}

/**
 * Every piece of feedback received in the UTC days `from`..`to` (inclusive), newest first; unreadable
 * records are skipped. Lists only the months the range touches, not the whole store.
 */
export async function feedbackBetween(
  store: Store,
  from: string,
  to: string,
  log: (line: string) => void = console.warn,
): Promise<FeedbackRecord[]> {
  const keys: string[] = [];
  for (const month of monthsBetween(from, to))
    for (const key of await store.list(`feedback/${month}`)) {
      const day = key.slice('feedback/'.length, 'feedback/'.length + 10);
      if (day >= from && day <= to) keys.push(key);
    }
  const records: FeedbackRecord[] = [];
  for (const key of keys.sort().reverse()) {
    try {
      const found = await store.get<FeedbackRecord>(key);
      if (found && typeof found.value?.id === 'string' && FEEDBACK_KINDS.includes(found.value.kind)) records.push(found.value);
      else if (found) log(`feedback: skipped ${key}: not a feedback record`);
    } catch (error) {
      log(`feedback: skipped ${key}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return records;
}
