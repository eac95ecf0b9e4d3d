/**
 * Which browser origins may call the JSON-RPC endpoints (`/mcp`, `/a2a`): one rule for both, so a
 * page that may use one may use the other (docs/agents.md, "Browser-based agents").
 *
 * Why the default differs by site: the `Origin` check guards against DNS rebinding, which matters
 * for a server on a loopback or private address (a page on `evil.example` rebinds its name to
 * 127.0.0.1 and drives a local server with the user's network position: the MCP security best
 * practices and the conformance suite's `dns-rebinding-protection` check). A public https site
 * gains nothing from it: anyone can already call its public tools from a server, no endpoint uses
 * cookies or other ambient credentials (a bearer token is sent only by a client that holds it), and
 * CORS never grants credentials here. So a public https site lets every origin call, and a browser
 * MCP or A2A client on another site works, the protected tool included with its own token; a
 * loopback or private site keeps the strict rule. `AGENT_BROWSER_ORIGINS` (src/core/config.ts)
 * overrides the default either way.
 * @module
 */
import { addressKind } from './ip-ranges.ts';
import { isLoopbackOrigin } from './origin.ts';

/**
 * The operator's choice: `auto` (the default above), `any` (every origin, `*`), or `listed` (the
 * site's own origin and these; empty = same origin only).
 */
export type BrowserOriginPolicy = { kind: 'auto' } | { kind: 'any' } | { kind: 'listed'; origins: readonly string[] };

/** The default policy. */
export const AUTO_BROWSER_ORIGINS: BrowserOriginPolicy = { kind: 'auto' };

/** Host names that never resolve to a public site (RFC 6761, RFC 8375, common internal suffixes). */
const INTERNAL_NAME = /(^|\.)(localhost|local|internal|lan|home\.arpa|intranet|corp)$/i;

/**
 * Whether the site at `siteOrigin` is public: https, and its host a public address or a name
 * with a dot outside the internal suffixes (a name can still resolve privately; an operator who
 * serves a public name on a private network sets AGENT_BROWSER_ORIGINS).
 */
export function isPublicHttpsOrigin(siteOrigin: string): boolean {
  let url: URL;
  try {
    url = new URL(siteOrigin);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:') return false;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const kind = addressKind(host);
  if (kind !== 'invalid') return kind === 'public';
  return host.includes('.') && !INTERNAL_NAME.test(host);
}

/** Whether every origin may call under `policy` for this site (then CORS answers `*`). */
export function allowsAnyOrigin(siteOrigin: string, policy: BrowserOriginPolicy = AUTO_BROWSER_ORIGINS): boolean {
  return policy.kind === 'any' || (policy.kind === 'auto' && isPublicHttpsOrigin(siteOrigin));
}

/**
 * Whether a browser page on `origin` may call. Always: the site's own origin, and on a loopback
 * site (dev, tests, `npm start`) any loopback origin on any port. Beyond that, as the policy says.
 * Requests without `Origin` are not browsers' cross-origin calls and are not checked here.
 */
export function isAllowedBrowserOrigin(origin: string, siteOrigin: string, policy: BrowserOriginPolicy = AUTO_BROWSER_ORIGINS): boolean {
  if (origin === siteOrigin) return true;
  if (isLoopbackOrigin(siteOrigin) && isLoopbackOrigin(origin)) return true;
  if (allowsAnyOrigin(siteOrigin, policy)) return true;
  return policy.kind === 'listed' && policy.origins.includes(origin);
}

/**
 * Parses `AGENT_BROWSER_ORIGINS`: `auto`, `*`, `same-origin`, or a comma-separated list of origins
 * (`https://app.example,http://localhost:3000`).
 * @throws Error naming the entry that is not an origin.
 */
export function parseBrowserOriginPolicy(value: string): BrowserOriginPolicy {
  const text = value.trim();
  if (text === '' || text === 'auto') return { kind: 'auto' };
  if (text === '*') return { kind: 'any' };
  if (text === 'same-origin') return { kind: 'listed', origins: [] };
  const origins = text.split(',').map((entry) => {
    const trimmed = entry.trim();
    let url: URL;
    try {
      url = new URL(trimmed);
    } catch {
      throw new Error(`"${trimmed}" is not an origin (e.g. https://app.example); or use auto, * or same-origin`);
    }
    if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.origin !== trimmed.replace(/\/$/, ''))
      throw new Error(`"${trimmed}" is not an origin: scheme, host and port only (e.g. https://app.example)`);
    return url.origin;
  });
  return { kind: 'listed', origins };
}
