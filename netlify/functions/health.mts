import type { Config } from '@netlify/functions';
import { handleHealth } from '../../src/core/health/health.ts';
import { httpHandler } from '../../src/core/kernel/handler.ts';
import { withProblems } from '../../src/core/kernel/problem.ts';
import { build, now, stores } from './_shared/deps.ts';
import { searchEngine } from './_shared/search.ts';

export default httpHandler((req: Request): Promise<Response> =>
  withProblems(req, () => handleHealth(req, { build, searchDocuments: () => searchEngine.documentCount, store: stores('ratelimit'), now })));

export const config: Config = { path: '/health' };
