/**
 * Shapes shared by every agent-readiness check: the context a check runs in and the result it
 * returns. Checks are plain async functions of the context, so tests inject `fetch` (an in-memory
 * site, or a tracing wrapper) and the WebMCP browser probe.
 * @module
 */

/** `pass` and `fail` are scored; `neutral` (not applicable, or not checkable here) is excluded. */
export type CheckStatus = 'pass' | 'fail' | 'neutral';

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
}

/** The outcome of one check, as printed and as serialised by `--json`. */
export interface CheckResult {
  /** Scanner check id (isitagentready.com), e.g. `robotsTxt`. */
  id: string;
  title: string;
  status: CheckStatus;
  /** One line: what was seen. */
  reason: string;
  /** One line: what to change (whenever the check does not pass). */
  fix?: string;
  /** False for checks reported but not scored (llms.txt: guidance for the scanner; dnsAid: informational here). */
  scored: boolean;
}

/** The verdict a check function returns; the registry adds id, title and scored. */
export interface Verdict {
  status: CheckStatus;
  reason: string;
  fix?: string;
}

/** One entry of the check registry. */
export interface Check {
  id: string;
  title: string;
  scored: boolean;
  run(ctx: CheckContext): Promise<Verdict>;
}

export const pass = (reason: string): Verdict => ({ status: 'pass', reason });
export const fail = (reason: string, fix: string): Verdict => ({ status: 'fail', reason, fix });
export const neutral = (reason: string, fix: string): Verdict => ({ status: 'neutral', reason, fix });
