import type { Config, Context } from '@netlify/functions';
import { httpHandler } from '../../src/core/kernel/handler.ts';
import { handleSearch, SEARCH_EDGE } from '../../src/core/search/api.ts';
import { build } from './_shared/deps.ts';
import { searchEngineAt } from './_shared/search.ts';
import { readLimited } from './_shared/read-limit.ts';
import { counting, usageOf } from './_shared/usage.ts';

// The index file ships beside this file (netlify.toml included_files); every request needs its head, so read that now.
const engine = searchEngineAt(new URL('../../generated/data/search/', import.meta.url))();

export default httpHandler(
  (req: Request, context: Context) => handleSearch(req, { engine, origin: build.origin, usage: usageOf(context) }),
  { ...SEARCH_EDGE, usage: counting('api'), admission: readLimited('problem') },
);

export const config: Config = { path: '/api/search' };
