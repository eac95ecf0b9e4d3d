// Every /api path no other function claims: a 404 problem, never the HTML 404 page.
import type { Config } from '@netlify/functions';
import { httpHandler } from '../../src/core/kernel/handler.ts';
import { notFound, problemResponse } from '../../src/core/kernel/problem.ts';
import { counting } from './_shared/usage.ts';

export default httpHandler(
  (req: Request): Response =>
    problemResponse(
      notFound(`There is no API endpoint at ${new URL(req.url).pathname}. See /openapi.json for the list.`),
      new URL(req.url).pathname,
    ),
  { usage: counting('api') },
);

// Route precedence between a wildcard and exact paths is not guaranteed, so the real endpoints are
// excluded explicitly (config must be a literal; tests/integration/api.test.ts checks the list).
export const config: Config = { path: ['/api', '/api/*'], excludedPath: ['/api/search', '/api/tweets', '/api/contact', '/api/feedback'] };
