// Markdown twins by content negotiation: the same page URL answers HTML or markdown by Accept.
import type { Config, Context } from '@netlify/edge-functions';
import { negotiatePage } from '../../src/core/http/page-negotiation.ts';

export default async (req: Request, context: Context): Promise<Response | undefined> => {
  const response = await negotiatePage(req, (path, method) => context.next(new Request(new URL(path, req.url), { method, headers: req.headers })));
  return response ?? undefined;
};

export const config: Config = {
  path: '/*',
  excludedPath: ['/_astro/*', '/pagefind/*', '/api/*', '/oauth/*', '/mcp', '/mcp/*', '/.well-known/*', '/health'],
};
