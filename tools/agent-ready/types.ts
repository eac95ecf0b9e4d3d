/**
 * Shapes shared by every agent-readiness check: the context a check runs in and the result it
 * returns. Checks are plain async functions of the context, so tests inject `fetch` (an in-memory
 * site, or a tracing wrapper) and the WebMCP browser probe.
 * @module
 */

/**
 * `pass` and `fail` are scored; `warn` is a rubric's middle grade (AFDocs, a SHOULD of AgentReady.org: it never
 * fails a run); `neutral` (not applicable, or not checkable here) is excluded.
 */
export type CheckStatus = 'pass' | 'warn' | 'fail' | 'neutral';

/** BCP 14 strength of a requirement (AgentReady.org). */
export type Strength = 'MUST' | 'SHOULD' | 'MAY';

/** Loads a page in a real browser and returns the names of the WebMCP tools it registered, or null when no browser could run. */
export type WebMcpProbe = (url: string) => Promise<string[] | null>;

/** One SVCB or HTTPS resource record (RFC 9460) in presentation form, e.g. `1 example.com. alpn="h2" port=443`. */
export interface DnsRecord {
  name: string;
  type: 'SVCB' | 'HTTPS';
  data: string;
}

/** A resolver's answer: the records, and whether the resolver validated them with DNSSEC (the AD bit). */
export interface DnsAnswer {
  records: DnsRecord[];
  dnssecValidated: boolean;
}

/** Looks up SVCB or HTTPS records (a validating resolver, e.g. DNS over HTTPS); throws when it cannot. */
export type DnsResolver = (name: string, type: DnsRecord['type']) => Promise<DnsAnswer>;

/** What a check may use: the site's origin and the I/O it is allowed to do. */
export interface CheckContext {
  /** The audited origin, e.g. `https://example.com` (no path, no trailing slash). */
  baseUrl: string;
  /** Every HTTP request goes through this (the checks never call the global fetch). */
  fetch: typeof fetch;
  /** The WebMCP probe; absent = the webMcp check is neutral ("no browser"). */
  probeWebMcp?: WebMcpProbe;
  /** Per-request budget; defaults to REQUEST_TIMEOUT_MS (tests shorten it). */
  requestTimeoutMs?: number;
  /** A DNSSEC-validating resolver; absent = the dnsAid check explains the records and is neutral ("not checked"). */
  resolveDns?: DnsResolver;
  /**
   * Run the behaviour checks (`--behaviour`): requests other than GET (MCP, A2A, OAuth registration). Absent =
   * the scan only reads (GET), and the checks that need more are neutral ("needs --behaviour").
   */
  behaviour?: boolean;
  /** Set when `--behaviour` was asked for but not run: the checks that need it say why instead of "needs --behaviour". */
  behaviourNotRun?: BehaviourNotRun;
  /** Pages sampled for the per-page checks (the home page included); defaults to DEFAULT_PAGE_SAMPLE. */
  pageSample?: number;
  /**
   * When the whole scan must end (epoch ms, as `Date.now()`): no request starts after it, and one under
   * way is cut there; its check reports "scan budget used up". Absent = no overall limit.
   */
  deadline?: number;
}

/** Why `--behaviour` was asked for and not run: the origin named redirects to another, and behaviour writes only to the one named. */
export interface BehaviourNotRun {
  /** The origin named on the command line. */
  requested: string;
  /** Where its `/` redirects (the origin audited instead). */
  redirect: string;
  /** One line: why that stops the behaviour checks. */
  reason: string;
}

/**
 * The neutral verdict of a check that needs `--behaviour` (requests other than GET): "not evaluated", with why, and
 * a fix that says how to run it (`siteFix`, what the site should do, is kept when the flag was simply not given).
 */
export function needsBehaviour(ctx: CheckContext, what: string, siteFix = 'Run with --behaviour.'): Verdict {
  const withheld = ctx.behaviourNotRun;
  if (!withheld) return neutral(`not evaluated: needs --behaviour (${what})`, siteFix);
  return neutral(
    `not evaluated: --behaviour not run (${withheld.requested}/ redirects to ${withheld.redirect}; ${withheld.reason})`,
    `Run with --behaviour naming ${new URL(withheld.redirect).origin} itself, if writing to it is what you want (${what}).`,
  );
}

/** How many of the sampled pages a per-page check passed (the Agent Readability score counts each page). */
export interface PageTally {
  passed: number;
  /** Pages the check applied to (not-applicable pages are left out). */
  applicable: number;
}

/** The outcome of one check, as printed and as serialised by `--json`. */
export interface CheckResult {
  /** The rubric's own id for the check, e.g. `robotsTxt` (isitagentready) or `llms-txt-size` (AFDocs). */
  id: string;
  title: string;
  status: CheckStatus;
  /** One line: what was seen. */
  reason: string;
  /** One line: what to change (whenever the check does not pass). */
  fix?: string;
  /** False for checks reported but not scored (llms.txt: guidance for the scanner; dnsAid: informational here). */
  scored: boolean;
  /** Where the rubric defines the check (a URL). */
  definition?: string;
  /** BCP 14 strength, for rubrics that give one. */
  strength?: Strength;
  /** What was sent and what came back, one line each (behaviour and cache checks). */
  evidence?: string[];
  /** Per-page checks: how many sampled pages passed. */
  pages?: PageTally;
  /**
   * The origin the site named where this check looked (a server card's endpoint, metadata, a page's markdown link), when
   * that origin is not the scanned one and is why the check did not pass or was not exercised: a site built for another origin.
   */
  otherOrigin?: string;
}

/** The verdict a check function returns; the registry adds id, title, scored and the definition. */
export interface Verdict {
  status: CheckStatus;
  reason: string;
  fix?: string;
  evidence?: string[];
  pages?: PageTally;
  otherOrigin?: string;
}

/** One entry of the check registry. */
export interface Check {
  id: string;
  title: string;
  scored: boolean;
  /** Where the rubric defines the check (a URL, usually with an anchor). */
  definition?: string;
  strength?: Strength;
  run(ctx: CheckContext): Promise<Verdict>;
}

export const pass = (reason: string, extra: Partial<Verdict> = {}): Verdict => ({ status: 'pass', reason, ...extra });
export const warn = (reason: string, fix: string, extra: Partial<Verdict> = {}): Verdict => ({ status: 'warn', reason, fix, ...extra });
export const fail = (reason: string, fix: string, extra: Partial<Verdict> = {}): Verdict => ({ status: 'fail', reason, fix, ...extra });
export const neutral = (reason: string, fix: string, extra: Partial<Verdict> = {}): Verdict => ({
  status: 'neutral',
  reason,
  fix,
  ...extra,
});

/** What a rubric reports besides its checks: a one-line headline and, when the rubric defines one, a score. */
export interface RubricSummary {
  /** One line for people, e.g. `Level 5 (Agent-Native), score 100/100`. */
  headline: string;
  /** 0-100, when the rubric defines a score. */
  score?: number;
  /** Rubric-specific figures (level, fraction, conformance), serialised as they are. */
  [key: string]: unknown;
}

/** One public rubric: its checks (with the rubric's own ids) and how it sums them up. */
export interface Rubric {
  /** Short id used on the command line and in the JSON, e.g. `isitagentready`. */
  id: string;
  name: string;
  /** The version (or dated revision) of the published definition the checks follow. */
  version: string;
  /** Where the rubric is defined. */
  definition: string;
  checks: readonly Check[];
  summarize(results: readonly CheckResult[]): RubricSummary;
}
