/**
 * The User-Agent of every request this site makes (signed tweet-feed fetches and contact webhook
 * deliveries, client metadata documents, agents' key directories): one product token and, as
 * crawlers do, the site's origin in a comment, so a receiver's log says who called (RFC 9110 §10.1.5).
 * @module
 */

/** The product token (name/major version) this software sends. */
export const SITE_USER_AGENT_PRODUCT = 'agent-ready-site/1';

/** The User-Agent of the site at `origin`: `agent-ready-site/1 (+https://www.acme-ai.example)`. */
export function siteUserAgent(origin: string): string {
  return `${SITE_USER_AGENT_PRODUCT} (+${new URL(origin).origin})`;
}
