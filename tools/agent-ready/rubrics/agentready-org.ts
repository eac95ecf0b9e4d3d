/**
 * AgentReady (agentready.org, v1.0.0 of 2026-04-24, MIT): 30 requirements with stable ids `AR-<SECTION>-<NN>`,
 * each MUST, SHOULD or MAY (BCP 14), baseline or conditional on a surface the product exposes. The
 * standard prescribes no scoring: a product conforms when it meets every applicable MUST. Here an unmet
 * MUST fails, an unmet SHOULD warns, an unmet MAY is neutral, and a requirement whose surface the site
 * does not expose is neutral ("not applicable").
 *
 * The strengths and conditions follow `https://agentready.org/spec.json`; how each is detected is this
 * checker's (the standard names what to implement, not how to measure it). Requirements that need a
 * live protocol session are evaluated only with `--behaviour`; a few (MCP Apps, NLWeb /ask, 402-based
 * payments) cannot be detected from outside and are reported as not checked.
 * @module
 */
import { get, looksLikeHtml, mediaType, parseJsonObject, SCAN_BUDGET_USED, servedJson, siteUrl, summary } from '../http.ts';
import { AGENT_CARD_PATH, checkA2aAgentCard } from '../checks/a2a-agent-card.ts';
import { checkAgentSkills } from '../checks/agent-skills.ts';
import { API_CATALOG_PATH, checkApiCatalog } from '../checks/api-catalog.ts';
import { parseLinkHeader } from '../checks/link-headers.ts';
import { checkMcpServerCard, SERVER_CARD_PATHS } from '../checks/mcp-server-card.ts';
import { AS_METADATA_PATH, checkOAuthDiscovery, checkProtectedResource, OIDC_CONFIGURATION_PATH, PRM_PATH } from '../checks/oauth.ts';
import { fetchRobots } from '../checks/robots.ts';
import { checkWebBotAuth } from '../checks/web-bot-auth.ts';
import { htmlOf, jsonLdNodes, typesOf } from '../html.ts';
import { mcpEndpointOf, mcpVersionsOf } from './behaviour.ts';
import { mcpSession } from '../protocols/mcp.ts';
import { getPage, isMarkdown, memo, negotiatedMarkdown, samplePages, sitemapOf, twinOf } from '../site.ts';
import {
  type Check,
  type CheckContext,
  type CheckResult,
  fail,
  neutral,
  pass,
  type Rubric,
  type RubricSummary,
  type Strength,
  type Verdict,
  warn,
} from '../types.ts';

const SPEC = 'https://agentready.org/spec.json';

/** What a requirement's probe found: met, not met (with why), not applicable, or not checkable here. */
type Finding =
  | { met: true; reason: string; evidence?: string[] }
  | { met: false; reason: string; evidence?: string[] }
  | { na: string }
  | { unchecked: string };

const met = (reason: string, evidence?: string[]): Finding => ({ met: true, reason, evidence });
const unmet = (reason: string, evidence?: string[]): Finding => ({ met: false, reason, evidence });
const na = (reason: string): Finding => ({ na: reason });

/** A verdict of a reused check, as a finding. */
const fromVerdict = (v: Verdict): Finding => (v.status === 'pass' ? met(v.reason, v.evidence) : unmet(v.reason, v.evidence));

/** The AI user agents a robots.txt group may name (training crawlers and on-demand agents). */
export const AI_AGENT_TOKENS = [
  'gptbot',
  'chatgpt-user',
  'oai-searchbot',
  'claudebot',
  'claude-user',
  'claude-searchbot',
  'anthropic-ai',
  'claude-web',
  'google-extended',
  'perplexitybot',
  'perplexity-user',
  'ccbot',
  'applebot-extended',
  'meta-externalagent',
  'bytespider',
  'amazonbot',
  'cohere-ai',
];

/** Whether the site shows a commerce surface (a Product/Offer in its JSON-LD, or a UCP/ACP profile). */
function commerceSignals(ctx: CheckContext): Promise<string[]> {
  return memo(ctx, 'commerce', async () => {
    const signals: string[] = [];
    for (const url of await samplePages(ctx)) {
      const types = jsonLdNodes(htmlOf(await getPage(ctx, url))).flatMap(typesOf);
      if (types.some((t) => ['Product', 'Offer', 'AggregateOffer'].includes(t)))
        signals.push(`schema.org Offer on ${new URL(url).pathname}`);
    }
    for (const path of ['/.well-known/ucp', '/.well-known/acp.json']) if (await servedJson(ctx, path)) signals.push(path);
    return signals;
  });
}

/** Signals that the site exposes an MCP server (the conditional surface of AR-CAPA-01/02). */
async function mcpSignals(ctx: CheckContext): Promise<string[]> {
  const signals: string[] = [];
  for (const path of SERVER_CARD_PATHS) if (await servedJson(ctx, path)) signals.push(path);
  const catalog = await servedJson(ctx, API_CATALOG_PATH, 'application/linkset+json, application/json');
  if (catalog && /\/mcp\b/.test(JSON.stringify(catalog))) signals.push('the API catalog names an MCP endpoint');
  return signals;
}

/** Where the site describes an HTTP API: api-catalog `service-desc`, a `Link` service-desc, or `/openapi.json`. */
async function apiDescription(ctx: CheckContext): Promise<{ url: string; signal: string } | null> {
  const doc = await servedJson(ctx, API_CATALOG_PATH, 'application/linkset+json, application/json');
  if (doc && Array.isArray(doc.linkset))
    for (const context of doc.linkset as Record<string, { href?: string; type?: string }[]>[]) {
      const desc = context['service-desc']?.find((t) => typeof t.href === 'string' && (!t.type || /json|yaml/.test(t.type)));
      if (desc?.href) return { url: new URL(desc.href, siteUrl(ctx, API_CATALOG_PATH)).href, signal: 'the API catalog' };
    }
  const link = parseLinkHeader((await get(ctx, '/')).headers.get('link') ?? '').links.find((l) => l.rels.includes('service-desc'));
  if (link) return { url: new URL(link.href, siteUrl(ctx, '/')).href, signal: 'the Link header' };
  if (await servedJson(ctx, '/openapi.json')) return { url: siteUrl(ctx, '/openapi.json'), signal: '/openapi.json' };
  return null;
}

/** The authorization server metadata, when the site publishes one. */
async function asMetadata(ctx: CheckContext): Promise<Record<string, unknown> | null> {
  for (const path of [AS_METADATA_PATH, OIDC_CONFIGURATION_PATH]) {
    const doc = await servedJson(ctx, path);
    if (doc) return doc;
  }
  return null;
}

interface Requirement {
  id: string;
  title: string;
  strength: Strength;
  /** `baseline` applies to every product; otherwise the surface it is conditional on. */
  applies: string;
  probe(ctx: CheckContext): Promise<Finding>;
  fix: string;
}

const NLWEB = 'NLWeb';
const REQUIREMENTS: Requirement[] = [
  {
    id: 'AR-DISC-01',
    title: 'robots.txt declares AI crawler policies',
    strength: 'MUST',
    applies: 'baseline',
    fix: 'Add robots.txt groups that name AI agents (GPTBot, ClaudeBot, PerplexityBot, …) with their Allow/Disallow rules, apart from the wildcard group.',
    async probe(ctx) {
      const { unreadable, robots } = await fetchRobots(ctx);
      if (unreadable) return unmet(`no readable robots.txt (${unreadable})`);
      const named = [...new Set(robots.groups.flatMap((g) => g.userAgents).filter((ua) => AI_AGENT_TOKENS.includes(ua)))];
      return named.length
        ? met(`robots.txt names ${named.length} AI agent(s): ${named.slice(0, 5).join(', ')}`)
        : unmet('robots.txt names no AI agent (only the wildcard or others)');
    },
  },
  {
    id: 'AR-DISC-02',
    title: 'XML sitemap',
    strength: 'SHOULD',
    applies: 'baseline',
    fix: 'Publish a sitemaps.org sitemap and name it in robots.txt.',
    async probe(ctx) {
      const sitemap = await sitemapOf(ctx);
      return sitemap.kind && sitemap.entries.length
        ? met(`${sitemap.kind} with ${sitemap.entries.length} URL(s)`)
        : unmet(sitemap.problem ?? 'no sitemap');
    },
  },
  {
    id: 'AR-DISC-03',
    title: 'llms.txt',
    strength: 'SHOULD',
    applies: 'baseline',
    fix: 'Serve /llms.txt (llmstxt.org).',
    async probe(ctx) {
      const res = await get(ctx, '/llms.txt');
      return res.status === 200 && res.text.trim() && !looksLikeHtml(res.text) && mediaType(res) !== 'text/html'
        ? met(`/llms.txt (${res.text.length} characters)`)
        : unmet(summary(ctx, res));
    },
  },
  {
    id: 'AR-DISC-04',
    title: 'llms-full.txt',
    strength: 'MAY',
    applies: 'baseline',
    fix: 'Serve /llms-full.txt with the whole corpus.',
    async probe(ctx) {
      const res = await get(ctx, '/llms-full.txt', { maxBytes: 6 * 1024 * 1024 });
      return res.status === 200 && res.text.trim() && !looksLikeHtml(res.text)
        ? met(`/llms-full.txt (${res.text.length} characters)`)
        : unmet(summary(ctx, res));
    },
  },
  {
    id: 'AR-DISC-05',
    title: 'HTTP Link header',
    strength: 'MAY',
    applies: 'baseline',
    fix: 'Send a Link header on / pointing at your agent documents (api-catalog, service-desc, describedby).',
    async probe(ctx) {
      const { links } = parseLinkHeader((await get(ctx, '/')).headers.get('link') ?? '');
      const rels = [...new Set(links.flatMap((l) => l.rels))].filter((r) =>
        ['sitemap', 'describedby', 'api-catalog', 'alternate', 'service-desc', 'service-doc'].includes(r),
      );
      return rels.length ? met(`Link on / declares ${rels.join(', ')}`) : unmet('no agent-useful Link header on /');
    },
  },
  {
    id: 'AR-DISC-06',
    title: 'NLWeb schema feeds',
    strength: 'MAY',
    applies: `the site offers ${NLWEB} search`,
    fix: 'If you offer NLWeb, name your schema feeds with a schemamap line in robots.txt.',
    async probe(ctx) {
      const { res, unreadable } = await fetchRobots(ctx);
      return !unreadable && /^\s*schemamap:/im.test(res.text)
        ? met('robots.txt has a schemamap line')
        : na('no NLWeb signal (robots.txt schemamap)');
    },
  },
  {
    id: 'AR-CONT-01',
    title: 'Schema.org structured data',
    strength: 'SHOULD',
    applies: 'baseline',
    fix: 'Embed schema.org JSON-LD (Organization, WebSite, Article, Product…) in your pages.',
    async probe(ctx) {
      const types = jsonLdNodes(htmlOf(await getPage(ctx, '/'))).flatMap(typesOf);
      return types.length ? met(`JSON-LD on / with ${[...new Set(types)].slice(0, 5).join(', ')}`) : unmet('no schema.org JSON-LD on /');
    },
  },
  {
    id: 'AR-CONT-02',
    title: 'Markdown content negotiation',
    strength: 'MAY',
    applies: 'baseline',
    fix: 'Answer Accept: text/markdown with markdown.',
    async probe(ctx) {
      const res = await negotiatedMarkdown(ctx, siteUrl(ctx, '/'));
      return isMarkdown(res)
        ? met('Accept: text/markdown on / → text/markdown')
        : unmet(`Accept: text/markdown on / → ${res.status} ${mediaType(res)}`);
    },
  },
  {
    id: 'AR-CONT-03',
    title: 'Markdown twins (/index.md)',
    strength: 'MAY',
    applies: 'baseline',
    fix: 'Serve each page as markdown at <page>.md (the home page at /index.md).',
    async probe(ctx) {
      const twin = await twinOf(ctx, siteUrl(ctx, '/'));
      return 'res' in twin ? met(`${new URL(twin.url).pathname} is markdown`) : unmet('no /index.md');
    },
  },
  {
    id: 'AR-CONT-04',
    title: 'Speakable markup for voice agents',
    strength: 'MAY',
    applies: 'content meant for voice agents',
    fix: 'Mark speakable sections with schema.org SpeakableSpecification.',
    async probe(ctx) {
      const nodes = jsonLdNodes(htmlOf(await getPage(ctx, '/')));
      return nodes.some((n) => typesOf(n).includes('SpeakableSpecification') || n.speakable)
        ? met('SpeakableSpecification on /')
        : na('no speakable markup (voice content is not detectable from outside)');
    },
  },
  {
    id: 'AR-CAPA-01',
    title: 'Tools over the Model Context Protocol',
    strength: 'MUST',
    applies: 'the product has agent tools',
    fix: 'Serve an MCP server over Streamable HTTP and advertise it in a server card.',
    async probe(ctx) {
      const signals = await mcpSignals(ctx);
      if (!signals.length) return na('no MCP server advertised');
      if (!ctx.behaviour) return { unchecked: `an MCP server is advertised (${signals[0]}); run --behaviour to exercise it` };
      const endpoint = await mcpEndpointOf(ctx);
      if (!endpoint) return unmet('the server card names no same-origin MCP endpoint');
      const evidence: string[] = [];
      for (const version of await mcpVersionsOf(ctx)) {
        const session = await mcpSession(ctx, endpoint, version);
        evidence.push(...session.evidence);
        if (session.problem || !session.tools?.length) return unmet(`${version}: ${session.problem ?? 'no tools'}`, evidence);
      }
      return met(`the MCP server at ${new URL(endpoint).pathname} answers and lists tools`, evidence);
    },
  },
  {
    id: 'AR-CAPA-02',
    title: 'MCP Server Card',
    strength: 'SHOULD',
    applies: 'the product has an MCP server',
    fix: 'Publish /.well-known/mcp/server-card.json.',
    async probe(ctx) {
      const signals = await mcpSignals(ctx);
      if (!signals.length) return na('no MCP server advertised');
      return fromVerdict(await checkMcpServerCard(ctx));
    },
  },
  {
    id: 'AR-CAPA-03',
    title: 'MCP Apps',
    strength: 'MAY',
    applies: 'the product has a UI agents could embed',
    fix: 'Offer MCP Apps (ui:// resources) where your product has a UI.',
    probe: async () => ({ unchecked: 'not detectable from outside (needs an MCP Apps host)' }),
  },
  {
    id: 'AR-CAPA-04',
    title: 'A2A Agent Card',
    strength: 'MUST',
    applies: 'the product exposes an agent-to-agent surface',
    fix: 'Publish /.well-known/agent-card.json for your A2A endpoint.',
    async probe(ctx) {
      if (!(await servedJson(ctx, AGENT_CARD_PATH))) return na('no A2A agent card (no agent-to-agent surface)');
      return fromVerdict(await checkA2aAgentCard(ctx));
    },
  },
  {
    id: 'AR-CAPA-05',
    title: 'WebMCP',
    strength: 'MAY',
    applies: 'baseline',
    fix: 'Register WebMCP tools (document.modelContext) on your pages.',
    async probe(ctx) {
      if (!ctx.probeWebMcp) return { unchecked: 'needs a browser (run without --no-browser)' };
      const tools = await ctx.probeWebMcp(siteUrl(ctx, '/')).catch(() => null);
      if (tools === null) return { unchecked: 'the browser could not load /' };
      return tools.length ? met(`/ registers ${tools.join(', ')}`) : unmet('no WebMCP tool registered on /');
    },
  },
  {
    id: 'AR-CAPA-06',
    title: 'NLWeb /ask',
    strength: 'MAY',
    applies: 'baseline',
    fix: 'Offer an NLWeb /ask endpoint.',
    probe: async () => ({ unchecked: 'not probed (it would query a search endpoint)' }),
  },
  {
    id: 'AR-CAPA-07',
    title: 'Agent Skills',
    strength: 'MAY',
    applies: 'baseline',
    fix: 'Publish /.well-known/agent-skills/index.json.',
    probe: async (ctx) => fromVerdict(await checkAgentSkills(ctx)),
  },
  {
    id: 'AR-CAPA-08',
    title: 'OpenAPI 3.1 description',
    strength: 'MUST',
    applies: 'the product exposes an HTTP API',
    fix: 'Publish an OpenAPI 3.1 document and point at it from /.well-known/api-catalog (service-desc).',
    async probe(ctx) {
      const found = await apiDescription(ctx);
      if (!found) return na('no HTTP API advertised (no api-catalog service-desc, Link service-desc or /openapi.json)');
      const res = await get(ctx, found.url, { accept: 'application/json, application/yaml;q=0.9' });
      const doc = res.status === 200 ? parseJsonObject(res) : null;
      const version = doc && typeof doc === 'object' ? doc.openapi : /^openapi:\s*["']?([\d.]+)/m.exec(res.text)?.[1];
      if (typeof version !== 'string')
        return unmet(`${found.signal} names ${found.url}, but ${summary(ctx, res)} is not an OpenAPI document`);
      return version.startsWith('3.1')
        ? met(`OpenAPI ${version} at ${new URL(found.url).pathname} (from ${found.signal})`)
        : unmet(`OpenAPI ${version}, not 3.1 (${found.url})`);
    },
  },
  {
    id: 'AR-CAPA-09',
    title: 'ai-plugin.json',
    strength: 'MAY',
    applies: 'the product ships a plugin manifest',
    fix: 'Serve /.well-known/ai-plugin.json if you have a plugin manifest.',
    async probe(ctx) {
      return (await servedJson(ctx, '/.well-known/ai-plugin.json'))
        ? met('/.well-known/ai-plugin.json')
        : na('no /.well-known/ai-plugin.json');
    },
  },
  {
    id: 'AR-IDEN-01',
    title: 'Web Bot Auth',
    strength: 'SHOULD',
    applies: 'baseline',
    fix: 'Publish the keys your bots sign with at /.well-known/http-message-signatures-directory.',
    probe: async (ctx) => fromVerdict(await checkWebBotAuth(ctx)),
  },
  {
    id: 'AR-IDEN-02',
    title: 'OAuth 2.0 for delegated, scoped access',
    strength: 'MUST',
    applies: 'the product holds user-owned resources',
    fix: 'Protect user resources with OAuth 2.0 and publish its metadata.',
    async probe(ctx) {
      const as = await asMetadata(ctx);
      const prm = await servedJson(ctx, PRM_PATH);
      if (!as && !prm) return na('no OAuth metadata (no protected resources advertised)');
      if (!as) return unmet('protected resource metadata but no authorization server metadata');
      const grants = Array.isArray(as.grant_types_supported) ? (as.grant_types_supported as string[]) : ['authorization_code'];
      return grants.some((g) => ['authorization_code', 'client_credentials', 'urn:ietf:params:oauth:grant-type:jwt-bearer'].includes(g))
        ? met(`OAuth 2.0 with ${grants.join(', ')}`)
        : unmet(`no delegated grant in grant_types_supported (${grants.join(', ')})`);
    },
  },
  {
    id: 'AR-IDEN-03',
    title: 'OAuth authorization server metadata',
    strength: 'MUST',
    applies: 'the product runs an authorization server',
    fix: 'Serve RFC 8414 metadata at /.well-known/oauth-authorization-server.',
    async probe(ctx) {
      if (!(await asMetadata(ctx)) && !(await servedJson(ctx, PRM_PATH))) return na('no authorization server advertised');
      return fromVerdict(await checkOAuthDiscovery(ctx));
    },
  },
  {
    id: 'AR-IDEN-04',
    title: 'OAuth protected resource metadata',
    strength: 'SHOULD',
    applies: 'the product has OAuth-protected resources',
    fix: 'Serve RFC 9728 metadata at /.well-known/oauth-protected-resource.',
    async probe(ctx) {
      if (!(await asMetadata(ctx)) && !(await servedJson(ctx, PRM_PATH))) return na('no OAuth surface');
      return fromVerdict(await checkProtectedResource(ctx));
    },
  },
  {
    id: 'AR-IDEN-05',
    title: 'PKCE with S256 for public clients',
    strength: 'MUST',
    applies: 'the authorization server accepts public clients (authorization code)',
    fix: 'List "S256" in code_challenge_methods_supported and require PKCE.',
    async probe(ctx) {
      const as = await asMetadata(ctx);
      if (!as) return na('no authorization server');
      const grants = Array.isArray(as.grant_types_supported) ? (as.grant_types_supported as string[]) : ['authorization_code', 'implicit'];
      if (!grants.includes('authorization_code')) return na('no authorization code grant (no public clients)');
      const methods = Array.isArray(as.code_challenge_methods_supported) ? (as.code_challenge_methods_supported as string[]) : [];
      return methods.includes('S256')
        ? met('code_challenge_methods_supported includes S256')
        : unmet(`code_challenge_methods_supported is ${JSON.stringify(as.code_challenge_methods_supported ?? null)}`);
    },
  },
  {
    id: 'AR-IDEN-06',
    title: 'API catalog (RFC 9727)',
    strength: 'MAY',
    applies: 'the product exposes APIs',
    fix: 'Serve /.well-known/api-catalog as an RFC 9727 linkset.',
    probe: async (ctx) => fromVerdict(await checkApiCatalog(ctx)),
  },
  ...(
    [
      ['AR-COMM-01', 'x402 payments', null],
      ['AR-COMM-02', 'Agentic Commerce Protocol (ACP)', '/.well-known/acp.json'],
      ['AR-COMM-03', 'ACP delegated payment', null],
      ['AR-COMM-04', 'Universal Commerce Protocol (UCP)', '/.well-known/ucp'],
      ['AR-COMM-05', 'Machine Payments Protocol (MPP)', null],
    ] as const
  ).map(
    ([id, title, path]): Requirement => ({
      id,
      title,
      strength: 'MAY',
      applies: 'the product accepts agent payment (one commerce protocol suffices)',
      fix: 'Commerce sites implement at least one agent payment protocol.',
      async probe(ctx) {
        const signals = await commerceSignals(ctx);
        if (!signals.length) return na('not a commerce site (no Offer markup, UCP or ACP profile)');
        if (!path) return { unchecked: 'detected only through a 402 exchange, which this checker does not start' };
        return (await servedJson(ctx, path)) ? met(`${path} is served`) : unmet(`no JSON at ${path}`);
      },
    }),
  ),
];

/** A requirement as a check: the finding mapped through its strength. */
function asCheck(req: Requirement): Check {
  return {
    id: req.id,
    title: req.title,
    scored: true,
    strength: req.strength,
    definition: SPEC,
    async run(ctx): Promise<Verdict> {
      const finding = await req.probe(ctx);
      const scope = req.applies === 'baseline' ? 'baseline' : `if ${req.applies}`;
      if ('na' in finding) return neutral(`not applicable: ${finding.na}`, `${req.strength} ${scope}: ${req.fix}`);
      if ('unchecked' in finding) return neutral(`not evaluated: ${finding.unchecked}`, req.fix);
      if (finding.met) return pass(finding.reason, { evidence: finding.evidence });
      const extra = { evidence: finding.evidence };
      if (req.strength === 'MUST') return fail(finding.reason, req.fix, extra);
      if (req.strength === 'SHOULD') return warn(`${finding.reason} (SHOULD: document why, or implement it)`, req.fix, extra);
      return neutral(`not implemented (MAY): ${finding.reason}`, req.fix, extra);
    },
  };
}

/** The AgentReady.org rubric. */
export const AGENTREADY_ORG: Rubric = {
  id: 'agentready-org',
  name: 'AgentReady.org standard',
  version: '1.0.0 (2026-04-24)',
  definition: SPEC,
  checks: REQUIREMENTS.map(asCheck),
  summarize(results: readonly CheckResult[]): RubricSummary {
    const failedMusts = results.filter((r) => r.strength === 'MUST' && r.status === 'fail').map((r) => r.id);
    const unevaluatedMusts = results.filter((r) => r.strength === 'MUST' && r.reason.startsWith('not evaluated')).map((r) => r.id);
    const metMusts = results.filter((r) => r.strength === 'MUST' && r.status === 'pass').length;
    const shouldsUnmet = results.filter((r) => r.strength === 'SHOULD' && r.status === 'warn').map((r) => r.id);
    const conformant = failedMusts.length === 0 && unevaluatedMusts.length === 0;
    // A MUST the scan budget starved is unevaluated for that reason, not for want of --behaviour.
    const starved = new Set(results.filter((r) => r.reason.includes(SCAN_BUDGET_USED)).map((r) => r.id));
    const needFlag = unevaluatedMusts.filter((id) => !starved.has(id));
    const starvedMusts = unevaluatedMusts.filter((id) => starved.has(id));
    const unevaluatedWhy = [
      needFlag.length ? `${needFlag.join(', ')} need --behaviour` : '',
      starvedMusts.length ? `${starvedMusts.join(', ')}: ${SCAN_BUDGET_USED}` : '',
    ]
      .filter(Boolean)
      .join('; ');
    return {
      headline: `${conformant ? 'conformant' : failedMusts.length ? `not conformant (${failedMusts.join(', ')})` : `conformance not established (${unevaluatedWhy})`}; ${metMusts} applicable MUST met${shouldsUnmet.length ? `, SHOULD unmet: ${shouldsUnmet.join(', ')}` : ''}`,
      conformant,
      failedMusts,
      unevaluatedMusts,
      shouldsUnmet,
    };
  },
};
