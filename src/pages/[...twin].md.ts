import type { APIRoute, GetStaticPaths } from 'astro';
import { sitePages } from '../core/content/pages.ts';
import { twinPathOf } from '../core/site/paths.ts';
import { getCatalog } from '../lib/catalog.ts';

/** One markdown twin per HTML page: `/index.md`, `/blog.md`, `/blog/<slug>.md`, … */
export const getStaticPaths = (async () => {
  const pages = sitePages(await getCatalog());
  return pages.map((page) => ({
    params: { twin: twinPathOf(page.path)!.slice(1, -'.md'.length) },
    props: { markdown: page.markdown },
  }));
}) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) =>
  new Response(props.markdown as string, { headers: { 'Content-Type': 'text/markdown; charset=utf-8' } });
