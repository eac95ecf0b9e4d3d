import type { APIRoute } from 'astro';
import { sitemapXml } from '../core/publish/feeds.ts';
import { getCatalog, getSitePages } from '../astro/collection-catalog.ts';

export const GET: APIRoute = async () => {
  const catalog = await getCatalog();
  return new Response(sitemapXml(catalog.origin, await getSitePages()), { headers: { 'Content-Type': 'application/xml; charset=utf-8' } });
};
