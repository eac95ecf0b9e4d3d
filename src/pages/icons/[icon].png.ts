/** The web manifest's icons: 192 and 512 pixels, and a maskable 512 with the logo inside the safe zone. */
import type { APIRoute } from 'astro';
import { iconPng } from '../../astro/icons.ts';

const ICONS = {
  'icon-192': { size: 192 },
  'icon-512': { size: 512 },
  'maskable-512': { size: 512, padding: 0.12, background: '#1d4ed8' },
} as const;

export function getStaticPaths() {
  // Drawn from constants: the code (which the incremental build hashes itself) is all they depend on.
  return Object.keys(ICONS).map((icon) => ({ params: { icon }, cacheKey: icon }));
}

export const GET: APIRoute = async ({ params }) => {
  const { size, ...options } = ICONS[params.icon as keyof typeof ICONS] as { size: number; padding?: number; background?: string };
  return new Response(new Uint8Array(await iconPng(size, options)), { headers: { 'content-type': 'image/png' } });
};
