/**
 * /search/addresses.json: the address of every article and solution, for the 404 page's suggestions
 * by similar slug (src/core/publish/not-found.ts, nearAddresses). Only the 404 page fetches it, after
 * it has painted; about 45 bytes an address before compression (~450 KB for 10,000 articles).
 */
import type { APIRoute } from 'astro';
import { getCatalog } from '../../astro/collection-catalog.ts';

export const GET: APIRoute = async () => {
  const { articles, solutions } = await getCatalog();
  return new Response(JSON.stringify([...articles, ...solutions].map((doc) => doc.path)), {
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });
};
