import type { Config } from '@netlify/functions';
import { handleHealth } from '../../src/core/api/health.ts';
import { withProblems } from '../../src/core/http/problem.ts';
import { build, now, stores } from './_shared/deps.ts';
import { searchEngine } from './_shared/search.ts';

export default (req: Request): Promise<Response> =>
  withProblems(req, () => handleHealth(req, { build, searchDocuments: () => searchEngine.documentCount, store: stores('ratelimit'), now }));

export const config: Config = { path: '/health' };
