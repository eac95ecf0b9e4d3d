/** /sitemap.md: the site map as markdown (src/core/publish/feeds.ts sitemapMarkdown). */
import type { APIRoute } from 'astro';
import { sitemapMarkdown } from '../core/publish/feeds.ts';
import { getCatalog, getSitePages } from '../astro/collection-catalog.ts';

export const GET: APIRoute = async () =>
  new Response(sitemapMarkdown(await getCatalog(), await getSitePages()), { headers: { 'Content-Type': 'text/markdown; charset=utf-8' } });
