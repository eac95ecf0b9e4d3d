/**
 * RFC 8288 `Link` header values sent with every HTML page: where agents find the machine-readable
 * descriptions of this site. Grows as discovery documents land (one list, one place).
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
  { href: paths.openApi, rel: 'service-desc', type: 'application/json' },
  { href: paths.apiDocs, rel: 'service-doc', type: 'text/html' },
  { href: paths.llms, rel: 'describedby', type: 'text/plain' },
  { href: paths.sitemap, rel: 'sitemap', type: 'application/xml' },
];

/** Serialises link values for a `Link` header. */
export function formatLinks(links: readonly LinkValue[]): string[] {
  return links.map((l) => `<${l.href}>; rel="${l.rel}"${l.type ? `; type="${l.type}"` : ''}`);
}
