import type { Config } from '@netlify/functions';
import { handleSearch } from '../../src/core/search/api.ts';
import { httpHandler } from '../../src/core/kernel/handler.ts';
import { withProblems } from '../../src/core/kernel/problem.ts';
import { build } from './_shared/deps.ts';
import { searchEngine } from './_shared/search.ts';

export default httpHandler((req: Request): Promise<Response> => withProblems(req, () => handleSearch(req, { engine: searchEngine, origin: build.origin })));

export const config: Config = { path: '/api/search' };
