// Markdown twins by content negotiation (the same page URL answers HTML or markdown by Accept),
// discovery Link headers on HTML, ETag/304 for the static discovery documents, 405 for writes to
// static files, and the security headers on what it answers.
import type { Config, Context } from '@netlify/edge-functions';
import { documentPreflight, withValidators } from '../../src/core/kernel/document.ts';
import { asGet } from '../../src/core/kernel/handler.ts';
import { countPageRequest, negotiatePage, staticMethodResponse } from '../../src/core/publish/page-negotiation.ts';
import { Metrics } from '../../src/core/kernel/metrics.ts';
import { parseEnv } from '../../src/core/config.ts';
import { blobsStore } from '../functions/_shared/blobs-store.ts';
import { withSecurityHeaders } from '../../src/core/kernel/security-headers.ts';
import { DISCOVERY_LINKS, formatLinks, STATIC_DISCOVERY_PATHS } from '../../src/core/kernel/links.ts';

const LINKS = formatLinks(DISCOVERY_LINKS);

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

async function answer(req: Request, context: Context): Promise<Response | undefined> {
  const { pathname } = new URL(req.url);
  const discovery = STATIC_DISCOVERY_PATHS.includes(pathname);
  // Discovery documents are read cross-origin with If-None-Match, which needs a preflight.
  if (discovery && req.method === 'OPTIONS') return documentPreflight();
  const refused = staticMethodResponse(req);
  if (refused) return refused;
  // HEAD goes on as GET, body included (see asGet): an empty answer would go out as Content-Length: 0.
  const get = asGet(req);
  const readStatic = (path: string) => context.next(new Request(new URL(path, req.url), { method: 'GET', headers: req.headers }));
  if (discovery) return withValidators(get, await readStatic(pathname));
  const negotiated = await negotiatePage(get, readStatic, LINKS);
  if (negotiated) return negotiated;
  // Any other file: the CDN serves GET itself; a HEAD passed through would come back as Content-Length: 0.
  return req.method === 'HEAD' ? readStatic(pathname) : undefined;
}

export default async (req: Request, context: Context): Promise<Response | undefined> => {
  const response = await answer(req, context);
  countPageRequest(metrics, req, response);
  const writing = metrics.flushIfDue();
  if (writing) context.waitUntil(writing);
  return response && withSecurityHeaders(response);
};

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
