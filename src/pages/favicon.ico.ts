import type { APIRoute } from 'astro';
import { faviconIco } from '../astro/icons.ts';

export const GET: APIRoute = async () => new Response(new Uint8Array(await faviconIco()), { headers: { 'content-type': 'image/x-icon' } });
