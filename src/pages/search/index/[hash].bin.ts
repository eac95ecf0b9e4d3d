import type { APIRoute, GetStaticPaths } from 'astro';
import { getSearchIndex } from '../../../astro/search-index.ts';

/** The /search page's copy of the search index (the API's index file, gzip-compressed), when it is small enough to ship. */
export const getStaticPaths: GetStaticPaths = async () => {
  const { browserPath } = await getSearchIndex();
  const hash = browserPath ? /\/([^/]+)\.bin$/.exec(browserPath)?.[1] : undefined;
  return hash ? [{ params: { hash } }] : [];
};

export const GET: APIRoute = async () =>
  new Response((await getSearchIndex()).browserCopy, { headers: { 'content-type': 'application/octet-stream' } });
