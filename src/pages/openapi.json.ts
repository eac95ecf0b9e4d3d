import type { APIRoute } from 'astro';
import { openApiDocument } from '../core/publish/openapi.ts';
import { getCatalog } from '../astro/collection-catalog.ts';

export const GET: APIRoute = async () => {
  const { origin, company } = await getCatalog();
  return new Response(JSON.stringify(openApiDocument(origin, company), null, 2), {
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });
};
