/**
 * Redirect URIs: which ones a client may register, and which registered one a request names.
 *
 * Comparison is on the exact string (RFC 9700 §4.1.3). The one relaxation is RFC 8252 §7.3: a
 * native app listening on a loopback IP literal may use any port. A URI counts only in its
 * canonical spelling (the WHATWG URL serialisation), so the same loopback address cannot be
 * written another way (`0x7f.1`, `2130706433`, `127.1`), hide dot-segments (`/a/../cb`) or carry
 * userinfo (`http://evil@127.0.0.1/`): each of those parses to something the registrant never
 * wrote, and the match would then depend on the parser rather than on the registration.
 * @module
 */

import { LOOPBACK_HOSTNAMES } from '../../kernel/origin.ts';

/** Port variance is allowed for IP literals only, not the name "localhost" (RFC 8252 §8.3). */
const LOOPBACK_IPS = ['127.0.0.1', '[::1]'];

/** The parsed URI when `value` is written exactly as the URL parser would write it back. */
function canonicalUrl(value: string): URL | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  // A URI without a path (`https://app.example`) serialises with "/": that is the same URI.
  return url.href === value || url.href === `${value}/` ? url : null;
}

/** Why `value` cannot be registered as a redirect URI, or null when it can. */
export function redirectUriProblem(value: string): string | null {
  const url = canonicalUrl(value);
  if (!url)
    return 'must be an absolute URI in canonical form (lower-case scheme and host, no dot-segments, the usual spelling of an IP address)';
  if (value.includes('#')) return 'must not have a fragment';
  if (url.username || url.password) return 'must not contain userinfo';
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && LOOPBACK_HOSTNAMES.includes(url.hostname)) return null;
  return 'must be https, or http on a loopback address (127.0.0.1, [::1] or localhost)';
}

/** A loopback IP redirect URI without its port, for the RFC 8252 §7.3 comparison; null otherwise. */
function loopbackWithoutPort(value: string): string | null {
  const url = canonicalUrl(value);
  if (!url || url.href !== value || url.protocol !== 'http:' || !LOOPBACK_IPS.includes(url.hostname)) return null;
  if (url.username || url.password || value.includes('#')) return null;
  return `http://${url.hostname}${value.slice(`http://${url.host}`.length)}`;
}

/**
 * The registered redirect URI a request names: an exact string match, except that a loopback IP
 * literal may use any port. Absent means the only registered one, if there is one.
 */
export function matchRedirectUri(registered: readonly string[], requested: string | undefined): string | null {
  if (requested === undefined) return registered.length === 1 ? registered[0]! : null;
  if (registered.includes(requested)) return requested;
  const asked = loopbackWithoutPort(requested);
  if (asked === null) return null;
  return registered.some((r) => loopbackWithoutPort(r) === asked) ? requested : null;
}
