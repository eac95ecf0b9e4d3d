/**
 * Lighthouse's Agentic Browsing category (in the default config since Lighthouse 13.3; read from 13.5.0's
 * `core/config/default-config.js`): seven audits, shown as a fraction of the applicable ones that pass.
 * Two are HTTP checks this rubric runs without Lighthouse (`llms-txt`, `ard-schema`); `webmcp-registered-tools`
 * is read from the WebMCP probe when a browser is available; the other four need Lighthouse itself in a
 * Chrome (the accessibility tree, layout shift, Chrome's native WebMCP form and schema issues) and are
 * reported as not evaluated, with the command that evaluates them.
 *
 * The rules are written here from Lighthouse's audits (Apache-2.0): `core/audits/agentic/llms-txt.js` and
 * `ard-schema.js` with the ARD conformance rules it ports (`third-party/ard/ard.js`, ards-project/ard-spec).
 * Not importing Lighthouse keeps the checker small; the JSON Schema half of `ard-schema` (strict
 * `additionalProperties`) is mirrored by hand for the members it names.
 * @module
 */
import { get, looksLikeHtml, parseJsonObject, siteUrl } from '../http.ts';
import { fetchRobots } from '../checks/robots.ts';
import { parseLinkHeader } from '../checks/link-headers.ts';
import { htmlOf } from '../html.ts';
import { getPage } from '../site.ts';
import {
  type Check,
  type CheckContext,
  type CheckResult,
  fail,
  neutral,
  pass,
  type Rubric,
  type RubricSummary,
  type Verdict,
  warn,
} from '../types.ts';

const DOCS = 'https://developer.chrome.com/docs/lighthouse/agentic-browsing';
/** The command that evaluates what this rubric cannot without Lighthouse. */
export const LIGHTHOUSE_COMMAND = 'npx lighthouse <url> --only-categories=agentic-browsing';

/** Lighthouse's llms-txt audit: fewer characters than this is "suspiciously short". */
export const LLMS_TXT_MIN_CHARS = 50;

/**
 * llms-txt: `/llms.txt` fetched as the page's origin. A 4xx makes the audit not applicable (Lighthouse
 * scores it 1, n/a); a 5xx or a failed fetch fails; a body fails for each of: no `# H1` line, no
 * `[text](url)` link, under 50 characters.
 */
export async function lighthouseLlmsTxt(ctx: CheckContext): Promise<Verdict> {
  const fix =
    'Serve /llms.txt as markdown: a "# Title" line, a short summary, and [name](url) links to the pages agents need (llmstxt.org).';
  const res = await get(ctx, '/llms.txt');
  if (res.error || res.status === 0) return fail(`Fetch of llms.txt failed: ${res.error}`, fix);
  if (res.status >= 500) return fail(`Failed with HTTP status ${res.status}`, fix);
  if (res.status >= 400) return neutral(`/llms.txt → ${res.status}: not applicable (Lighthouse passes a site without llms.txt)`, fix);
  const errors: string[] = [];
  if (!/^\s*#\s+.+/m.test(res.text)) errors.push('missing a required H1 header ("# Title")');
  if (!/\[.+\]\(.+\)/.test(res.text)) errors.push('does not appear to contain any links');
  if (res.text.length < LLMS_TXT_MIN_CHARS) errors.push(`suspiciously short (${res.text.length} characters)`);
  if (errors.length) return fail(`/llms.txt is ${errors.join('; ')}`, fix);
  return pass(`/llms.txt has an H1 and links (${res.text.length} characters)`);
}

/** The entry media types the ARD conformance rules know; others are a warning. */
export const ARD_ENTRY_TYPES = [
  'application/ai-catalog+json',
  'application/agent-card+json',
  'application/a2a-agent-card+json',
  'application/mcp-server-card+json',
  'application/agent-skills+zip',
  'application/agent-skills+gzip',
  'text/markdown; profile="urn:air:agent-skills"',
  'application/ai-registry',
  'application/ai-registry+json',
];
const ARD_URN = /^urn:air:([a-zA-Z0-9.-]+)(?::([a-zA-Z0-9._:-]+))?:([a-zA-Z0-9._-]+)$/;
const ROOT_MEMBERS = ['specVersion', 'host', 'entries'];
const HOST_MEMBERS = ['displayName', 'identifier', 'documentationUrl', 'logoUrl', 'trustManifest'];

/** The ARD conformance rules Lighthouse runs on an ai-catalog.json: errors (fail) and warnings (score 0.9). */
export function ardIssues(doc: Record<string, unknown>): { errors: string[]; warnings: string[] } {
  const errors: string[] = [];
  const warnings: string[] = [];
  for (const key of Object.keys(doc))
    if (!ROOT_MEMBERS.includes(key)) errors.push(`unknown root member "${key}" (the schema allows ${ROOT_MEMBERS.join(', ')})`);
  if (!doc.specVersion) errors.push('missing "specVersion"');
  else if (doc.specVersion !== '1.0') warnings.push(`"specVersion" is ${JSON.stringify(doc.specVersion)}, expected "1.0"`);
  if (doc.host !== undefined) {
    const host = doc.host as Record<string, unknown>;
    if (!host || typeof host !== 'object' || typeof host.displayName !== 'string') errors.push('"host" needs a string "displayName"');
    else for (const key of Object.keys(host)) if (!HOST_MEMBERS.includes(key)) errors.push(`unknown member "host.${key}"`);
  }
  if (!Array.isArray(doc.entries)) {
    errors.push('"entries" must be an array');
    return { errors, warnings };
  }
  for (const [i, raw] of doc.entries.entries()) {
    const entry = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
    const label = String(entry.displayName ?? entry.identifier ?? `entries[${i}]`);
    if (typeof entry.identifier !== 'string' || !ARD_URN.test(entry.identifier))
      errors.push(`${label}: "identifier" is not urn:air:<publisher>:<namespace>:<name>`);
    if (!entry.displayName) errors.push(`${label}: missing "displayName"`);
    if (!entry.type) errors.push(`${label}: missing "type"`);
    else if (!ARD_ENTRY_TYPES.includes(String(entry.type)))
      warnings.push(`${label}: type ${JSON.stringify(entry.type)} is not a standard discovery type`);
    if ((entry.url === undefined) === (entry.data === undefined)) errors.push(`${label}: needs exactly one of "url" and "data"`);
    const queries = entry.representativeQueries;
    if (queries === undefined || queries === null) warnings.push(`${label}: no "representativeQueries" (2 to 5 recommended)`);
    else if (!Array.isArray(queries) || queries.some((q) => typeof q !== 'string'))
      errors.push(`${label}: "representativeQueries" must be strings`);
    else if (queries.length < 2 || queries.length > 5)
      warnings.push(`${label}: ${queries.length} "representativeQueries" (2 to 5 recommended)`);
    const trust = entry.trustManifest as Record<string, unknown> | undefined;
    if (trust !== undefined && trust !== null && (typeof trust !== 'object' || !trust.identity))
      errors.push(`${label}: "trustManifest" needs an "identity"`);
  }
  if ('collections' in doc) errors.push('root "collections" was removed in ARD ADR-0003');
  return { errors, warnings };
}

/**
 * ard-schema: the catalog a site points at (robots.txt `Agentmap:`, `<link rel="ai-catalog">` on the page,
 * or a `Link: …; rel="ai-catalog"` header), else `/.well-known/ai-catalog.json`. No signal and no catalog:
 * not applicable. Errors fail, warnings grade it 0.9 (warn here).
 */
export async function lighthouseArdSchema(ctx: CheckContext): Promise<Verdict> {
  const fix =
    'Serve a valid ARD catalog at /.well-known/ai-catalog.json (specVersion "1.0", entries with urn:air identifiers, displayName, a standard type, url or data, 2-5 representativeQueries) and point at it with rel="ai-catalog".';
  const { res: robotsRes, unreadable } = await fetchRobots(ctx);
  const agentmap = unreadable ? undefined : /^\s*Agentmap:\s*(\S+)/im.exec(robotsRes.text)?.[1];
  const home = await getPage(ctx, '/');
  const htmlLink = htmlOf(home).links.find((l) => l.rels.includes('ai-catalog'))?.href;
  const headerLink = parseLinkHeader(home.headers.get('link') ?? '').links.find((l) => l.rels.includes('ai-catalog'))?.href;
  const signal = agentmap ?? htmlLink ?? headerLink;
  const url = signal ? new URL(signal, home.url || siteUrl(ctx, '/')).href : siteUrl(ctx, '/.well-known/ai-catalog.json');
  const res = await get(ctx, url, { accept: 'application/json' });
  if (!signal && (res.error || res.status !== 200))
    return neutral('no ai-catalog.json and no rel="ai-catalog" signal: not applicable', fix);
  if (res.error || res.status !== 200 || looksLikeHtml(res.text))
    return fail(`the catalog at ${url} could not be loaded (${res.error ?? res.status})`, fix);
  const doc = parseJsonObject(res);
  if (typeof doc === 'string') return fail(`${url}: ${doc}`, fix);
  const { errors, warnings } = ardIssues(doc);
  if (errors.length) return fail(`${url}: ${errors.slice(0, 3).join('; ')}${errors.length > 3 ? ` (+${errors.length - 3})` : ''}`, fix);
  if (warnings.length) return warn(`${url}: ${warnings.slice(0, 3).join('; ')}`, fix);
  return pass(`${url} conforms to ARD 1.0 (${(doc.entries as unknown[]).length} entries)${signal ? '' : ', found at the well-known path'}`);
}

/** webmcp-registered-tools (informative in Lighthouse): the tools the page registers, from the WebMCP probe. */
export async function lighthouseRegisteredTools(ctx: CheckContext): Promise<Verdict> {
  const fix = 'Register tools with document.modelContext (navigator.modelContext in older Chrome) while the page loads.';
  if (!ctx.probeWebMcp) return neutral('not evaluated: no browser (informative audit)', fix);
  const tools = await ctx.probeWebMcp(siteUrl(ctx, '/')).catch(() => null);
  if (tools === null) return neutral('not evaluated: the browser could not load the page', fix);
  if (tools.length === 0) return neutral('no WebMCP tool registered while / loaded (informative audit)', fix);
  return pass(`/ registers ${tools.join(', ')}`);
}

/** An audit only Lighthouse evaluates: reported neutral, with the command that runs it. */
function lighthouseOnly(what: string): (ctx: CheckContext) => Promise<Verdict> {
  return async () => neutral(`not evaluated: ${what} needs Lighthouse in Chrome`, `Run \`${LIGHTHOUSE_COMMAND}\`.`);
}

const AUDITS: Check[] = [
  {
    id: 'agent-accessibility-tree',
    title: 'Accessibility tree is well-formed',
    scored: true,
    definition: `${DOCS}/accessibility-for-agents`,
    run: lighthouseOnly('the accessibility tree (axe rules on the rendered page)'),
  },
  {
    id: 'webmcp-form-coverage',
    title: 'Forms have WebMCP annotations',
    scored: false,
    definition: `${DOCS}/scoring`,
    run: lighthouseOnly("Chrome's WebMCP form inspection"),
  },
  {
    id: 'webmcp-registered-tools',
    title: 'Registered WebMCP tools',
    scored: false,
    definition: `${DOCS}/scoring`,
    run: lighthouseRegisteredTools,
  },
  {
    id: 'webmcp-schema-validity',
    title: 'WebMCP tool schemas are valid',
    scored: true,
    definition: `${DOCS}/scoring`,
    run: lighthouseOnly("Chrome's WebMCP schema issues"),
  },
  {
    id: 'cumulative-layout-shift',
    title: 'Cumulative Layout Shift',
    scored: true,
    definition: 'https://developer.chrome.com/docs/lighthouse/performance/cumulative-layout-shift',
    run: lighthouseOnly('layout shift (a page load trace)'),
  },
  { id: 'llms-txt', title: 'llms.txt follows recommendations', scored: true, definition: `${DOCS}/llms-txt`, run: lighthouseLlmsTxt },
  {
    id: 'ard-schema',
    title: 'ai-catalog.json schema is valid',
    scored: true,
    definition: 'https://agenticresourcediscovery.org/spec/',
    run: lighthouseArdSchema,
  },
];

/** The Lighthouse Agentic Browsing rubric. */
export const LIGHTHOUSE: Rubric = {
  id: 'lighthouse',
  name: 'Lighthouse Agentic Browsing',
  version: '13.5.0',
  definition: `${DOCS}/scoring`,
  checks: AUDITS,
  summarize(results: readonly CheckResult[]): RubricSummary {
    const scored = results.filter((r) => r.scored && (r.status === 'pass' || r.status === 'fail' || r.status === 'warn'));
    // Lighthouse shows an audit as passed from a score of 0.9 (its ARD warnings score exactly that).
    const passed = scored.filter((r) => r.status !== 'fail').length;
    const notEvaluated = results.filter((r) => r.reason.startsWith('not evaluated')).map((r) => r.id);
    return {
      headline: `${passed}/${scored.length} evaluated audits pass${notEvaluated.length ? `; ${notEvaluated.length} need Lighthouse (${notEvaluated.join(', ')})` : ''}`,
      passed,
      evaluated: scored.length,
      notEvaluated,
    };
  },
};
