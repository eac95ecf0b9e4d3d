import type { APIRoute } from 'astro';
import { iconPng } from '../astro/icons.ts';

/** 180×180 on white: iOS fills transparency with black. */
export const GET: APIRoute = async () =>
  new Response(new Uint8Array(await iconPng(180, { padding: 0.08, background: '#ffffff' })), { headers: { 'content-type': 'image/png' } });
