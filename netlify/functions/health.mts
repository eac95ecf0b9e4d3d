import type { Config } from '@netlify/functions';
import { handleHealth, sharedStoreProbe } from '../../src/core/health/health.ts';
import { httpHandler } from '../../src/core/kernel/handler.ts';
import { PROBLEM_ERRORS } from '../../src/core/kernel/problem.ts';
import { build, now, stores } from './_shared/deps.ts';
import { searchEngineAt } from './_shared/search.ts';
import { counting } from './_shared/usage.ts';

// The check loads the shipped index (netlify.toml included_files) on first use: a missing or broken file shows as search down.
const engine = searchEngineAt(new URL('../../generated/data/search/', import.meta.url));

/** One Blobs round trip per instance every few seconds, whatever the request rate. */
const probe = sharedStoreProbe(() => stores('ratelimit'), now);

export default httpHandler((req: Request) => handleHealth(req, { build, searchDocuments: () => engine().documentCount, probe }), {
  errors: PROBLEM_ERRORS,
  usage: counting('health'),
});

export const config: Config = { path: '/health' };
