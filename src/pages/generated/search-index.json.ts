import type { APIRoute } from 'astro';
import { documentsOf } from '../../core/content/catalog.ts';
import { buildSearchIndex, serializeSearchIndex } from '../../core/search/build-index.ts';
import { getCatalog } from '../../lib/catalog.ts';

/** The /api/search and MCP search index, built once from the same catalogue the pages use. */
export const GET: APIRoute = async () =>
  new Response(serializeSearchIndex(buildSearchIndex(documentsOf(await getCatalog()))), { headers: { 'content-type': 'application/json' } });
