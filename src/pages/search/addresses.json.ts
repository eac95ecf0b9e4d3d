/**
 * /search/addresses.json: the address of every article and solution, category and tag page, for the 404 page's
 * suggestions by similar slug (src/core/publish/not-found.ts, nearAddresses; the list: notFoundAddresses). Only
 * the 404 page fetches it, after it has painted.
 */
import type { APIRoute } from 'astro';
import { notFoundAddresses } from '../../core/publish/search-pages.ts';
import { getCatalog } from '../../astro/collection-catalog.ts';

export const GET: APIRoute = async () =>
  new Response(JSON.stringify(notFoundAddresses(await getCatalog())), {
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });
