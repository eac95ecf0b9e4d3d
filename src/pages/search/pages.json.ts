/** /search/pages.json: the products, listings, API reference and developers hub pages the search page and palette match by name. */
import type { APIRoute } from 'astro';
import { sitePages } from '../../core/publish/pages.ts';
import { searchablePages } from '../../core/publish/search-pages.ts';
import { getCatalog } from '../../astro/collection-catalog.ts';

export const GET: APIRoute = async () =>
  new Response(JSON.stringify(searchablePages(sitePages(await getCatalog()))), {
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });
