import type { APIRoute } from 'astro';
import { getSearchIndex } from '../../lib/search-index.ts';

/** The /api/search and MCP search index, built once from the same catalogue the pages use. */
export const GET: APIRoute = async () => new Response((await getSearchIndex()).json, { headers: { 'content-type': 'application/json' } });
