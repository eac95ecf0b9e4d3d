/**
 * robots.txt (RFC 9309) and the three checks that read it: the file itself, named AI-crawler
 * groups, and Content Signals (contentsignals.org, draft-romm-aipref-contentsignals).
 * @module
 */
import { type Fetched, get, looksLikeHtml, mediaType, problemWith, summary } from '../http.ts';
import { type CheckContext, fail, pass, type Verdict } from '../types.ts';

export const ROBOTS_PATH = '/robots.txt';
/** How much of robots.txt is parsed (RFC 9309 §2.5: at least 500 kibibytes). */
export const ROBOTS_PARSE_BYTES = 500 * 1024;

/**
 * The AI user agents the scanner looks for (docs/reference/agent-discovery.md §1.3, robotsTxtAiRules). A file
 * naming only others (ClaudeBot, OAI-SearchBot) does not count, as on the scanner.
 */
export const SCANNED_AI_USER_AGENTS = [
  'gptbot',
  'chatgpt-user',
  'google-extended',
  'ccbot',
  'anthropic-ai',
  'claude-web',
  'bytespider',
  'perplexitybot',
  'cohere-ai',
  'applebot-extended',
  'amazonbot',
  'meta-externalagent',
  'facebookbot',
  'omgilibot',
  'diffbot',
] as const;

/** Content Signals keys (contentsignals.org). */
export const CONTENT_SIGNAL_KEYS = ['search', 'ai-input', 'ai-train'] as const;

/** One RFC 9309 group: its user agents and its other lines in order. */
export interface RobotsGroup {
  userAgents: string[];
  rules: { name: string; value: string; line: number }[];
}

export interface ParsedRobots {
  groups: RobotsGroup[];
  /** `Sitemap:` values (global, outside groups). */
  sitemaps: string[];
  /** Lines that are group rules but precede any `User-agent` line (ignored by crawlers). */
  orphanRules: { name: string; value: string; line: number }[];
}

/** Parses robots.txt into groups (consecutive `User-agent` lines open a group; RFC 9309 §2.1). */
export function parseRobots(text: string): ParsedRobots {
  const groups: RobotsGroup[] = [];
  const sitemaps: string[] = [];
  const orphanRules: ParsedRobots['orphanRules'] = [];
  let current: RobotsGroup | undefined;
  let lastWasAgent = false;
  text.split(/\r\n|\r|\n/).forEach((raw, index) => {
    const line = raw.replace(/#.*$/, '').trim();
    const colon = line.indexOf(':');
    if (colon <= 0) return;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'user-agent') {
      if (!current || !lastWasAgent) {
        current = { userAgents: [], rules: [] };
        groups.push(current);
      }
      current.userAgents.push(value.toLowerCase());
      lastWasAgent = true;
      return;
    }
    lastWasAgent = false;
    if (name === 'sitemap') sitemaps.push(value);
    else if (current) current.rules.push({ name, value, line: index + 1 });
    else orphanRules.push({ name, value, line: index + 1 });
  });
  return { groups, sitemaps, orphanRules };
}

/**
 * robots.txt as fetched. `problem` is why it fails the robotsTxt check (status, soft 404, media
 * type); the checks that read its rules need only a 200 non-HTML body (`unreadable` says why not), so a wrong
 * Content-Type fails robotsTxt alone.
 */
export async function fetchRobots(
  ctx: CheckContext,
): Promise<{ res: Fetched; problem: string | null; unreadable: string | null; robots: ParsedRobots }> {
  // RFC 9309 §2.5: crawlers parse at least the first 500 KiB; a larger file is read up to there, not dropped.
  const res = await get(ctx, ROBOTS_PATH, { maxBytes: ROBOTS_PARSE_BYTES, truncate: true });
  const unreadable = problemWith(ctx, res, 'text') ?? (looksLikeHtml(res.text) ? `${summary(ctx, res)}: an HTML page (soft 404)` : null);
  const problem = unreadable ?? (mediaType(res) !== 'text/plain' ? `${summary(ctx, res)}: expected text/plain` : null);
  return { res, problem, unreadable, robots: parseRobots(unreadable ? '' : res.text) };
}

const ROBOTS_FIX = 'Serve /robots.txt as text/plain with at least one "User-agent:" group (RFC 9309).';

/** robotsTxt: 200, text/plain, not a soft 404, at least one `User-agent` line. */
export async function checkRobotsTxt(ctx: CheckContext): Promise<Verdict> {
  const { problem, robots } = await fetchRobots(ctx);
  if (problem) return fail(problem, ROBOTS_FIX);
  if (robots.groups.length === 0) return fail('robots.txt has no "User-agent:" line', ROBOTS_FIX);
  const { res } = await fetchRobots(ctx);
  return pass(
    `robots.txt with ${robots.groups.length} group(s)${robots.sitemaps.length ? ` and ${robots.sitemaps.length} Sitemap line(s)` : ''}${res.truncated ? ' in its first 500 KiB (the rest is past what RFC 9309 §2.5 asks crawlers to read)' : ''}`,
  );
}

/**
 * robotsTxtAiRules: at least one group names a known AI crawler. The scanner's April 2026 version
 * also passed wildcard-only files; the current one looks for named groups, and the stricter
 * reading wins: `User-agent: *` alone is not an AI rule.
 */
export async function checkRobotsAiRules(ctx: CheckContext): Promise<Verdict> {
  const fix =
    'Add a robots.txt group naming AI crawlers (e.g. "User-agent: GPTBot", "User-agent: CCBot", "User-agent: anthropic-ai") with their Allow/Disallow rules.';
  const { unreadable, robots } = await fetchRobots(ctx);
  if (unreadable) return fail(`no readable robots.txt (${unreadable})`, fix);
  const named = [
    ...new Set(robots.groups.flatMap((g) => g.userAgents).filter((ua) => (SCANNED_AI_USER_AGENTS as readonly string[]).includes(ua))),
  ];
  if (named.length === 0)
    return fail('robots.txt names none of the AI crawlers the scanner looks for (only wildcard or other agents)', fix);
  return pass(`robots.txt has rules for ${named.length} AI crawler(s): ${named.slice(0, 5).join(', ')}${named.length > 5 ? ', …' : ''}`);
}

/**
 * Validates one `Content-Signal` value: comma-separated `key=yes|no` with the three defined keys.
 * The draft defines no extension keys, so an unknown key or value is an error (stricter reading).
 */
export function contentSignalProblem(value: string): string | null {
  const parts = value
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length === 0) return 'is empty';
  const seen = new Set<string>();
  for (const part of parts) {
    const match = /^([a-z-]+)\s*=\s*([a-z]+)$/i.exec(part);
    if (!match) return `has "${part}" (expected key=yes|no)`;
    const key = match[1]!.toLowerCase();
    if (!(CONTENT_SIGNAL_KEYS as readonly string[]).includes(key))
      return `has unknown key "${key}" (known: ${CONTENT_SIGNAL_KEYS.join(', ')})`;
    if (!['yes', 'no'].includes(match[2]!.toLowerCase())) return `has ${key}=${match[2]} (expected yes or no)`;
    if (seen.has(key)) return `repeats ${key}`;
    seen.add(key);
  }
  return null;
}

/** contentSignals: at least one well-formed `Content-Signal:` inside a `User-agent` group, and no malformed one. */
export async function checkContentSignals(ctx: CheckContext): Promise<Verdict> {
  const fix =
    'Add "Content-Signal: ai-train=yes, search=yes, ai-input=yes" (your choice of yes/no) inside the "User-agent: *" group of robots.txt.';
  const { unreadable, robots } = await fetchRobots(ctx);
  if (unreadable) return fail(`no readable robots.txt (${unreadable})`, fix);
  const signals = robots.groups.flatMap((g) =>
    g.rules.filter((r) => r.name === 'content-signal').map((r) => ({ ...r, agents: g.userAgents })),
  );
  for (const signal of signals) {
    const bad = contentSignalProblem(signal.value);
    if (bad) return fail(`Content-Signal on line ${signal.line} ${bad}`, fix);
  }
  if (signals.length === 0) {
    const orphan = robots.orphanRules.find((r) => r.name === 'content-signal');
    return fail(
      orphan ? `Content-Signal on line ${orphan.line} is outside any User-agent group` : 'robots.txt has no Content-Signal directive',
      fix,
    );
  }
  const first = signals[0]!;
  return pass(`${signals.length} Content-Signal directive(s), e.g. "${first.value}" for ${first.agents.join(', ')}`);
}
