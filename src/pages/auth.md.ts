import type { APIRoute } from 'astro';
import { renderAuthMd } from '../core/publish/auth-md.ts';
import { oauthConfig } from '../core/oauth/config.ts';
import { getCatalog } from '../astro/collection-catalog.ts';

export const GET: APIRoute = async () => {
  const { origin, company } = await getCatalog();
  return new Response(renderAuthMd(oauthConfig(origin), company.name), { headers: { 'Content-Type': 'text/markdown; charset=utf-8' } });
};
