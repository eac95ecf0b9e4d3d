/**
 * linkHeaders check: the home page's RFC 8288 `Link` header points agents at machine-readable
 * descriptions, and those targets exist.
 * @module
 */
import { get, sameOrigin, summary } from '../http.ts';
import { type CheckContext, fail, pass, type Verdict } from '../types.ts';

/** One parsed link-value. */
export interface ParsedLink {
  href: string;
  rels: string[];
  params: Record<string, string>;
}

/**
 * Relations that help an agent (RFC 9727 api-catalog, RFC 8631 service-desc/service-doc/service-meta,
 * describedby). `alternate` counts only with a text type (the scanner passed an llms.txt/markdown
 * alternate); `sitemap` did not count on the scanner.
 */
export const AGENT_RELS = ['api-catalog', 'service-desc', 'service-doc', 'service-meta', 'describedby'] as const;
const AGENT_ALTERNATE_TYPES = ['text/markdown', 'text/plain'];

/** Link targets fetched to prove they exist. */
export const MAX_LINK_TARGETS = 10;

/** Splits on `sep` outside `<…>` and quoted strings. */
function splitOutside(value: string, sep: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (quoted) {
      if (c === '\\') i++;
      else if (c === '"') quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === '<') depth++;
    else if (c === '>') depth = Math.max(0, depth - 1);
    else if (c === sep && depth === 0) {
      parts.push(value.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(value.slice(start));
  return parts.map((p) => p.trim()).filter(Boolean);
}

/** Parses a (comma-joined) `Link` header; malformed link-values are returned in `invalid`. */
export function parseLinkHeader(header: string): { links: ParsedLink[]; invalid: string[] } {
  const links: ParsedLink[] = [];
  const invalid: string[] = [];
  for (const value of splitOutside(header, ',')) {
    const match = /^<([^>]*)>\s*(.*)$/s.exec(value);
    if (!match) {
      invalid.push(value);
      continue;
    }
    const params: Record<string, string> = {};
    for (const param of splitOutside(match[2]!, ';')) {
      const eq = param.indexOf('=');
      const name = (eq < 0 ? param : param.slice(0, eq)).trim().toLowerCase();
      let v = eq < 0 ? '' : param.slice(eq + 1).trim();
      if (v.startsWith('"') && v.endsWith('"') && v.length >= 2) v = v.slice(1, -1).replace(/\\(.)/g, '$1');
      if (name && !(name in params)) params[name] = v; // RFC 8288 §3: only the first occurrence of a parameter counts
    }
    links.push({ href: match[1]!, rels: (params.rel ?? '').toLowerCase().split(/\s+/).filter(Boolean), params });
  }
  return { links, invalid };
}

/** True when the link is one an agent can use. */
export function isAgentLink(link: ParsedLink): boolean {
  if (link.rels.some((r) => (AGENT_RELS as readonly string[]).includes(r))) return true;
  const type = (link.params.type ?? '').split(';')[0]!.trim().toLowerCase();
  return link.rels.includes('alternate') && AGENT_ALTERNATE_TYPES.includes(type);
}

const FIX =
  'Send a Link header on / such as `</.well-known/api-catalog>; rel="api-catalog", </openapi.json>; rel="service-desc", </llms.txt>; rel="describedby"; type="text/plain"` (RFC 8288, RFC 8631, RFC 9727), each target answering 200.';

/**
 * linkHeaders: `GET /` carries a parseable `Link` with ≥ 1 agent-useful relation, and every such
 * same-origin target answers 200 (a link to a 404 helps no agent; the scanner only reads the header,
 * the stricter reading also follows it).
 */
export async function checkLinkHeaders(ctx: CheckContext): Promise<Verdict> {
  const home = await get(ctx, '/');
  if (home.error || home.status !== 200) return fail(summary(ctx, home), FIX);
  const header = home.headers.get('link');
  if (!header) return fail('GET / has no Link header', FIX);
  const { links, invalid } = parseLinkHeader(header);
  if (invalid.length) return fail(`malformed Link value: ${invalid[0]!.slice(0, 80)}`, FIX);
  const useful = links.filter(isAgentLink);
  if (useful.length === 0) {
    const rels = [...new Set(links.flatMap((l) => l.rels))];
    return fail(`Link on / has no agent-useful relation (found: ${rels.join(', ') || 'none'})`, FIX);
  }
  let offOrigin = 0;
  for (const link of useful.slice(0, MAX_LINK_TARGETS)) {
    const target = new URL(link.href, home.url).href;
    if (!sameOrigin(ctx, target)) {
      offOrigin++;
      continue;
    }
    const type = link.params.type?.split(';')[0]?.trim();
    const res = await get(ctx, target, type ? { accept: type } : {});
    if (res.error || res.status !== 200)
      return fail(`Link rel="${link.rels.join(' ')}" points at ${link.href}, but ${summary(ctx, res)}`, FIX);
  }
  const rels = [
    ...new Set(useful.flatMap((l) => l.rels.filter((r) => r === 'alternate' || (AGENT_RELS as readonly string[]).includes(r)))),
  ];
  const unchecked = offOrigin ? ` (${offOrigin} on another origin, not fetched)` : '';
  return pass(`Link on / declares ${rels.join(', ')}; every same-origin target answers 200${unchecked}`);
}
