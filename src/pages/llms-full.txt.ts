import type { APIRoute } from 'astro';
import { llmsFullTxt } from '../core/publish/feeds.ts';
import { getCatalog, getSitePages } from '../astro/collection-catalog.ts';

export const GET: APIRoute = async () => {
  const catalog = await getCatalog();
  return new Response(llmsFullTxt(catalog, await getSitePages()), { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
};
