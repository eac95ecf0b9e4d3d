/** /{lang}/llms/{section}.txt: the sectioned parts of a language's llms.txt, when its list outgrows one file. */
import type { APIRoute, GetStaticPaths } from 'astro';
import { llmsFiles } from '../../../core/publish/llms.ts';
import { getCatalog, getSitePages } from '../../../astro/collection-catalog.ts';

const SECTION_PATH = /^\/(zh|en)\/llms\/([^/]+)\.txt$/;

export const getStaticPaths = (async () =>
  llmsFiles(await getCatalog(), await getSitePages()).flatMap((file) => {
    const match = SECTION_PATH.exec(file.path);
    return match ? [{ params: { lang: match[1]!, section: match[2]! }, props: { text: file.text } }] : [];
  })) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) =>
  new Response((props as { text: string }).text, { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
