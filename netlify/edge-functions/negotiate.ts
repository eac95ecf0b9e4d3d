// The edge in front of the static build: markdown twins by content negotiation, discovery Link
// headers, ETag/304 and CORS preflights for the static discovery documents, OPTIONS and 405 for
// the methods a static file does not answer. The routing is src/core/publish/page-edge.ts.
import type { Config, Context } from '@netlify/edge-functions';
import { passThroughHandler } from '../../src/core/kernel/handler.ts';
import { countsUsage, Metrics } from '../../src/core/kernel/metrics.ts';
import { parseEnv } from '../../src/core/config.ts';
import { answerAtEdge } from '../../src/core/publish/page-edge.ts';
import { countPageRequest } from '../../src/core/publish/page-negotiation.ts';
import { blobsStore } from '../functions/_shared/blobs-store.ts';

declare const Netlify: { env: { toObject(): Record<string, string> } } | undefined;
/** The deploy's variables: `Netlify.env` at the edge, the process's under the local runtime. */
const environment = (): Record<string, string | undefined> => (typeof Netlify !== 'undefined' ? Netlify.env.toObject() : process.env);

/** This edge instance's usage counters: pages by audience, and the documents agents read (written to Blobs at most once a minute). */
const metrics = new Metrics({
  store: () => blobsStore('analytics'),
  clock: Date.now,
  instanceId: crypto.randomUUID().slice(0, 8),
  flushIntervalMs: parseEnv(environment(), ['ANALYTICS_FLUSH_SECONDS']).ANALYTICS_FLUSH_SECONDS * 1000,
});

/** The read of `path` for `req`: its query goes along, so a redirect rule behind the edge (`/en/search?q=…`) keeps it. */
const staticUrl = (req: Request, path: string): URL => {
  const url = new URL(req.url);
  url.pathname = path;
  return url;
};

const answer = passThroughHandler(
  (req: Request, context: Context) =>
    answerAtEdge(req, (path) => context.next(new Request(staticUrl(req, path), { method: 'GET', headers: req.headers }))),
  // Not under `npm run dev`: its requests are not the site's traffic (kernel/metrics.ts countsUsage).
  countsUsage(environment()) ? { metrics, count: countPageRequest } : undefined,
);

export default (req: Request, context: Context): Promise<Response | undefined> => answer(req, context);

export const config: Config = {
  path: '/*',
  excludedPath: [
    '/.netlify/*',
    '/_astro/*',
    '/pagefind/*',
    '/api/*',
    '/oauth/*',
    '/mcp',
    '/mcp/*',
    '/a2a',
    '/.well-known/*',
    '/health',
    '/ops',
    '/ops/',
  ],
};
