/**
 * `npm run dev` only: one markdown twin per HTML page (`/index.md`, `/blog.md`, `/blog/<slug>.md`, …),
 * injected by src/astro/integrations/site-data.ts. A build writes the same files in one batch after
 * the pages (src/astro/integrations/markdown-twins.ts): thousands of twins as routes cost a large build seconds
 * (BENCHMARKS.md, "Build").
 */
import type { APIRoute, GetStaticPaths } from 'astro';
import { sitePages } from '../../core/publish/pages.ts';
import { twinPathOf } from '../../core/kernel/paths.ts';
import { getCatalog } from '../collection-catalog.ts';
import { servedTwin } from '../integrations/markdown-twins.ts';

export const prerender = true;

export const getStaticPaths = (async () => {
  const pages = sitePages(await getCatalog());
  return pages.map((page) => ({
    params: { twin: twinPathOf(page.path)!.slice(1, -'.md'.length) },
    props: { markdown: servedTwin(page) },
  }));
}) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) =>
  new Response(props.markdown as string, { headers: { 'Content-Type': 'text/markdown; charset=utf-8' } });
