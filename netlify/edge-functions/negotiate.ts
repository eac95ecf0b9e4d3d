// Markdown twins by content negotiation (the same page URL answers HTML or markdown by Accept),
// discovery Link headers on HTML, ETag/304 for the static discovery documents, 405 for writes to
// static files, and the security headers on what it answers.
import type { Config, Context } from '@netlify/edge-functions';
import { documentPreflight, withValidators } from '../../src/core/kernel/document.ts';
import { asGet } from '../../src/core/kernel/handler.ts';
import { negotiatePage, staticMethodResponse } from '../../src/core/publish/page-negotiation.ts';
import { withSecurityHeaders } from '../../src/core/kernel/security-headers.ts';
import { DISCOVERY_LINKS, formatLinks, STATIC_DISCOVERY_PATHS } from '../../src/core/kernel/links.ts';

const LINKS = formatLinks(DISCOVERY_LINKS);

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
  return response && withSecurityHeaders(response);
};

export const config: Config = {
  path: '/*',
  excludedPath: ['/.netlify/*', '/_astro/*', '/pagefind/*', '/api/*', '/oauth/*', '/mcp', '/mcp/*', '/a2a', '/.well-known/*', '/health'],
};
