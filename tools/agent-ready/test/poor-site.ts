/**
 * A deliberately poor site, for the tests that show each rubric's failures and fixes: a client-rendered
 * shell without metadata, a robots.txt that blocks GPTBot and declares nothing else, an llms.txt without a
 * title or links, an OpenAPI 3.0 document, soft 404s (200 HTML) for every other path, and a markdown
 * variant without `Vary` behind a cache that keys on the URL alone (what poisons CDNs).
 */
import { doc, type Handler, json, type Routes } from './good-site.ts';

/** The home page a browser gets: an empty root element filled by JavaScript. */
export const POOR_HTML = `<!doctype html>
<html><head><meta charset="utf-8"><title>Poor</title></head>
<body><div id="root"></div><script src="/app.js"></script><a href="/docs">Docs</a></body></html>
`;

export const POOR_MARKDOWN = '# Poor\n\nA site that fails most agent-readiness checks.\n';

/** What a CDN that ignores `Vary` does: the first GET answer for a URL is served to every later GET. */
export function cachedByUrl(handler: Handler): Handler {
  const cache = new Map<string, { body: ArrayBuffer; status: number; headers: [string, string][] }>();
  return async (req) => {
    if (req.method !== 'GET') return handler(req);
    const key = new URL(req.url).pathname + new URL(req.url).search;
    let hit = cache.get(key);
    if (!hit) {
      const res = await handler(req);
      hit = { body: await res.arrayBuffer(), status: res.status, headers: [...res.headers] };
      cache.set(key, hit);
    }
    return new Response(hit.body.slice(0), { status: hit.status, headers: [...hit.headers, ['age', '1']] });
  };
}

/** Every path the poor site does not know: a 200 HTML "not found" page (a soft 404). */
export const softNotFound: Handler = () =>
  new Response('<!doctype html><html><body><h1>Page not found</h1><p>Try the home page.</p></body></html>', {
    headers: { 'content-type': 'text/html' },
  });

/** The routes of the poor site; unknown paths are soft 404s (see the `*` route). */
export function poorRoutes(_origin: string): Routes {
  const routes: Routes = new Map();
  routes.set(
    '/',
    cachedByUrl((req) =>
      /text\/markdown/.test(req.headers.get('accept') ?? '')
        ? new Response(POOR_MARKDOWN, { headers: { 'content-type': 'text/markdown' } })
        : new Response(POOR_HTML, { headers: { 'content-type': 'text/html; charset=utf-8' } }),
    ),
  );
  routes.set('/robots.txt', doc('User-agent: *\nDisallow: /admin\n\nUser-agent: GPTBot\nDisallow: /\n', { 'content-type': 'text/plain' }));
  routes.set('/llms.txt', doc('Poor site docs\nSee the docs page.\n', { 'content-type': 'text/plain' }));
  routes.set('/openapi.json', json({ openapi: '3.0.3', info: { title: 'Poor', version: '1' }, paths: {} }));
  routes.set('*', softNotFound);
  return routes;
}
