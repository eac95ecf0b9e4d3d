/**
 * RFC 8288 `Link` header values sent with every HTML page: where agents find the machine-readable
 * descriptions of this site. One list, one place.
 * @module
 */
import { paths } from './paths.ts';

export interface LinkValue {
  href: string;
  rel: string;
  type?: string;
}

/** Site-wide links (the page's own markdown alternate is added per page). */
export const DISCOVERY_LINKS: readonly LinkValue[] = [
  { href: paths.apiCatalog, rel: 'api-catalog', type: 'application/linkset+json' },
  { href: paths.openApi, rel: 'service-desc', type: 'application/json' },
  { href: paths.apiDocs, rel: 'service-doc', type: 'text/html' },
  { href: paths.llms, rel: 'describedby', type: 'text/plain' },
  { href: paths.sitemap, rel: 'sitemap', type: 'application/xml' },
  // Not an IANA-registered relation; the AI Catalog proposal and scanners look for it.
  { href: paths.aiCatalog, rel: 'ai-catalog', type: 'application/json' },
];

/** Serialises link values for a `Link` header. */
export function formatLinks(links: readonly LinkValue[]): string[] {
  return links.map((l) => `<${l.href}>; rel="${l.rel}"${l.type ? `; type="${l.type}"` : ''}`);
}

/**
 * Static files agents read as discovery documents. They are served by the CDN; the edge function
 * adds ETag validation where the CDN gives none (see `withValidators`).
 */
export const STATIC_DISCOVERY_PATHS: readonly string[] = [
  paths.llms,
  paths.openApi,
  paths.authMd,
  paths.robots,
  paths.sitemap,
  paths.sitemapMarkdown,
];
