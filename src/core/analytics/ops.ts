/**
 * The `/ops/` page: the usage report ({@link usageReport}, the same one `npm run stats` prints) for
 * the people who run the site, behind the operator secret `OPS_SECRET`.
 *
 * Sign-in is HTTP Basic (RFC 7617) with the secret as the password and any user name: every browser
 * asks for it with its own dialog and resends it on each page of the same path, without a script, a
 * cookie or a form the site would have to protect against cross-site requests; curl and scripts send
 * it with `-u`. The site is served over HTTPS only (HSTS), so the password never crosses in clear.
 * The secret is compared in constant time (kernel/crypto.ts `secretMatches`).
 *
 * Wrong secrets are limited per client network ({@link OPS_SIGN_IN_RATE_LIMIT}): every request that
 * presents a secret takes an admission before it is checked (so concurrent guesses cannot outrun the
 * limit) and the right secret gives it back (so the operator's own page views cost nothing).
 *
 * When `OPS_SECRET` is unset the page answers exactly as it does to a wrong secret: a stranger
 * cannot tell whether a secret is set, and the sign-in page tells the operator (in the dialog's
 * Cancel page) to set one; the function log says it too.
 * @module
 */
import { langTag, type Lang, negotiateLang, otherLang } from '../content/i18n.ts';
import { base64, secretMatches, sha256 } from '../kernel/crypto.ts';
import type { EdgeOptions } from '../kernel/handler.ts';
import { escapeHtml, PAGE_ERRORS } from '../kernel/html.ts';
import { consume, type RateLimitRule, refund } from '../kernel/rate-limit.ts';
import { withSecurityHeaders } from '../kernel/security-headers.ts';
import type { Store } from '../kernel/store.ts';
import { barSvg, stackedBarsSvg } from './charts.ts';
import { type OpsText, opsText } from './ops-text.ts';
import { addDays, DEFAULT_RANGE_DAYS, parseRange, type RangeProblem } from './range.ts';
import { AUDIENCES, dailySeries, group, reportSections, type UsageReport, usageReport } from './report.ts';
import { QUERY_MIN_NETWORKS } from './rollup.ts';

/** Wrong secrets a client network may try per window; then 429 until the window ends. */
export const OPS_SIGN_IN_RATE_LIMIT: RateLimitRule = { limit: 10, windowSeconds: 15 * 60 };
/** Shortest operator secret the environment schema accepts (src/core/config.ts). */
export const OPS_SECRET_MIN_LENGTH = 16;
/** The realm the browser's sign-in dialog names. */
export const OPS_REALM = 'Site operators';
/** Rows of a ranked list (queries, tools) shown; the rest are in `npm run stats`. */
const MAX_LIST_ROWS = 20;
/** The range links beside the form. */
const PRESET_DAYS = [7, 30, 90] as const;

/** One piece of feedback an agent or a reader sent (the slot the feedback store fills; issue 29, item 4). */
export interface FeedbackItem {
  page: string;
  kind: string;
  text: string;
  received_at: string;
}

export interface OpsDeps {
  /** OPS_SECRET; null when unset (every sign-in is refused). */
  secret: string | null;
  analytics: Store;
  /** The `ratelimit` store. */
  limits: Store;
  clientNetworkDigest: () => Promise<string>;
  now: () => number;
  /** The feedback received in a range of UTC days, newest first; absent: the page has no feedback section. */
  feedback?: (from: string, to: string) => Promise<FeedbackItem[]>;
  log?: (line: string) => void;
}

/** The password of an `Authorization: Basic` header (any user name); null when there is none or it does not decode. */
export function basicPassword(header: string | null): string | null {
  const match = /^basic[ ]+([A-Za-z0-9+/]+={0,2})[ ]*$/i.exec(header ?? '');
  if (!match) return null;
  try {
    const bytes = Uint8Array.from(atob(match[1]!), (c) => c.charCodeAt(0));
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    const colon = text.indexOf(':');
    return colon < 0 ? null : text.slice(colon + 1);
  } catch {
    return null;
  }
}

/** The page's language: `?lang=` when it names one, else the browser's Accept-Language. */
function langOf(req: Request, url: URL): Lang {
  const asked = url.searchParams.get('lang');
  return asked === 'zh' || asked === 'en' ? asked : negotiateLang(req.headers.get('accept-language'));
}

/** The edge of `/ops/`: a page, no CORS. */
export const OPS_EDGE: EdgeOptions = { methods: ['GET'], errors: PAGE_ERRORS };

/**
 * Handles `/ops/`: the sign-in challenge, the limit on wrong secrets, and the report of the range the
 * query asks for (`?from=&to=`, UTC days; default the last {@link DEFAULT_RANGE_DAYS} days).
 */
export async function handleOps(req: Request, deps: OpsDeps): Promise<Response> {
  const url = new URL(req.url);
  const lang = langOf(req, url);
  const text = opsText(lang);
  if (req.method !== 'GET') return message(405, lang, text.title, text.methodNotAllowed, { allow: 'GET, HEAD, OPTIONS' });
  const presented = req.headers.get('authorization');
  if (presented === null) return challenge(lang);
  const limitKey = `ops-signin/${await deps.clientNetworkDigest()}`;
  const admission = await consume(deps.limits, limitKey, OPS_SIGN_IN_RATE_LIMIT, deps.now());
  if (!admission.allowed) {
    const minutes = Math.max(1, Math.ceil(admission.retryAfterSeconds / 60));
    return message(429, lang, text.tooManyTitle, text.tooMany(minutes), { 'retry-after': String(admission.retryAfterSeconds) });
  }
  const password = basicPassword(presented);
  // Compared even when no secret is set (against a random value), so both cases take the same time.
  const matches = password !== null && (await secretMatches(password, deps.secret ?? crypto.randomUUID()));
  const right = matches && deps.secret !== null;
  if (!right) {
    // Logged only when someone tried a secret (a browser's first request never carries one), so a crawler adds no noise.
    if (deps.secret === null)
      (deps.log ?? console.warn)('/ops/: OPS_SECRET is not set, so every sign-in is refused (docs/operations.md, "Seeing usage")');
    return challenge(lang);
  }
  await refund(deps.limits, admission.record ?? limitKey);

  const today = new Date(deps.now()).toISOString().slice(0, 10);
  const range = parseRange({ from: url.searchParams.get('from'), to: url.searchParams.get('to') }, today);
  if (!range.ok) return page(400, lang, renderPage({ lang, text, today, problem: range.problem, query: url.searchParams }));
  const [report, feedback] = await Promise.all([
    usageReport(deps.analytics, range.from, range.to),
    deps.feedback ? deps.feedback(range.from, range.to) : Promise.resolve(undefined),
  ]);
  return page(200, lang, renderPage({ lang, text, today, report, feedback, query: url.searchParams }));
}

/** 401 with the Basic challenge; the body is what the browser shows when the operator cancels its dialog. */
function challenge(lang: Lang): Promise<Response> {
  const text = opsText(lang);
  return message(401, lang, text.signInTitle, text.signIn, { 'www-authenticate': `Basic realm="${OPS_REALM}", charset="UTF-8"` });
}

function message(status: number, lang: Lang, title: string, body: string, headers: Record<string, string>): Promise<Response> {
  return page(status, lang, documentOf(lang, title, `<main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(body)}</p></main>`), headers);
}

let styleSource: Promise<string> | undefined;
/** The CSP source of {@link OPS_STYLE}: its SHA-256, computed once per instance. */
const styleHash = (): Promise<string> => (styleSource ??= sha256(OPS_STYLE).then((digest) => `'sha256-${base64(digest)}'`));

/**
 * The answer: never stored by a cache or the browser, never indexed, framed or followed by a
 * Referer; the CSP allows the one stylesheet and nothing else (no script, no image, no font).
 */
async function page(status: number, lang: Lang, html: string, extra: Record<string, string> = {}): Promise<Response> {
  const headers = new Headers({
    'content-type': 'text/html; charset=utf-8',
    'content-language': langTag(lang),
    'cache-control': 'no-store',
    'x-robots-tag': 'noindex, nofollow',
    'referrer-policy': 'no-referrer',
    vary: 'Authorization, Accept-Language',
    'content-security-policy': `default-src 'none'; style-src ${await styleHash()}; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
    ...extra,
  });
  return withSecurityHeaders(new Response(html, { status, headers }));
}

function documentOf(lang: Lang, title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="${langTag(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(title)}</title>
<style>${OPS_STYLE}</style>
</head>
<body>
${body}
</body>
</html>
`;
}

interface PageInput {
  lang: Lang;
  text: OpsText;
  today: string;
  query: URLSearchParams;
  report?: UsageReport;
  feedback?: FeedbackItem[];
  problem?: RangeProblem;
}

/**
 * A box that scrolls sideways (a wide table on a phone): a keyboard user must reach it to scroll it, so it is a
 * named region in the tab order (axe scrollable-region-focusable); a `section` with a name is that region.
 */
const scrollRegion = (label: string, content: string): string =>
  `<section class="scroll" tabindex="0" aria-label="${escapeHtml(label)}">${content}</section>`;

const sum = (counts: Record<string, number>): number => Object.values(counts).reduce((a, n) => a + n, 0);

/** `?from=&to=&lang=` of a link on the page (the range and language kept). */
function href(params: { from?: string; to?: string; lang: Lang }): string {
  const query = new URLSearchParams();
  if (params.from) query.set('from', params.from);
  if (params.to) query.set('to', params.to);
  query.set('lang', params.lang);
  return `?${escapeHtml(query.toString())}`;
}

/** The whole page (or, with a `problem`, the form and what is wrong with the range). */
export function renderPage(input: PageInput): string {
  const { lang, text, report } = input;
  const nf = new Intl.NumberFormat(langTag(lang));
  const n = (value: number): string => nf.format(value);
  const from = report?.from ?? input.query.get('from') ?? '';
  const to = report?.to ?? input.query.get('to') ?? '';
  const days = report?.days.length ?? 0;

  const presets = PRESET_DAYS.map(
    (d) => `<a href="${href({ from: addDays(input.today, -(d - 1)), to: input.today, lang })}">${escapeHtml(text.presetDays(d))}</a>`,
  ).join(' ');
  const form = `<form method="get" class="range" aria-label="${escapeHtml(text.rangeForm)}">
<label>${escapeHtml(text.from)} <input type="date" name="from" value="${escapeHtml(from.slice(0, 10))}" required></label>
<label>${escapeHtml(text.to)} <input type="date" name="to" value="${escapeHtml(to.slice(0, 10))}" required></label>
<input type="hidden" name="lang" value="${lang}">
<button type="submit">${escapeHtml(text.show)}</button>
<span class="presets">${escapeHtml(text.presets)}: ${presets}</span>
</form>`;
  const switchLink = `<nav aria-label="${escapeHtml(text.languageNav)}"><a href="${href({ from, to, lang: otherLang(lang) })}" lang="${langTag(otherLang(lang))}" hreflang="${langTag(otherLang(lang))}">${escapeHtml(text.switchLabel)}</a></nav>`;
  const head = `<header><h1>${escapeHtml(text.heading)}</h1>${switchLink}</header>`;
  if (!report) {
    const problem = input.problem ? `<p class="error" role="alert">${escapeHtml(text.rangeProblem(input.problem))}</p>` : '';
    return documentOf(lang, text.title, `<main>${head}${form}${problem}</main>`);
  }

  const audiences = group(report.totals, 'requests.audience.');
  const requests = sum(audiences);
  const agents = (audiences['markdown-agent'] ?? 0) + (audiences['known-agent'] ?? 0) + (audiences['verified-agent'] ?? 0);
  const share =
    requests > 0 ? new Intl.NumberFormat(langTag(lang), { style: 'percent', maximumFractionDigits: 1 }).format(agents / requests) : '–';
  const tools = group(report.totals, 'mcp.tool.');
  const summary = [
    [text.totalRequests, n(requests), ''],
    [text.agentRequests, n(agents), text.agentShare(share)],
    [text.mcpToolCalls, n(sum(tools)), ''],
    [text.documentsRead, n(sum(group(report.totals, 'documents.'))), ''],
    [text.errors, n(sum(group(report.totals, 'errors.'))), ''],
  ]
    .map(
      ([label, value, note]) =>
        `<div class="figure"><dt>${escapeHtml(label!)}</dt><dd><span class="value">${value}</span>${note ? `<span class="note">${escapeHtml(note)}</span>` : ''}</dd></div>`,
    )
    .join('');

  const series = dailySeries(report, 'requests.audience.', AUDIENCES);
  const chart = stackedBarsSvg({
    id: 'audience-chart',
    title: text.audienceChart,
    description: text.audienceChartDescription(report.from, report.to),
    series,
    keys: AUDIENCES,
    label: (key) => text.audiences[key] ?? key,
    classOf: (key) => `a-${key}`,
    formatNumber: n,
  });
  const legend = `<ul class="legend">${AUDIENCES.map(
    (a) =>
      `<li><svg class="swatch" viewBox="0 0 10 10" aria-hidden="true" focusable="false"><rect class="a-${a}" width="10" height="10"/></svg>${escapeHtml(text.audiences[a] ?? a)}</li>`,
  ).join('')}</ul>`;
  const dayRows = series
    .map(
      (d) =>
        `<tr><th scope="row">${d.day}</th>${AUDIENCES.map((a) => `<td>${n(d.values[a]!)}</td>`).join('')}<td>${n(sum(d.values))}</td></tr>`,
    )
    .join('');
  const dayTable = `<details><summary>${escapeHtml(text.dayTable)}</summary>${scrollRegion(text.dayTable, `<table class="numbers"><thead><tr><th scope="col">${escapeHtml(text.day)}</th>${AUDIENCES.map((a) => `<th scope="col">${escapeHtml(text.audiences[a] ?? a)}</th>`).join('')}<th scope="col">${escapeHtml(text.total)}</th></tr></thead><tbody>${dayRows}</tbody></table>`)}</details>`;

  const ranked = (id: string, title: string, rows: readonly (readonly [string, number])[], head: string, note = ''): string => {
    const max = Math.max(0, ...rows.map(([, v]) => v));
    const body = rows.length
      ? `<table class="ranked"><thead><tr><th scope="col">${escapeHtml(head)}</th><th scope="col">${escapeHtml(text.count)}</th><th scope="col" class="bar-col"><span class="visually-hidden">${escapeHtml(text.share)}</span></th></tr></thead><tbody>${rows
          .slice(0, MAX_LIST_ROWS)
          .map(([name, v]) => `<tr><th scope="row">${escapeHtml(name)}</th><td>${n(v)}</td><td class="bar-col">${barSvg(v, max)}</td></tr>`)
          .join('')}</tbody></table>`
      : `<p class="empty">${escapeHtml(text.nothing)}</p>`;
    return `<section class="panel" aria-labelledby="${id}"><h2 id="${id}">${escapeHtml(title)}</h2>${note ? `<p class="note">${escapeHtml(note)}</p>` : ''}${body}</section>`;
  };

  const queryNote = text.queriesNote(QUERY_MIN_NETWORKS);
  const charts = [
    ranked('mcp-tools', text.mcpTools, Object.entries(tools), text.counter),
    ranked(
      'top-queries',
      text.topQueries,
      report.topQueries.map((q) => [q.query, q.n] as const),
      text.query,
      queryNote,
    ),
    ranked(
      'zero-queries',
      text.zeroQueries,
      report.zeroResultQueries.map((q) => [q.query, q.n] as const),
      text.query,
      text.zeroQueriesNote,
    ),
  ].join('');

  const shownElsewhere = new Set(['requests.audience.', 'mcp.tool.']);
  const others = reportSections(report)
    .filter((s) => !shownElsewhere.has(s.prefix))
    .map((s, i) => {
      const rows = Object.entries(s.counts);
      const title = text.sections[s.prefix] ?? s.title;
      const body = rows.length
        ? `<table class="compact"><tbody>${rows.map(([name, v]) => `<tr><th scope="row">${escapeHtml(name)}</th><td>${n(v)}</td></tr>`).join('')}</tbody><tfoot><tr><th scope="row">${escapeHtml(text.total)}</th><td>${n(s.total)}</td></tr></tfoot></table>`
        : `<p class="empty">${escapeHtml(text.nothing)}</p>`;
      return `<section class="panel small" aria-labelledby="section-${i}"><h3 id="section-${i}">${escapeHtml(title)}</h3>${body}</section>`;
    })
    .join('');

  const feedback =
    input.feedback === undefined
      ? ''
      : `<section aria-labelledby="feedback"><h2 id="feedback">${escapeHtml(text.feedback)}</h2>${
          input.feedback.length
            ? `${scrollRegion(
                text.feedbackTable,
                `<table class="numbers feedback"><thead><tr><th scope="col">${escapeHtml(text.feedbackReceived)}</th><th scope="col">${escapeHtml(text.feedbackPage)}</th><th scope="col">${escapeHtml(text.feedbackKind)}</th><th scope="col">${escapeHtml(text.feedbackText)}</th></tr></thead><tbody>${input.feedback
                  .map(
                    (f) =>
                      `<tr><td>${escapeHtml(f.received_at)}</td><td>${escapeHtml(f.page)}</td><td>${escapeHtml(f.kind)}</td><td>${escapeHtml(f.text)}</td></tr>`,
                  )
                  .join('')}</tbody></table>`,
              )}`
            : `<p class="empty">${escapeHtml(text.feedbackNone)}</p>`
        }</section>`;

  const body = `<main>${head}
<p class="range-line">${escapeHtml(text.rangeLine(report.from, report.to, days))}</p>
${form}
<section aria-labelledby="summary"><h2 id="summary" class="visually-hidden">${escapeHtml(text.summary)}</h2><dl class="figures">${summary}</dl></section>
<section aria-labelledby="audience"><h2 id="audience">${escapeHtml(text.audienceChart)}</h2>${chart}${legend}${dayTable}</section>
<div class="panels">${charts}</div>
${feedback}
<section aria-labelledby="all"><h2 id="all">${escapeHtml(text.allCounters)}</h2><div class="panels">${others}</div></section>
<footer><p>${escapeHtml(text.footer)}</p></footer>
</main>`;
  return documentOf(lang, `${text.title} · ${report.from} – ${report.to}`, body);
}

/**
 * The page's one stylesheet (allowed by its hash). Colours in custom properties, swapped for dark
 * mode; the audience colours are a colour-blind-safe set (Okabe–Ito) that keeps 3:1 against either
 * background; text keeps 4.5:1 in both themes (the browser test runs axe on each).
 */
export const OPS_STYLE = `:root{--bg:#fff;--fg:#1b1b1f;--muted:#4d5159;--line:#d5d8de;--panel:#f6f7f9;--accent:#1a56db;--error:#9b1c1c;
--a-browser:#0072b2;--a-markdown-agent:#d55e00;--a-known-agent:#009e73;--a-verified-agent:#7a3fa0;--a-unknown:#6b6b6b}
@media (prefers-color-scheme:dark){:root{--bg:#121316;--fg:#ececf1;--muted:#b4b8c2;--line:#3a3d45;--panel:#1c1e23;--accent:#8ab4ff;--error:#ff9c9c;
--a-browser:#56b4e9;--a-markdown-agent:#e69f00;--a-known-agent:#3cc79a;--a-verified-agent:#cc79a7;--a-unknown:#a0a0a0}}
*{box-sizing:border-box}body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.5 system-ui,"PingFang SC","Microsoft YaHei","Noto Sans CJK SC",sans-serif}
main{max-width:72rem;margin:0 auto;padding:1.5rem 1rem 3rem}header{display:flex;justify-content:space-between;align-items:baseline;gap:1rem}
h1{font-size:1.6rem;margin:0}h2{font-size:1.15rem;margin:2rem 0 .5rem}h3{font-size:1rem;margin:0 0 .5rem}a{color:var(--accent)}
.range-line,.note,footer{color:var(--muted)}.note{font-size:.9rem;margin:.25rem 0 .5rem}footer{margin-top:2.5rem;font-size:.9rem}
.range{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;padding:.75rem;background:var(--panel);border:1px solid var(--line);border-radius:6px}
input,button{font:inherit;color:var(--fg);background:var(--bg);border:1px solid var(--muted);border-radius:4px;padding:.3rem .5rem}
button{background:var(--accent);color:var(--bg);border-color:var(--accent);cursor:pointer}.presets a{margin-left:.5rem}
.error{color:var(--error);font-weight:600}
.figures{display:grid;grid-template-columns:repeat(auto-fit,minmax(11rem,1fr));gap:.75rem;margin:1.25rem 0 0}
.figure{background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:.75rem}.figure dt{color:var(--muted);font-size:.9rem}
.figure dd{margin:0}.value{display:block;font-size:1.6rem;font-weight:650;font-variant-numeric:tabular-nums}.figure .note{display:block;margin:0}
.chart{width:100%;height:auto;display:block}.chart .grid{stroke:var(--line);stroke-width:1}.chart .axis{stroke:var(--muted);stroke-width:1}
.chart .tick{fill:var(--muted);font-size:11px}
.a-browser{fill:var(--a-browser)}.a-markdown-agent{fill:var(--a-markdown-agent)}.a-known-agent{fill:var(--a-known-agent)}
.a-verified-agent{fill:var(--a-verified-agent)}.a-unknown{fill:var(--a-unknown)}
.legend{list-style:none;display:flex;flex-wrap:wrap;gap:.25rem 1.25rem;padding:0;margin:.5rem 0}.swatch{width:.8rem;height:.8rem;margin-right:.35rem;vertical-align:-.05rem}
details{margin:.5rem 0}summary{cursor:pointer;color:var(--accent)}.scroll{overflow-x:auto}
table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}th,td{padding:.25rem .5rem;border-bottom:1px solid var(--line);text-align:right}
th[scope=row],thead th:first-child{text-align:left;font-weight:500;overflow-wrap:anywhere}thead th{font-weight:600;color:var(--muted)}
.feedback td{text-align:left}.bar-col{width:40%}.bar{width:100%;height:.8rem;display:block}.bar-fill{fill:var(--a-browser)}
.panels{display:grid;grid-template-columns:repeat(auto-fit,minmax(20rem,1fr));gap:1rem}.panels .panel h2{margin-top:1rem}
.panel.small{background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:.75rem}tfoot th,tfoot td{font-weight:650;border-bottom:0}
.empty{color:var(--muted);font-style:italic}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}`;
