import type { APIRoute } from 'astro';
import { apiDocumentOf } from '../core/publish/openapi.ts';
import { getCatalog } from '../astro/collection-catalog.ts';

export const GET: APIRoute = async () => {
  return new Response(JSON.stringify(apiDocumentOf(await getCatalog()), null, 2), {
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });
};
