/**
 * Mintlify's Agent Rank (agentrank.mintlify.com), as its "Agent readiness checks" page defines it: eleven
 * weighted categories (100 points), some with dependent checks that run only when their parent passes.
 * Ids are the page's heading anchors (the public page names no other ids). The page gives each category's
 * weight, not how a category's points split between its checks: here they split evenly, and a dependent
 * check of a failed parent earns nothing (the page: "you cannot get any points from them").
 *
 * The MCP category POSTs JSON-RPC, so it runs only with `--behaviour`; without it its 20 points are
 * reported as not evaluated rather than lost.
 * @module
 */
import { get, looksLikeHtml, mediaType, parseJsonObject, SCAN_BUDGET_USED, sameOrigin, siteUrl, summary } from '../http.ts';
import { fetchRobots } from '../checks/robots.ts';
import { htmlOf } from '../html.ts';
import { mcpSession, LATEST_LEGACY_MCP_VERSION } from '../protocols/mcp.ts';
import { getPage, markdownLinks, resolveShare, share, shortUrl, spread } from '../site.ts';
import {
  type Check,
  type CheckContext,
  type CheckResult,
  fail,
  needsBehaviour,
  neutral,
  pass,
  type Rubric,
  type RubricSummary,
  type Verdict,
  warn,
} from '../types.ts';
import robotsParser from 'robots-parser';

const PAGE = 'https://www.mintlify.com/docs/ai/agent-readiness-checks';

/** Category weights (Agent Rank's table; they sum to 100). */
export const MINTLIFY_WEIGHTS = {
  'llms-txt': 17,
  'llms-full-txt': 8,
  'skill-md': 8,
  'markdown-content-negotiation': 10,
  'plaintext-content-negotiation': 5,
  'mcp-server': 20,
  'openapi-spec': 12,
  'robots-txt': 8,
  sitemap: 5,
  'structured-data': 4,
  'response-latency': 3,
} as const;
type Category = keyof typeof MINTLIFY_WEIGHTS;

/** Same-origin links sampled from llms.txt / llms-full.txt (the page: "up to 50"). */
export const LINKS_SAMPLED = 50;
/** Share of sampled links that must answer 200. */
export const LINKS_RESOLVE_SHARE = 0.9;
/** Share of llms.txt links that must end in `.md`. */
export const MARKDOWN_LINKS_SHARE = 0.5;
/** llms.txt: must be under this many characters; flagged above LLMS_TXT_WARN_CHARS. */
export const LLMS_TXT_MAX_CHARS = 100_000;
export const LLMS_TXT_WARN_CHARS = 50_000;
/** llms-full.txt size band, characters. */
export const LLMS_FULL_MIN_CHARS = 500;
export const LLMS_FULL_MAX_CHARS = 5_000_000;
/** Time to the first byte of the root. */
export const RESPONSE_LATENCY_MS = 2_000;

/** The AI user agents whose blocking fails the robots check ("Claude, ChatGPT, Gemini, Copilot, Perplexity"). */
export const MINTLIFY_AI_AGENTS = [
  'ClaudeBot',
  'Claude-User',
  'Claude-SearchBot',
  'anthropic-ai',
  'GPTBot',
  'ChatGPT-User',
  'OAI-SearchBot',
  'Google-Extended',
  'Gemini-Deep-Research',
  'Copilot',
  'PerplexityBot',
  'Perplexity-User',
];

/** A text answer that is not HTML (the llms checks' "non-HTML text content"). */
function textProblem(ctx: CheckContext, res: Awaited<ReturnType<typeof get>>): string | null {
  if (res.error || res.status !== 200) return summary(ctx, res);
  const type = mediaType(res);
  if (!type.startsWith('text/') || type === 'text/html') return `${summary(ctx, res)}: not a text file`;
  if (looksLikeHtml(res.text)) return `${summary(ctx, res)}: an HTML page`;
  if (!res.text.trim()) return `${summary(ctx, res)}: empty`;
  return null;
}

/** The first of `paths` that answers non-HTML text. */
async function firstText(
  ctx: CheckContext,
  paths: string[],
  maxBytes?: number,
): Promise<{ res: Awaited<ReturnType<typeof get>>; path: string } | { problems: string[] }> {
  const problems: string[] = [];
  for (const path of paths) {
    const res = await get(ctx, path, { maxBytes });
    const problem = textProblem(ctx, res);
    if (!problem) return { res, path };
    problems.push(problem);
  }
  return { problems };
}

const llmsTxt = (ctx: CheckContext) => firstText(ctx, ['/llms.txt', '/.well-known/llms.txt']);
const llmsFull = (ctx: CheckContext) => firstText(ctx, ['/llms-full.txt', '/.well-known/llms-full.txt'], 6 * 1024 * 1024);

const SKIPPED = (parent: string) => neutral(`skipped: ${parent} did not pass`, `Pass ${parent} first.`);

async function checkLlmsTxt(ctx: CheckContext): Promise<Verdict> {
  const found = await llmsTxt(ctx);
  if ('problems' in found)
    return fail(
      `no llms.txt (${found.problems.join('; ')})`,
      'Serve /llms.txt (or /.well-known/llms.txt) as text: an H1, a summary and markdown links.',
    );
  return pass(`${found.path}: ${found.res.text.length} characters of ${mediaType(found.res)}`);
}

/** A dependent check of llms.txt: skipped unless llms.txt is found. */
function onLlmsTxt(run: (ctx: CheckContext, text: string, url: string) => Promise<Verdict> | Verdict) {
  return async (ctx: CheckContext): Promise<Verdict> => {
    const found = await llmsTxt(ctx);
    return 'problems' in found ? SKIPPED('llms-txt') : run(ctx, found.res.text, found.res.url);
  };
}

function onLlmsFull(run: (ctx: CheckContext, text: string, url: string) => Promise<Verdict> | Verdict) {
  return async (ctx: CheckContext): Promise<Verdict> => {
    const found = await llmsFull(ctx);
    return 'problems' in found ? SKIPPED('llms-full-txt') : run(ctx, found.res.text, found.res.url);
  };
}

/** Same-origin links of a markdown file, sampled evenly, and the share that answer 200. */
async function linksResolve(ctx: CheckContext, text: string, url: string, what: string): Promise<Verdict> {
  const links = [...new Set(markdownLinks(text, url).map((l) => l.url.split('#')[0]!))].filter((u) => sameOrigin(ctx, u));
  if (links.length === 0)
    return fail(`${what} has no same-origin links to check`, `Link ${what} to your pages with absolute URLs on this origin.`);
  const sample = spread(links, LINKS_SAMPLED);
  const { ok, total, broken } = await resolveShare(ctx, sample);
  const reason = `${share(ok, total)} of the sampled same-origin links answer 200${broken.length ? `; e.g. ${shortUrl(ctx, broken[0]!.url)} → ${broken[0]!.status}` : ''}`;
  return ok / total >= LINKS_RESOLVE_SHARE
    ? pass(reason)
    : fail(reason, `Fix or remove the broken links in ${what} (at least 90 % must answer 200).`);
}

const LLMS_TXT_CHECKS: Check[] = [
  { id: 'llms-txt', title: 'llms.txt', scored: true, definition: `${PAGE}#llms-txt`, run: checkLlmsTxt },
  {
    id: 'llms-txt-valid-structure',
    title: 'llms.txt valid structure',
    scored: true,
    definition: `${PAGE}#llms-txt-valid-structure`,
    run: onLlmsTxt((_ctx, text, url) => {
      const links = markdownLinks(text, url).length;
      return links
        ? pass(`${links} markdown link(s)`)
        : fail('llms.txt has no [text](url) link', 'Add a markdown link for each page: [Page title](https://…/page.md).');
    }),
  },
  {
    id: 'llms-txt-size',
    title: 'llms.txt size',
    scored: true,
    definition: `${PAGE}#llms-txt-size`,
    run: onLlmsTxt((_ctx, text) => {
      const fix = 'Trim llms.txt to the entry points (under 50,000 characters); move the full corpus to llms-full.txt.';
      if (text.length >= LLMS_TXT_MAX_CHARS) return fail(`llms.txt is ${text.length} characters (limit 100,000)`, fix);
      if (text.length > LLMS_TXT_WARN_CHARS) return warn(`llms.txt is ${text.length} characters: a truncation risk above 50,000`, fix);
      return pass(`${text.length} characters (under 50,000)`);
    }),
  },
  {
    id: 'llms-txt-links-resolve',
    title: 'llms.txt links resolve',
    scored: true,
    definition: `${PAGE}#llms-txt-links-resolve`,
    run: onLlmsTxt((ctx, text, url) => linksResolve(ctx, text, url, 'llms.txt')),
  },
  {
    id: 'llms-txt-links-point-to-markdown',
    title: 'llms.txt links point to Markdown',
    scored: true,
    definition: `${PAGE}#llms-txt-links-point-to-markdown`,
    run: onLlmsTxt((_ctx, text, url) => {
      const links = markdownLinks(text, url);
      if (!links.length)
        return fail('llms.txt has no links', 'Point llms.txt links at the .md version of each page (at least half of them).');
      const md = links.filter((l) => /\.md$/i.test(new URL(l.url).pathname)).length;
      const reason = `${share(md, links.length)} of the links end in .md`;
      return links.length && md / links.length >= MARKDOWN_LINKS_SHARE
        ? pass(reason)
        : fail(reason, 'Point llms.txt links at the .md version of each page (at least half of them).');
    }),
  },
  {
    id: 'llms-txt-directive-format',
    title: 'llms.txt directive format',
    scored: true,
    definition: `${PAGE}#llms-txt-directive-format`,
    run: onLlmsTxt((_ctx, text) => {
      const fix = 'Start llms.txt with "# Site name" and list the pages under a "## Docs" (or "## Documentation") heading.';
      const first = text.split(/\r?\n/).find((l) => l.trim()) ?? '';
      if (!/^#\s+\S/.test(first)) return fail(`the first line is not an H1: ${JSON.stringify(first.slice(0, 60))}`, fix);
      if (!/^##\s+(Docs|Documentation)\s*$/im.test(text)) return fail('no "## Docs" or "## Documentation" heading', fix);
      return pass('an H1 first, and a "## Docs" section');
    }),
  },
];

const LLMS_FULL_CHECKS: Check[] = [
  {
    id: 'llms-full-txt',
    title: 'llms-full.txt',
    scored: true,
    definition: `${PAGE}#llms-full-txt`,
    run: async (ctx) => {
      const found = await llmsFull(ctx);
      if ('problems' in found)
        return fail(
          `no llms-full.txt (${found.problems.join('; ')})`,
          'Serve /llms-full.txt: the whole documentation as one markdown text file.',
        );
      return pass(`${found.path}: ${found.res.text.length} characters of ${mediaType(found.res)}`);
    },
  },
  {
    id: 'llms-full-txt-size',
    title: 'llms-full.txt size',
    scored: true,
    definition: `${PAGE}#llms-full-txt-size`,
    run: onLlmsFull((_ctx, text) =>
      text.length >= LLMS_FULL_MIN_CHARS && text.length <= LLMS_FULL_MAX_CHARS
        ? pass(`${text.length} characters (500 to 5,000,000)`)
        : fail(
            `llms-full.txt is ${text.length} characters (must be 500 to 5,000,000)`,
            'Keep llms-full.txt between 500 and 5,000,000 characters.',
          ),
    ),
  },
  {
    id: 'llms-full-txt-valid-structure',
    title: 'llms-full.txt valid structure',
    scored: true,
    definition: `${PAGE}#llms-full-txt-valid-structure`,
    run: onLlmsFull((_ctx, text) => {
      const fix = 'Start llms-full.txt with "# Site name" and head each section and page with a heading.';
      const first = text.split(/\r?\n/).find((l) => l.trim()) ?? '';
      const headings = text.split(/\r?\n/).filter((l) => /^#{1,6}\s+\S/.test(l)).length;
      if (!/^#\s+\S/.test(first)) return fail('llms-full.txt does not start with an H1', fix);
      if (headings < 2) return fail(`llms-full.txt has ${headings} heading(s) (at least 2)`, fix);
      return pass(`starts with an H1; ${headings} headings`);
    }),
  },
  {
    id: 'llms-full-txt-links-resolve',
    title: 'llms-full.txt links resolve',
    scored: true,
    definition: `${PAGE}#llms-full-txt-links-resolve`,
    run: onLlmsFull((ctx, text, url) => linksResolve(ctx, text, url, 'llms-full.txt')),
  },
];

/** skill.md: the first skill of the discovery index answers markdown; without an index, `/skill.md`. */
async function checkSkillMd(ctx: CheckContext): Promise<Verdict> {
  const fix = 'Publish /.well-known/agent-skills/index.json whose first skill URL serves a SKILL.md, or serve /skill.md.';
  const index = await get(ctx, '/.well-known/agent-skills/index.json', { accept: 'application/json' });
  if (index.status === 200 && !looksLikeHtml(index.text)) {
    if (index.error) return fail(`the skills index could not be read (${summary(ctx, index)})`, fix);
    const doc = parseJsonObject(index);
    if (typeof doc === 'string') return fail(`the skills index could not be read (${summary(ctx, index)}: ${doc})`, fix);
    const first = typeof doc === 'object' && Array.isArray(doc.skills) ? (doc.skills[0] as Record<string, unknown> | undefined) : undefined;
    const ref = typeof first?.url === 'string' ? first.url : typeof first?.name === 'string' ? `${first.name}/SKILL.md` : null;
    if (!ref) return fail('the skills index lists no skill with a url', fix);
    const url = new URL(ref, index.url).href;
    const res = await get(ctx, url);
    const type = mediaType(res);
    if (res.status === 200 && (type === 'text/markdown' || type === 'text/plain') && !looksLikeHtml(res.text))
      return pass(`${shortUrl(ctx, url)} (the index's first skill) is markdown`);
    return fail(`the index's first skill ${shortUrl(ctx, url)}: ${summary(ctx, res)}`, fix);
  }
  const direct = await get(ctx, '/skill.md');
  if (direct.status === 200 && !looksLikeHtml(direct.text)) return pass('/skill.md is served');
  return fail(`no skills index (${summary(ctx, index)}) and no /skill.md (${summary(ctx, direct)})`, fix);
}

/** A negotiation check on the root: `accept` must come back as one of `types`, not HTML. */
function negotiation(accept: string, ok: (type: string) => boolean, want: string, fix: string) {
  return async (ctx: CheckContext): Promise<Verdict> => {
    const res = await get(ctx, '/', { accept });
    const type = mediaType(res);
    if (!res.error && res.status === 200 && ok(type) && !looksLikeHtml(res.text)) return pass(`Accept: ${accept} → ${type}`);
    return fail(
      `Accept: ${accept} → ${res.error ?? `${res.status} ${type || 'no Content-Type'}`}${looksLikeHtml(res.text) ? ' (an HTML page)' : ''}; expected ${want}`,
      fix,
    );
  };
}

/** The MCP endpoint Agent Rank probes: `/mcp` on the domain. */
const MCP_ENDPOINT = '/mcp';

async function checkMcpServer(ctx: CheckContext): Promise<Verdict> {
  const fix = 'Serve an MCP server at /mcp that answers a JSON-RPC initialize with serverInfo.name.';
  if (!ctx.behaviour) return needsBehaviour(ctx, 'POSTs a JSON-RPC initialize to /mcp', fix);
  const session = await mcpSession(ctx, siteUrl(ctx, MCP_ENDPOINT), LATEST_LEGACY_MCP_VERSION);
  const evidence = session.evidence;
  if (session.problem && !session.serverName) return fail(`/mcp: ${session.problem}`, fix, { evidence });
  if (!session.serverName) return fail('/mcp answered initialize without serverInfo.name', fix, { evidence });
  return pass(`/mcp is ${session.serverName}`, { evidence });
}

async function checkToolCount(ctx: CheckContext): Promise<Verdict> {
  const fix = 'Expose at least one tool in tools/list (e.g. search_docs).';
  if (!ctx.behaviour) return needsBehaviour(ctx, 'opens an MCP session at /mcp', fix);
  const session = await mcpSession(ctx, siteUrl(ctx, MCP_ENDPOINT), LATEST_LEGACY_MCP_VERSION);
  if (!session.serverName) return SKIPPED('mcp-server');
  const count = session.tools?.length ?? 0;
  return count
    ? pass(`tools/list: ${count} tool(s)`, { evidence: session.evidence })
    : fail(`tools/list: ${session.problem ?? 'no tools'}`, fix, { evidence: session.evidence });
}

/** The OpenAPI locations Agent Rank tries, in order. */
export const OPENAPI_PATHS = ['openapi.json', 'openapi.yaml', 'swagger.json', 'swagger.yaml'].flatMap((f) => [`/${f}`, `/api/${f}`]);

async function checkOpenApi(ctx: CheckContext): Promise<Verdict> {
  const tried: string[] = [];
  for (const path of OPENAPI_PATHS) {
    const res = await get(ctx, path);
    if (res.error || res.status !== 200 || looksLikeHtml(res.text)) {
      tried.push(`${path} → ${res.error ?? res.status}`);
      continue;
    }
    const doc = parseJsonObject(res);
    const version = typeof doc === 'object' ? (doc.openapi ?? doc.swagger) : /^(?:openapi|swagger):\s*["']?([\d.]+)/m.exec(res.text)?.[1];
    if (typeof version === 'string' && version)
      return pass(`${path}: ${typeof doc === 'object' && doc.openapi ? 'OpenAPI' : 'OpenAPI/Swagger'} ${version}`);
    tried.push(`${path}: no openapi/swagger version field`);
  }
  return fail(
    `no OpenAPI document (${tried.slice(0, 4).join('; ')}${tried.length > 4 ? '; …' : ''})`,
    'Serve your OpenAPI document at /openapi.json (or one of the standard paths) without authentication.',
  );
}

/** robots.txt: no known AI agent is disallowed from `/`. No robots.txt, or an HTML one, passes. */
async function checkRobots(ctx: CheckContext): Promise<Verdict> {
  const { res, unreadable } = await fetchRobots(ctx);
  // A robots.txt that could not be fetched is unknown, not absent: only a missing or HTML one blocks no one.
  if (res.error) return neutral(`could not read robots.txt (${unreadable})`, 'Make /robots.txt answer, then run again.');
  if (unreadable) return pass(`no robots.txt to block anyone (${unreadable})`);
  const robots = robotsParser(res.url, res.text);
  const blocked = MINTLIFY_AI_AGENTS.filter((ua) => robots.isDisallowed(siteUrl(ctx, '/'), ua));
  if (blocked.length)
    return fail(
      `robots.txt blocks ${blocked.join(', ')} from /`,
      'Remove the "Disallow: /" rules for AI agents (or allow them explicitly); restrict only the paths you must.',
    );
  return pass(`none of ${MINTLIFY_AI_AGENTS.length} AI agents is blocked from /`);
}

async function checkSitemap(ctx: CheckContext): Promise<Verdict> {
  const res = await get(ctx, '/sitemap.xml', { maxBytes: 50 * 1024 * 1024 });
  const type = mediaType(res);
  const xmlType = type === 'application/xml' || type === 'text/xml' || type.endsWith('+xml');
  if (!res.error && res.status === 200 && (xmlType || /^\s*<(?:\?xml|urlset|sitemapindex)/.test(res.text)))
    return pass(`/sitemap.xml is ${type || 'XML'}`);
  return fail(`${summary(ctx, res)}: not an XML sitemap`, 'Serve /sitemap.xml (application/xml) listing every public page.');
}

async function checkStructuredData(ctx: CheckContext): Promise<Verdict> {
  const home = await getPage(ctx, '/');
  const blocks = htmlOf(home).jsonLd;
  const parsed = blocks.filter((b) => {
    try {
      JSON.parse(b);
      return true;
    } catch {
      return false; // a block that does not parse does not count
    }
  });
  if (parsed.length) return pass(`${parsed.length} JSON-LD block(s) on /`);
  return fail(
    blocks.length ? 'the JSON-LD on / does not parse' : 'no <script type="application/ld+json"> on /',
    'Embed JSON-LD (WebSite, Organization, Article, BreadcrumbList) in your pages.',
  );
}

async function checkLatency(ctx: CheckContext): Promise<Verdict> {
  const res = await get(ctx, '/');
  const ms = Math.round(res.ms);
  if (res.status === 0) return fail(`/ did not answer: ${res.error}`, 'Make the root answer within 2 seconds.');
  return res.ms < RESPONSE_LATENCY_MS
    ? pass(`first byte of / in ${ms} ms`)
    : fail(`first byte of / in ${ms} ms (limit 2,000)`, 'Cache the root at a CDN and cut server-side rendering time.');
}

const CHECKS: (Check & { category: Category })[] = [
  ...LLMS_TXT_CHECKS.map((c) => ({ ...c, category: 'llms-txt' as const })),
  ...LLMS_FULL_CHECKS.map((c) => ({ ...c, category: 'llms-full-txt' as const })),
  { id: 'skill-md', title: 'skill.md', scored: true, definition: `${PAGE}#skill-md`, category: 'skill-md', run: checkSkillMd },
  {
    id: 'markdown-content-negotiation',
    title: 'Markdown content negotiation',
    scored: true,
    definition: `${PAGE}#markdown-content-negotiation`,
    category: 'markdown-content-negotiation',
    run: negotiation(
      'text/markdown, text/html;q=0.9',
      (t) => t === 'text/markdown' || t === 'text/x-markdown',
      'text/markdown',
      'Answer Accept: text/markdown on / with the page as markdown (Content-Type: text/markdown).',
    ),
  },
  {
    id: 'plaintext-content-negotiation',
    title: 'Plaintext content negotiation',
    scored: true,
    definition: `${PAGE}#plaintext-content-negotiation`,
    category: 'plaintext-content-negotiation',
    run: negotiation(
      'text/plain, text/html;q=0.9',
      (t) => t.startsWith('text/') && t !== 'text/html',
      'a non-HTML text/* type',
      'Answer Accept: text/plain on / with a plain-text (or markdown) rendering of the page, not HTML.',
    ),
  },
  { id: 'mcp-server', title: 'MCP server', scored: true, definition: `${PAGE}#mcp-server`, category: 'mcp-server', run: checkMcpServer },
  { id: 'tool-count', title: 'Tool count', scored: true, definition: `${PAGE}#tool-count`, category: 'mcp-server', run: checkToolCount },
  {
    id: 'openapi-spec',
    title: 'OpenAPI spec',
    scored: true,
    definition: `${PAGE}#openapi-spec`,
    category: 'openapi-spec',
    run: checkOpenApi,
  },
  {
    id: 'robots-txt',
    title: 'robots.txt allows AI agents',
    scored: true,
    definition: `${PAGE}#robots-txt`,
    category: 'robots-txt',
    run: checkRobots,
  },
  { id: 'sitemap', title: 'Sitemap', scored: true, definition: `${PAGE}#sitemap`, category: 'sitemap', run: checkSitemap },
  {
    id: 'structured-data',
    title: 'Structured data',
    scored: true,
    definition: `${PAGE}#structured-data`,
    category: 'structured-data',
    run: checkStructuredData,
  },
  {
    id: 'response-latency',
    title: 'Response latency',
    scored: true,
    definition: `${PAGE}#response-latency`,
    category: 'response-latency',
    run: checkLatency,
  },
];

/** The points each check is worth: its category's weight over the category's checks. */
export const MINTLIFY_POINTS: ReadonlyMap<string, number> = new Map(
  CHECKS.map((c) => [c.id, MINTLIFY_WEIGHTS[c.category] / CHECKS.filter((o) => o.category === c.category).length]),
);

/** The Mintlify Agent Rank rubric. */
export const MINTLIFY: Rubric = {
  id: 'mintlify',
  name: 'Mintlify Agent Rank',
  // The public page carries no version; this is the state of mintlify/docs ai/agent-readiness-checks.mdx read for it.
  version: 'agent-readiness-checks.mdx, 2026-11 (mintlify/docs@151d6c64)',
  definition: PAGE,
  checks: CHECKS,
  summarize(results: readonly CheckResult[]): RubricSummary {
    let earned = 0;
    let unevaluated = 0;
    let starved = 0;
    let withheld = false;
    for (const r of results) {
      const points = MINTLIFY_POINTS.get(r.id) ?? 0;
      if (r.status === 'pass' || r.status === 'warn') earned += points;
      else if (r.reason.includes(SCAN_BUDGET_USED)) starved += points;
      else if (r.reason.startsWith('not evaluated')) {
        unevaluated += points;
        withheld ||= r.reason.startsWith('not evaluated: --behaviour not run');
      }
    }
    const score = Math.round(earned);
    const notes = [
      unevaluated
        ? `${Math.round(unevaluated)} points not evaluated: ${withheld ? '--behaviour not run on a redirected origin' : 'run with --behaviour'}`
        : '',
      starved ? `${Math.round(starved)} points not evaluated: ${SCAN_BUDGET_USED}` : '',
    ].filter(Boolean);
    return {
      headline: `${score}/100${notes.length ? ` (${notes.join('; ')})` : ''}`,
      score,
      unevaluatedPoints: Math.round(unevaluated + starved),
    };
  },
};
