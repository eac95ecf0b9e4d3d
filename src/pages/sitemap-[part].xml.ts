/** The parts of a sitemap too large for one file (over 50,000 pages); /sitemap.xml is then their index. */
import type { APIRoute } from 'astro';
import { sitemapPartCount, sitemapPartXml } from '../core/publish/feeds.ts';
import { getCatalog, getSitePages } from '../astro/collection-catalog.ts';

export async function getStaticPaths() {
  return Array.from({ length: sitemapPartCount(await getSitePages()) }, (_, i) => ({ params: { part: String(i + 1) } }));
}

export const GET: APIRoute = async ({ params }) => {
  const catalog = await getCatalog();
  return new Response(sitemapPartXml(catalog.origin, await getSitePages(), Number(params.part)), {
    headers: { 'Content-Type': 'application/xml; charset=utf-8' },
  });
};
