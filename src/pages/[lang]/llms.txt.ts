/** /zh/llms.txt and /en/llms.txt: one language's llms.txt (src/core/publish/llms.ts). */
import type { APIRoute, GetStaticPaths } from 'astro';
import { LANGS, type Lang } from '../../core/content/i18n.ts';
import { paths } from '../../core/kernel/paths.ts';
import { llmsFiles } from '../../core/publish/llms.ts';
import { getCatalog, getSitePages } from '../../astro/collection-catalog.ts';

export const getStaticPaths = (() => LANGS.map((lang) => ({ params: { lang } }))) satisfies GetStaticPaths;

export const GET: APIRoute = async ({ params }) => {
  const path = paths.langLlms(params.lang as Lang);
  const file = llmsFiles(await getCatalog(), await getSitePages()).find((f) => f.path === path)!;
  return new Response(file.text, { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
};
