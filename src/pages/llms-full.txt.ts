import type { APIRoute } from 'astro';
import { llmsFullTxt } from '../core/publish/feeds.ts';
import { sitePages } from '../core/publish/pages.ts';
import { getCatalog } from '../lib/catalog.ts';

export const GET: APIRoute = async () => {
  const catalog = await getCatalog();
  return new Response(llmsFullTxt(catalog, sitePages(catalog)), { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
};
