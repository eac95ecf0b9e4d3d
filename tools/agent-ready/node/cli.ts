/**
 * `npm run check:agent-ready -- <url> [--json] [--no-browser] [--timeout-ms N] [--doh URL] [--progress]`:
 * audits any site's agent readiness with the isitagentready.com scanner's checks (tools/agent-ready),
 * prints a table (or a JSON report) with the score and level, and exits non-zero when a check fails.
 * stdout carries only the report; notes, errors and progress go to stderr.
 */
import { parseArgs } from 'node:util';
import { dnsOverHttpsResolver } from '../dns-over-https.ts';
import { get, REQUEST_TIMEOUT_MS, USER_AGENT } from '../http.ts';
import { CHECKS, runChecks } from '../registry.ts';
import { buildReport, type Report } from '../score.ts';
import type { CheckContext, CheckResult } from '../types.ts';
import { createWebMcpProbe } from './webmcp-probe.ts';

/** Exit codes. */
export const EXIT = { ok: 0, failed: 1, usage: 2, unreachable: 3, internal: 4 } as const;

const USAGE = `Usage: npm run check:agent-ready -- <url> [--json] [--no-browser] [--timeout-ms <ms>] [--doh <url>] [--progress]

Audits the origin of <url> (http or https) for agent readiness: robots.txt, AI bot rules, Content
Signals, sitemap, Link headers, markdown negotiation, llms.txt, API catalog, OAuth metadata,
protected resource metadata, auth.md, MCP server card, A2A agent card, agent skills, AI catalog,
Web Bot Auth (key directory and its signatures), WebMCP (in Chromium) and DNS-AID.

  --json           print the report as JSON on stdout (nothing else goes to stdout)
  --no-browser     skip the WebMCP check (reported as neutral)
  --timeout-ms     per-request timeout (default ${REQUEST_TIMEOUT_MS})
  --doh <url>      check DNS-AID through this DNSSEC-validating DNS-over-HTTPS resolver (JSON API,
                   e.g. https://cloudflare-dns.com/dns-query); without it DNS-AID is "not checked"
                   and the report lists the records to add
  --progress       report progress on stderr even when it is not a terminal (on a terminal it is
                   always shown, on one line that is cleared at the end)
  -h, --help       print this help and exit

Exit codes: 0 no check failed, 1 a check failed, 2 usage error, 3 site unreachable,
4 checker error.`;

class UsageError extends Error {}

interface Options {
  origin: string;
  json: boolean;
  browser: boolean;
  timeoutMs: number;
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
        'no-browser': { type: 'boolean' },
        'timeout-ms': { type: 'string' },
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
    timeoutMs,
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
async function resolveOrigin(options: Options): Promise<{ origin: string; notes: string[] } | { unreachable: string }> {
  const notes = options.note ? [options.note] : [];
  let origin = options.origin;
  for (let hop = 0; hop < 3; hop++) {
    const res = await fetch(`${origin}/`, {
      method: 'GET',
      redirect: 'manual',
      headers: { 'user-agent': USER_AGENT },
      signal: AbortSignal.timeout(options.timeoutMs),
    }).catch((error: unknown) => error as Error);
    if (res instanceof Error) {
      const cause = (res as { cause?: { code?: string; message?: string } }).cause;
      const detail =
        res.name === 'TimeoutError' ? `no answer within ${options.timeoutMs} ms` : (cause?.code ?? cause?.message ?? res.message);
      return { unreachable: `cannot reach ${origin}: ${detail}` };
    }
    await res.body?.cancel();
    const location = res.status >= 300 && res.status < 400 ? res.headers.get('location') : null;
    const target = location ? new URL(location, `${origin}/`) : null;
    if (!target || target.origin === origin || !['http:', 'https:'].includes(target.protocol)) return { origin, notes };
    notes.push(`${origin}/ redirects to ${target.href}; auditing ${target.origin}`);
    origin = target.origin;
  }
  return { origin, notes };
}

const SYMBOL: Record<CheckResult['status'], string> = { pass: 'PASS', fail: 'FAIL', neutral: ' -- ' };

function colour(text: string, status: CheckResult['status'], enabled: boolean): string {
  if (!enabled) return text;
  const code = status === 'pass' ? 32 : status === 'fail' ? 31 : 90;
  return `\x1b[${code}m${text}\x1b[0m`;
}

/** The human-readable report. */
export function formatReport(report: Report, colours = false): string {
  const width = Math.max(...report.checks.map((c) => c.title.length));
  const lines = [`Agent readiness of ${report.url}`, ''];
  for (const check of report.checks) {
    const title = check.scored ? check.title : `${check.title} *`;
    lines.push(`  ${colour(SYMBOL[check.status], check.status, colours)}  ${title.padEnd(width + 2)}${check.reason}`);
    if (check.fix) lines.push(`  ${' '.repeat(6)}${' '.repeat(width + 2)}fix: ${check.fix}`);
  }
  const { pass, fail, neutral } = report.counts;
  lines.push('', `Score ${report.score}/100 (${pass} pass, ${fail} fail, ${neutral} neutral; * reported, not scored)`);
  lines.push(`Level ${report.level}: ${report.levelName}`);
  if (report.nextLevel)
    lines.push(`Next: Level ${report.nextLevel.level} (${report.nextLevel.name}) needs ${report.nextLevel.requirements.join('; ')}`);
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
  const progress = createProgress(process.stderr, options.progress);
  progress.step(`Reaching ${options.origin} …`);
  const resolved = await resolveOrigin(options);
  progress.clear();
  if ('unreachable' in resolved) {
    process.stderr.write(`error: ${resolved.unreachable}\n`);
    if (options.json)
      process.stdout.write(`${JSON.stringify({ url: options.origin, error: 'unreachable', message: resolved.unreachable }, null, 2)}\n`);
    return EXIT.unreachable;
  }
  for (const note of resolved.notes) process.stderr.write(`note: ${note}\n`);
  const webMcp = options.browser ? createWebMcpProbe() : undefined;
  let results: CheckResult[];
  try {
    const resolveDns = options.doh ? dnsOverHttpsResolver(options.doh, fetch, options.timeoutMs) : undefined;
    const ctx: CheckContext = {
      baseUrl: resolved.origin,
      fetch,
      probeWebMcp: webMcp?.probe,
      requestTimeoutMs: options.timeoutMs,
      resolveDns,
    };
    const home = await get(ctx, '/');
    if (home.status === 0) {
      process.stderr.write(`error: cannot reach ${resolved.origin}: ${home.error}\n`);
      return EXIT.unreachable;
    }
    results = await runChecks(ctx, CHECKS, {
      onStart: (check, index, total) => progress.step(`[${index + 1}/${total}] ${check.title} …`),
      onDone: (result, index, total) => progress.done(result.id, result.status, index, total),
    });
  } finally {
    progress.clear();
    await webMcp?.close();
  }
  const report = buildReport(resolved.origin, results);
  process.stdout.write(
    options.json ? `${JSON.stringify(report, null, 2)}\n` : `${formatReport(report, process.stdout.isTTY && !process.env.NO_COLOR)}\n`,
  );
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
