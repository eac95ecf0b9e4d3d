import type { APIRoute } from 'astro';
import { getCatalog } from '../../lib/catalog.ts';

/** The catalogue for the functions; moved out of dist/ into generated/ after the build (src/integrations/site-data.ts). */
export const GET: APIRoute = async () => new Response(JSON.stringify(await getCatalog()), { headers: { 'Content-Type': 'application/json' } });
