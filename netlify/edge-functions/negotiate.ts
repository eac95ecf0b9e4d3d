// Markdown twins by content negotiation: the same page URL answers HTML or markdown by Accept.
import type { Config, Context } from '@netlify/edge-functions';
import { negotiatePage } from '../../src/core/http/page-negotiation.ts';
import { DISCOVERY_LINKS, formatLinks } from '../../src/core/site/links.ts';

const LINKS = formatLinks(DISCOVERY_LINKS);

export default async (req: Request, context: Context): Promise<Response | undefined> => {
  const response = await negotiatePage(req, (path, method) => context.next(new Request(new URL(path, req.url), { method, headers: req.headers })), LINKS);
  return response ?? undefined;
};

export const config: Config = {
  path: '/*',
  excludedPath: ['/_astro/*', '/pagefind/*', '/api/*', '/oauth/*', '/mcp', '/mcp/*', '/.well-known/*', '/health', '/auth.md'],
};
