/**
 * A DNSSEC-validating resolver for the dnsAid check over DNS over HTTPS, JSON flavour
 * (`application/dns-json`, as Cloudflare's and Google's public resolvers answer `?name=&type=&do=1`).
 * The resolver validates; the checker trusts its AD bit, so name a resolver you trust.
 * @module
 */
import { REQUEST_TIMEOUT_MS } from './http.ts';
import type { DnsResolver } from './types.ts';

/** RR type codes (RFC 9460). */
const TYPE_CODES = { SVCB: 64, HTTPS: 65 } as const;
/** DNS RCODEs that mean "answered": NOERROR, and NXDOMAIN (the name has no records). */
const ANSWERED = [0, 3];

interface DohJson {
  Status?: number;
  AD?: boolean;
  Answer?: { name?: unknown; type?: unknown; data?: unknown }[];
}

/** A resolver asking `endpoint` (e.g. `https://cloudflare-dns.com/dns-query`) with DNSSEC data requested. */
export function dnsOverHttpsResolver(endpoint: string, fetchImpl: typeof fetch = fetch, timeoutMs = REQUEST_TIMEOUT_MS): DnsResolver {
  return async (name, type) => {
    const url = new URL(endpoint);
    url.searchParams.set('name', name);
    url.searchParams.set('type', type);
    url.searchParams.set('do', '1');
    const res = await fetchImpl(url, { headers: { accept: 'application/dns-json' }, signal: AbortSignal.timeout(timeoutMs) });
    if (!res.ok) throw new Error(`${url.host} answered HTTP ${res.status}`);
    const body = (await res.json()) as DohJson;
    if (!ANSWERED.includes(body.Status ?? -1)) throw new Error(`${url.host} answered DNS status ${String(body.Status)}`);
    const records = (body.Answer ?? [])
      .filter((a) => a.type === TYPE_CODES[type] && typeof a.name === 'string' && typeof a.data === 'string')
      .map((a) => ({ name: a.name as string, type, data: a.data as string }));
    return { records, dnssecValidated: body.AD === true };
  };
}
