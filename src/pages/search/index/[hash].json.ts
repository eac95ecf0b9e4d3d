import type { APIRoute, GetStaticPaths } from 'astro';
import { getSearchIndex } from '../../../lib/search-index.ts';

/** The /search page's copy of the search index (the same bytes as the API's), when it is small enough to ship. */
export const getStaticPaths: GetStaticPaths = async () => {
  const { browserPath } = await getSearchIndex();
  const hash = browserPath ? /\/([^/]+)\.json$/.exec(browserPath)?.[1] : undefined;
  return hash ? [{ params: { hash } }] : [];
};

export const GET: APIRoute = async () => new Response((await getSearchIndex()).json, { headers: { 'content-type': 'application/json' } });
