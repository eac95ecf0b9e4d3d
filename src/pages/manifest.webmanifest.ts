import type { APIRoute } from 'astro';
import { getCatalog } from '../astro/collection-catalog.ts';
import { themeColor } from '../astro/brand.ts';

/** The web app manifest (name, colours, icons), from the brand facts in content/company.yaml and the theme colour (brand.ts). */
export const GET: APIRoute = async () => {
  const { company } = await getCatalog();
  const manifest = {
    name: company.name,
    short_name: company.name,
    description: company.tagline,
    lang: 'en',
    start_url: '/',
    scope: '/',
    display: 'browser',
    background_color: '#ffffff',
    theme_color: themeColor(),
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
      { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  };
  return new Response(JSON.stringify(manifest, null, 2), { headers: { 'content-type': 'application/manifest+json' } });
};
