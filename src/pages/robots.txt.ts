import type { APIRoute } from 'astro';
import { robotsTxt } from '../core/publish/feeds.ts';
import { getCatalog } from '../astro/collection-catalog.ts';

export const GET: APIRoute = async () =>
  new Response(robotsTxt(await getCatalog()), { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
