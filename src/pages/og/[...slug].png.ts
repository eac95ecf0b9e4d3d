/**
 * /og/<page>.png: the Open Graph images the build draws (src/astro/og-image.ts). With OG_IMAGES=on-demand
 * (the default) only the site-wide /og/index.png: the og-image function draws every other card on its
 * first request (netlify/functions/og-image.mts); with `build`, every page's card, as before; with
 * `off`, only the site-wide image, which every page names (src/components/BaseHead.astro). The dev
 * server lists every card: it draws one only when asked.
 */
import type { APIRoute } from 'astro';
import { paths } from '../../core/kernel/paths.ts';
import { ogCardOf, ogCardTexts, type OgCardText } from '../../core/publish/og-card.ts';
import { getCatalog, getSitePages } from '../../astro/collection-catalog.ts';
import { sharedBuildData } from '../../astro/integrations/build-data.ts';
import { renderOgImage } from '../../astro/og-image.ts';
import { brandDigest, logoSvg, themeColor } from '../../astro/brand.ts';
import { OG_IMAGES, pageCacheKey, siteFacts } from '../../astro/page-cache.ts';

export async function getStaticPaths() {
  const cards = ogCardTexts(await getCatalog(), await getSitePages());
  const drawn =
    sharedBuildData().devServer || OG_IMAGES === 'build' ? [...cards] : [...cards].filter(([image]) => image === paths.ogImage(paths.home));
  return Promise.all(
    drawn.map(async ([image, props]) => ({
      params: { slug: image.replace(/^\/og\//, '').replace(/\.png$/, '') },
      props,
      // Keyed on what the card shows (brand and host are site facts; the logo and colour their digest): drawn again only
      // when one of them changes.
      cacheKey: await pageCacheKey(image, { props, brand: brandDigest() }),
    })),
  );
}

export const GET: APIRoute = async ({ props }) => {
  const png = await renderOgImage(ogCardOf(props as OgCardText, await siteFacts()), { logoSvg: logoSvg(), accent: themeColor() });
  return new Response(new Uint8Array(png), { headers: { 'content-type': 'image/png' } });
};
