/**
 * dnsAid check (informational): DNS for AI Discovery, draft-mozleywilliams-dnsop-dnsaid-02. Agents
 * find a domain's entry points in SVCB/HTTPS records (RFC 9460) under the `_agents` label:
 * `_index._agents.<domain>` (the site's entry point), `_mcp._agents.<domain>`, `_a2a._agents.<domain>`,
 * answered with DNSSEC validation.
 *
 * The checker cannot validate DNSSEC itself, and a local run has no public DNS: without an
 * injected resolver (`ctx.resolveDns`, e.g. DNS over HTTPS) the check explains the records to add
 * for this origin and is neutral. With one, records that a validating resolver vouches for pass.
 * It never fails and is not scored: the scanner scores it, but it needs a signed public zone.
 * @module
 */
import { get } from '../http.ts';
import { type CheckContext, type DnsAnswer, type DnsRecord, neutral, pass, type Verdict } from '../types.ts';
import { AGENT_CARD_PATH } from './a2a-agent-card.ts';
import { SERVER_CARD_PATHS } from './mcp-server-card.ts';

/** The `_agents` names this check looks up, in order: the index, then the protocol entry points. */
export const DNS_AID_LABELS = ['_index._agents', '_mcp._agents', '_a2a._agents'] as const;

/** A DNS name can carry DNS-AID records: not an IP literal, not localhost, not a single label. */
export function isPublicDnsName(host: string): boolean {
  if (host === 'localhost' || host.endsWith('.localhost') || !host.includes('.')) return false;
  return !/^\d{1,3}(?:\.\d{1,3}){3}$/.test(host) && !host.startsWith('[');
}

/**
 * The records an operator adds for this origin: always `_index`; `_mcp` when the site serves an MCP
 * server card, `_a2a` when it serves an A2A agent card (advertise only what exists). ServiceMode
 * HTTPS records pointing at the origin's host; `alpn` names the HTTP versions (RFC 9460 wants
 * registered ALPN ids, and both MCP and A2A run over HTTPS).
 */
export async function recommendedRecords(ctx: CheckContext): Promise<string[]> {
  const url = new URL(ctx.baseUrl);
  const published = isPublicDnsName(url.hostname);
  const host = published ? url.hostname : 'example.com';
  const port = (published && url.port) || '443';
  const offers = async (path: string): Promise<boolean> => (await get(ctx, path, { accept: 'application/json' })).status === 200;
  const labels: string[] = ['_index._agents'];
  if (await offers(SERVER_CARD_PATHS[0])) labels.push('_mcp._agents');
  if (await offers(AGENT_CARD_PATH)) labels.push('_a2a._agents');
  return labels.map((label) => `${label}.${host}. 3600 IN HTTPS 1 ${host}. alpn="h2,h3" port=${port}`);
}

/** A ServiceMode SVCB/HTTPS record (priority ≥ 1) with a target and an `alpn`; AliasMode (0) only points elsewhere. */
export function isServiceRecord(record: DnsRecord): boolean {
  const [priority, target, ...params] = record.data.trim().split(/\s+/);
  return Number(priority) >= 1 && !!target && params.some((p) => p.startsWith('alpn='));
}

/** dnsAid: pass when a validating resolver returns ≥ 1 ServiceMode record under `_agents`; otherwise neutral with the records to add. */
export async function checkDnsAid(ctx: CheckContext): Promise<Verdict> {
  const host = new URL(ctx.baseUrl).hostname;
  const records = await recommendedRecords(ctx);
  const fix = `Publish in your DNSSEC-signed zone (DNS-AID, draft-mozleywilliams-dnsop-dnsaid-02): ${records.join('; ')}`;
  if (!isPublicDnsName(host))
    return neutral(`not checked: ${host} is not a public DNS name (DNS-AID records live in public, DNSSEC-signed DNS)`, fix);
  if (!ctx.resolveDns)
    return neutral(`not checked: needs a DNSSEC-validating resolver (--doh <url>); records to add for ${host} are listed in the fix`, fix);
  const found: DnsRecord[] = [];
  let validated = true;
  for (const label of DNS_AID_LABELS) {
    for (const type of ['HTTPS', 'SVCB'] as const) {
      let answer: DnsAnswer;
      try {
        answer = await ctx.resolveDns(`${label}.${host}`, type);
      } catch (error) {
        return neutral(
          `not checked: the DNS lookup of ${label}.${host} ${type} failed (${error instanceof Error ? error.message : String(error)})`,
          fix,
        );
      }
      const service = answer.records.filter(isServiceRecord);
      if (service.length) {
        found.push(...service);
        validated &&= answer.dnssecValidated;
      }
    }
  }
  if (found.length === 0) return neutral(`no DNS-AID record under _agents.${host} (HTTPS/SVCB ServiceMode with alpn)`, fix);
  const names = [...new Set(found.map((r) => r.name.replace(/\.$/, '')))].join(', ');
  if (!validated)
    return neutral(
      `${found.length} DNS-AID record(s) at ${names}, but the answer is not DNSSEC-validated (unsigned zone or no DS at the registrar)`,
      fix,
    );
  return pass(`${found.length} DNSSEC-validated DNS-AID record(s) at ${names}`);
}
