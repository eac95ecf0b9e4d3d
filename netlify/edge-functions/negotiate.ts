// Markdown twins by content negotiation (the same page URL answers HTML or markdown by Accept),
// discovery Link headers on HTML, and ETag/304 for the static discovery documents.
import type { Config, Context } from '@netlify/edge-functions';
import { withValidators } from '../../src/core/http/document.ts';
import { negotiatePage } from '../../src/core/http/page-negotiation.ts';
import { DISCOVERY_LINKS, formatLinks, STATIC_DISCOVERY_PATHS } from '../../src/core/site/links.ts';

const LINKS = formatLinks(DISCOVERY_LINKS);

export default async (req: Request, context: Context): Promise<Response | undefined> => {
  if (STATIC_DISCOVERY_PATHS.includes(new URL(req.url).pathname)) return withValidators(req, await context.next(new Request(req.url, { method: 'GET', headers: req.headers })));
  const response = await negotiatePage(req, (path, method) => context.next(new Request(new URL(path, req.url), { method, headers: req.headers })), LINKS);
  return response ?? undefined;
};

export const config: Config = {
  path: '/*',
  excludedPath: ['/_astro/*', '/pagefind/*', '/api/*', '/oauth/*', '/mcp', '/mcp/*', '/.well-known/*', '/health'],
};
