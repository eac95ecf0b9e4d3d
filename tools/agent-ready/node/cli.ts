#!/usr/bin/env node
/**
 * `agent-ready-check <url>` (in this repository: `npm run check:agent-ready -- <url>`): audits a site's agent
 * readiness against every public rubric in one scan (tools/agent-ready/README.md), prints each rubric's
 * checks and summary (or one JSON report), and exits non-zero when a check fails. stdout carries only the
 * report; notes, errors and progress go to stderr.
 */
import { parseArgs } from 'node:util';
import { dnsOverHttpsResolver } from '../dns-over-https.ts';
import { get, REQUEST_TIMEOUT_MS, SCAN_BUDGET_USED, USER_AGENT } from '../http.ts';
import { RUBRICS, type RubricReport, scan, type ScanReport, selectRubrics } from '../scan.ts';
import { DEFAULT_PAGE_SAMPLE } from '../site.ts';
import type { BehaviourNotRun, CheckContext, CheckResult } from '../types.ts';
import { createWebMcpProbe } from './webmcp-probe.ts';

/** Exit codes. */
export const EXIT = { ok: 0, failed: 1, usage: 2, unreachable: 3, internal: 4 } as const;

/** The whole scan's default budget (seconds): a slow site ends with a partial report instead of running for an hour. */
export const DEFAULT_BUDGET_S = 300;

/** Evidence lines shown per failing check in the human report (all of them are in --json). */
const EVIDENCE_SHOWN = 6;

const USAGE = `Usage: agent-ready-check <url> [options]
       (in this repository: npm run check:agent-ready -- <url> [options])

Audits the origin of <url> (http or https, localhost included) against every public agent-readiness
rubric in one scan. Rubrics: ${RUBRICS.slice(0, 4)
  .map((r) => r.id)
  .join(', ')},
${RUBRICS.slice(4)
  .map((r) => r.id)
  .join(', ')}.

  --json             print the report as JSON on stdout (nothing else goes to stdout)
  --rubric <ids>     only these rubrics (comma-separated ids)
  --behaviour        also exercise what the site advertises: MCP sessions and a read-only tool call,
                     OAuth registration + token + revocation (only when the site offers self-service
                     registration), an A2A message; without it every request is a GET
  --pages <n>        pages sampled for the per-page checks, the home page included (default ${DEFAULT_PAGE_SAMPLE})
  --no-browser       skip the checks that load / in Chromium (WebMCP; reported as neutral)
  --timeout-ms <ms>  per-request timeout (default ${REQUEST_TIMEOUT_MS})
  --budget-s <s>     the whole scan's time budget in whole seconds, 1 to 86400 (default ${DEFAULT_BUDGET_S}): when it runs out, no more
                     requests are sent, the report is marked incomplete and the run exits 1
  --doh <url>        check DNS-AID through this DNSSEC-validating DNS-over-HTTPS resolver (JSON API,
                     e.g. https://cloudflare-dns.com/dns-query); without it DNS-AID is "not checked"
  --progress         report progress on stderr even when it is not a terminal (on a terminal it is
                     always shown, on one line that is cleared at the end)
  -h, --help         print this help and exit

Exit codes: 0 no check failed, 1 a check failed, 2 usage error, 3 site unreachable,
4 checker error; 1 also when the --budget-s ran out. A warning (WARN) or a neutral check (--) never fails the run.`;

class UsageError extends Error {}

interface Options {
  origin: string;
  json: boolean;
  browser: boolean;
  behaviour: boolean;
  pages: number;
  rubrics: typeof RUBRICS;
  timeoutMs: number;
  budgetS: number;
  doh?: string;
  progress: boolean;
  /** Set when the given URL had a path: only the origin is audited. */
  note?: string;
}

function parseArgv(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        json: { type: 'boolean' },
        rubric: { type: 'string' },
        behaviour: { type: 'boolean' },
        behavior: { type: 'boolean' },
        pages: { type: 'string' },
        'no-browser': { type: 'boolean' },
        'timeout-ms': { type: 'string' },
        'budget-s': { type: 'string' },
        doh: { type: 'string' },
        progress: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function parseOptions(argv: string[]): Options | 'help' {
  const parsed = parseArgv(argv);
  if (parsed.values.help) return 'help';
  if (parsed.positionals.length !== 1) throw new UsageError(parsed.positionals.length ? 'give exactly one URL' : 'missing <url>');
  let url: URL;
  try {
    url = new URL(parsed.positionals[0]!);
  } catch {
    throw new UsageError(`not a URL: ${parsed.positionals[0]} (include the scheme, e.g. https://example.com)`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new UsageError(`only http and https URLs can be audited, not ${url.protocol}`);
  const timeout = parsed.values['timeout-ms'];
  const timeoutMs = timeout === undefined ? REQUEST_TIMEOUT_MS : Number(timeout);
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1) throw new UsageError(`--timeout-ms must be a positive integer, not ${timeout}`);
  const budget = parsed.values['budget-s'];
  // Decimal digits only: Number() would also take 0.5, 0x10 and 1e3, which the usage does not promise.
  const budgetS = budget === undefined ? DEFAULT_BUDGET_S : /^\d{1,5}$/.test(budget) ? Number(budget) : Number.NaN;
  if (!Number.isInteger(budgetS) || budgetS < 1 || budgetS > 86_400)
    throw new UsageError(`--budget-s must be an integer number of seconds from 1 to 86400, not ${budget}`);
  const pagesValue = parsed.values.pages;
  const pages = pagesValue === undefined ? DEFAULT_PAGE_SAMPLE : Number(pagesValue);
  if (!Number.isInteger(pages) || pages < 1 || pages > 100)
    throw new UsageError(`--pages must be an integer from 1 to 100, not ${pagesValue}`);
  let rubrics = RUBRICS;
  if (parsed.values.rubric !== undefined) {
    const ids = parsed.values.rubric
      .split(',')
      .map((id) => id.trim())
      .filter(Boolean);
    const selected = selectRubrics(ids);
    if (selected.unknown.length || !ids.length)
      throw new UsageError(
        `unknown rubric ${selected.unknown.join(', ') || '(none given)'}; known: ${RUBRICS.map((r) => r.id).join(', ')}`,
      );
    rubrics = selected.rubrics;
  }
  const doh = parsed.values.doh;
  if (doh !== undefined && !/^https?:\/\/[^/]/.test(doh)) throw new UsageError(`--doh needs the resolver's http(s) URL, not ${doh}`);
  const note =
    url.pathname !== '/' || url.search
      ? `auditing the origin ${url.origin} (the checks are site-wide; ${url.pathname}${url.search} is ignored)`
      : undefined;
  return {
    origin: url.origin,
    json: parsed.values.json ?? false,
    browser: !parsed.values['no-browser'],
    behaviour: !!(parsed.values.behaviour || parsed.values.behavior),
    pages,
    rubrics,
    timeoutMs,
    budgetS,
    doh,
    progress: parsed.values.progress ?? false,
    note,
  };
}

/**
 * Reaches `/` once before the checks. A site that does not answer at all is "unreachable"; one
 * whose home page redirects to another origin (http → https, apex → www) is audited at that
 * origin, and the switch is reported, never silent.
 */
async function resolveOrigin(
  options: Options,
  deadline: number,
): Promise<{ origin: string; notes: string[]; redirect?: string } | { unreachable: string } | { incomplete: string }> {
  const notes = options.note ? [options.note] : [];
  let origin = options.origin;
  let redirect: string | undefined;
  const budgetUsed = { incomplete: `the scan budget ran out before ${options.origin}/ answered` };
  for (let hop = 0; hop < 3; hop++) {
    // The budget covers this first request too: its timeout is whichever ends first.
    const left = deadline - Date.now();
    if (left <= 0) return budgetUsed;
    const timeoutMs = Math.min(options.timeoutMs, left);
    const res = await fetch(`${origin}/`, {
      method: 'GET',
      redirect: 'manual',
      headers: { 'user-agent': USER_AGENT },
      signal: AbortSignal.timeout(timeoutMs),
    }).catch((error: unknown) => error as Error);
    if (res instanceof Error) {
      if (res.name === 'TimeoutError' && timeoutMs < options.timeoutMs) return budgetUsed;
      const cause = (res as { cause?: { code?: string; message?: string } }).cause;
      const detail =
        res.name === 'TimeoutError' ? `no answer within ${options.timeoutMs} ms` : (cause?.code ?? cause?.message ?? res.message);
      return { unreachable: `cannot reach ${origin}: ${detail}` };
    }
    await res.body?.cancel();
    const location = res.status >= 300 && res.status < 400 ? res.headers.get('location') : null;
    const target = location ? new URL(location, `${origin}/`) : null;
    if (!target || target.origin === origin || !['http:', 'https:'].includes(target.protocol)) return { origin, notes, redirect };
    redirect ??= target.href;
    notes.push(`${origin}/ redirects to ${target.href}; auditing ${target.origin}`);
    origin = target.origin;
  }
  return { origin, notes, redirect };
}

const SYMBOL: Record<CheckResult['status'], string> = { pass: 'PASS', warn: 'WARN', fail: 'FAIL', neutral: ' -- ' };
const COLOUR: Record<CheckResult['status'], number> = { pass: 32, warn: 33, fail: 31, neutral: 90 };

function colour(text: string, status: CheckResult['status'], enabled: boolean): string {
  return enabled ? `\x1b[${COLOUR[status]}m${text}\x1b[0m` : text;
}

/** One rubric's section of the human report: its checks (with the rubric's ids), fixes, evidence of failures, summary. */
function formatRubric(rubric: RubricReport, colours: boolean): string[] {
  const width = Math.max(...rubric.checks.map((c) => c.id.length + (c.scored ? 0 : 2)));
  const lines = [`${rubric.name} ${rubric.version}`, `  ${rubric.definition}`];
  for (const check of rubric.checks) {
    const id = check.scored ? check.id : `${check.id} *`;
    lines.push(`  ${colour(SYMBOL[check.status], check.status, colours)}  ${id.padEnd(width + 2)}${check.reason}`);
    const indent = ' '.repeat(8 + width + 2);
    if (check.fix && check.status !== 'pass' && !check.reason.startsWith('not applicable')) lines.push(`${indent}fix: ${check.fix}`);
    if (check.evidence && (check.status === 'fail' || check.status === 'warn'))
      // A per-page check's evidence is its pages that do not pass, already bounded (tools/agent-ready/pages.ts): all shown.
      for (const line of check.pages ? check.evidence : check.evidence.slice(0, EVIDENCE_SHOWN)) lines.push(`${indent}> ${line}`);
  }
  const { pass, warn, fail, neutral } = rubric.counts;
  lines.push(`  = ${rubric.summary.headline}  [${pass} pass, ${warn} warn, ${fail} fail, ${neutral} neutral]`, '');
  return lines;
}

/** Why the scan only read: the flag was not given, or it was and the origin named redirects elsewhere. */
function readOnlyWhy(report: ScanReport): string {
  const notRun = report.options.behaviourNotRun;
  if (!notRun) return 'add --behaviour to exercise MCP, OAuth and A2A';
  return `--behaviour not run: ${notRun.requested}/ redirects to ${notRun.redirect}, and ${notRun.reason}`;
}

/** The human-readable report: every rubric, then one summary line per rubric. */
export function formatReport(report: ScanReport, colours = false): string {
  const lines = [
    `Agent readiness of ${report.url}`,
    `(${report.options.pages.length} page(s) sampled${report.options.behaviour ? ', behaviour exercised' : `, read-only: ${readOnlyWhy(report)}`}; * reported, not scored)`,
    ...(report.incomplete ? [`INCOMPLETE: ${report.incomplete}`] : []),
    '',
  ];
  for (const rubric of report.rubrics) lines.push(...formatRubric(rubric, colours));
  lines.push('Summary');
  const width = Math.max(...report.rubrics.map((r) => r.id.length));
  for (const rubric of report.rubrics) {
    const status = rubric.counts.fail ? 'fail' : rubric.counts.warn ? 'warn' : rubric.counts.pass ? 'pass' : 'neutral';
    lines.push(`  ${colour(SYMBOL[status], status, colours)}  ${rubric.id.padEnd(width + 2)}${rubric.summary.headline}`);
  }
  const { pass, warn, fail, neutral } = report.counts;
  lines.push(`  ${pass} pass, ${warn} warn, ${fail} fail, ${neutral} neutral`);
  if (report.incomplete) {
    const starved = report.rubrics.flatMap((r) => r.checks).filter((c) => c.reason.includes(SCAN_BUDGET_USED)).length;
    lines.push(`  INCOMPLETE: ${starved} check(s) not evaluated: ${report.incomplete}`);
  }
  return lines.join('\n');
}

/** Where progress goes: stderr, so stdout stays the report alone. */
export interface ProgressStream {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

/**
 * Progress on `stream`: on a terminal one line rewritten in place (`[3/19] Sitemap …`) and cleared
 * at the end; elsewhere, only when asked (`--progress`), one plain line per finished check.
 */
export function createProgress(
  stream: ProgressStream,
  forced: boolean,
): { step(text: string): void; done(id: string, status: string, index: number, total: number): void; clear(): void } {
  const tty = stream.isTTY === true;
  let shown = false;
  return {
    step(text) {
      if (!tty) return;
      const line = text.slice(0, Math.max(20, (stream.columns ?? 80) - 1));
      stream.write(`\r\x1b[2K${line}`);
      shown = true;
    },
    done(id, status, index, total) {
      if (!tty && forced) stream.write(`[${index + 1}/${total}] ${id}: ${status}\n`);
    },
    clear() {
      if (shown) stream.write('\r\x1b[2K');
      shown = false;
    },
  };
}

/** A budget spent before the site's first answer: the site may well be up, so this is exit 1 (incomplete), not 3. */
function incompleteBeforeScan(options: Options, message: string): number {
  process.stderr.write(`error: incomplete after ${options.budgetS} s (--budget-s): ${message}\n`);
  if (options.json) process.stdout.write(`${JSON.stringify({ url: options.origin, error: 'incomplete', message }, null, 2)}\n`);
  return EXIT.failed;
}

async function main(argv: string[]): Promise<number> {
  let options: Options | 'help';
  try {
    options = parseOptions(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`error: ${error.message}\n\n${USAGE}\n`);
    return EXIT.usage;
  }
  if (options === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return EXIT.ok;
  }
  const started = Date.now();
  const progress = createProgress(process.stderr, options.progress);
  progress.step(`Reaching ${options.origin} …`);
  const deadline = started + options.budgetS * 1000;
  const resolved = await resolveOrigin(options, deadline);
  progress.clear();
  if ('incomplete' in resolved) return incompleteBeforeScan(options, resolved.incomplete);
  if ('unreachable' in resolved) {
    process.stderr.write(`error: ${resolved.unreachable}\n`);
    if (options.json)
      process.stdout.write(`${JSON.stringify({ url: options.origin, error: 'unreachable', message: resolved.unreachable }, null, 2)}\n`);
    return EXIT.unreachable;
  }
  // Behaviour checks write (an MCP session, an OAuth registration): only to the origin the user named,
  // never to one a redirect leads to (a sign-in host in front of a protected preview, say).
  const behaviour = options.behaviour && resolved.origin === options.origin;
  const behaviourNotRun: BehaviourNotRun | undefined =
    options.behaviour && !behaviour
      ? {
          requested: options.origin,
          redirect: resolved.redirect ?? `${resolved.origin}/`,
          reason: 'it writes only to the origin named on the command line',
        }
      : undefined;
  if (options.behaviour && !behaviour)
    resolved.notes.push(
      `--behaviour not run: it writes only to the origin named on the command line, and ${options.origin}/ leads to ${resolved.origin}; name ${resolved.origin} to exercise it there`,
    );
  for (const note of resolved.notes) process.stderr.write(`note: ${note}\n`);
  const wantsBrowser = options.browser && options.rubrics.some((r) => ['isitagentready', 'lighthouse', 'agentready-org'].includes(r.id));
  const webMcp = wantsBrowser ? createWebMcpProbe() : undefined;
  let report: ScanReport;
  try {
    const resolveDns = options.doh ? dnsOverHttpsResolver(options.doh, fetch, options.timeoutMs) : undefined;
    const ctx: CheckContext = {
      baseUrl: resolved.origin,
      fetch,
      probeWebMcp: webMcp?.probe,
      requestTimeoutMs: options.timeoutMs,
      resolveDns,
      behaviour,
      ...(behaviourNotRun ? { behaviourNotRun } : {}),
      pageSample: options.pages,
      deadline,
    };
    const home = await get(ctx, '/');
    if (home.status === 0 && home.error === SCAN_BUDGET_USED)
      return incompleteBeforeScan(options, `the scan budget ran out before ${resolved.origin}/ answered`);
    if (home.status === 0) {
      process.stderr.write(`error: cannot reach ${resolved.origin}: ${home.error}\n`);
      return EXIT.unreachable;
    }
    report = await scan(ctx, options.rubrics, {
      onStart: (rubric, check, index, total) => progress.step(`[${index + 1}/${total}] ${rubric.id}: ${check.title} …`),
      onDone: (rubric, result, index, total) => progress.done(`${rubric.id} ${result.id}`, result.status, index, total),
    });
  } finally {
    progress.clear();
    await webMcp?.close();
  }
  process.stdout.write(
    options.json ? `${JSON.stringify(report, null, 2)}\n` : `${formatReport(report, process.stdout.isTTY && !process.env.NO_COLOR)}\n`,
  );
  if (report.incomplete) {
    process.stderr.write(`error: incomplete after ${options.budgetS} s (--budget-s): ${report.incomplete}\n`);
    return EXIT.failed;
  }
  return report.counts.fail > 0 ? EXIT.failed : EXIT.ok;
}

if (import.meta.main) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`checker error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = EXIT.internal;
    },
  );
}
