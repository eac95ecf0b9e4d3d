import type { APIRoute } from 'astro';
import { rssXml } from '../core/publish/feeds.ts';
import { getCatalog } from '../astro/collection-catalog.ts';

export const GET: APIRoute = async () =>
  new Response(rssXml(await getCatalog()), { headers: { 'Content-Type': 'application/rss+xml; charset=utf-8' } });
