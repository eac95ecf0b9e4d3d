import type { APIRoute } from 'astro';
import { llmsTxt } from '../core/publish/llms.ts';
import { getCatalog, getSitePages } from '../astro/collection-catalog.ts';

export const GET: APIRoute = async () =>
  new Response(llmsTxt(await getCatalog(), await getSitePages()), { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
