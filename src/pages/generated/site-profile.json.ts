import type { APIRoute } from 'astro';
import { siteProfile } from '../../core/content/catalog.ts';
import { getCatalog } from '../../lib/catalog.ts';

/** The catalogue without documents, for every function but the MCP server; moved to generated/ like catalog.json. */
export const GET: APIRoute = async () => new Response(JSON.stringify(siteProfile(await getCatalog())), { headers: { 'Content-Type': 'application/json' } });
