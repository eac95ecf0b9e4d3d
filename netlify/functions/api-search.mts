import type { Config } from '@netlify/functions';
import { handleSearch } from '../../src/core/search/api.ts';
import { httpHandler } from '../../src/core/kernel/handler.ts';
import { withProblems } from '../../src/core/kernel/problem.ts';
import { build } from './_shared/deps.ts';
import { searchEngineAt } from './_shared/search.ts';

// The sharded index ships beside this file (netlify.toml included_files); every request needs its head, so read that now.
const engine = searchEngineAt(new URL('../../generated/data/search/', import.meta.url))();

export default httpHandler(
  (req: Request): Promise<Response> => withProblems(req, () => handleSearch(req, { engine, origin: build.origin })),
);

export const config: Config = { path: '/api/search' };
