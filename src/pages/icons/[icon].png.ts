/** The web manifest's icons: 192 and 512 pixels, and a maskable 512 with the logo inside the safe zone. */
import type { APIRoute } from 'astro';
import { iconPng } from '../../astro/icons.ts';
import { brandDigest, themeColor } from '../../astro/brand.ts';

const ICONS = {
  'icon-192': { size: 192 },
  'icon-512': { size: 512 },
  'maskable-512': { size: 512, padding: 0.12, background: 'theme' },
} as const;

export function getStaticPaths() {
  // Drawn from the logo (public/favicon.svg) and the theme colour (site.css --accent): keyed on both.
  return Object.keys(ICONS).map((icon) => ({ params: { icon }, cacheKey: `${icon}:${brandDigest()}` }));
}

export const GET: APIRoute = async ({ params }) => {
  const { size, background, ...options } = ICONS[params.icon as keyof typeof ICONS] as {
    size: number;
    padding?: number;
    background?: 'theme';
  };
  const png = await iconPng(size, { ...options, ...(background ? { background: themeColor() } : {}) });
  return new Response(new Uint8Array(png), { headers: { 'content-type': 'image/png' } });
};
