import type { APIRoute } from 'astro';
import { sitemapXml } from '../core/publish/feeds.ts';
import { sitePages } from '../core/publish/pages.ts';
import { getCatalog } from '../lib/catalog.ts';

export const GET: APIRoute = async () => {
  const catalog = await getCatalog();
  return new Response(sitemapXml(catalog.origin, sitePages(catalog)), { headers: { 'Content-Type': 'application/xml; charset=utf-8' } });
};
