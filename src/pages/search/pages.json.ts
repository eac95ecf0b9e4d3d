/** /search/pages.json: the products, listings, API reference and developers hub pages the search page and palette match by name. */
import type { APIRoute } from 'astro';
import { searchablePages } from '../../core/publish/search-pages.ts';
import { getSitePages } from '../../astro/collection-catalog.ts';

// The build's one list of pages: computing it again cost a large build measurably
// (docs/benchmarks-history.md, "Build, issue 25: cheaper per-build work").
export const GET: APIRoute = async () =>
  new Response(JSON.stringify(searchablePages(await getSitePages())), {
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });
