import type { Config } from '@netlify/functions';
import { handleHealth, HEALTH_EDGE, sharedStoreProbe } from '../../src/core/health/health.ts';
import { httpHandler } from '../../src/core/kernel/handler.ts';
import { build, now, stores } from './_shared/deps.ts';
import { searchEngineAt } from './_shared/search.ts';
import { counting } from './_shared/usage.ts';

// The check loads the shipped index (netlify.toml included_files) on first use: a missing or broken file shows as search down.
const engine = searchEngineAt(new URL('../../generated/data/search/', import.meta.url));

/** One Blobs round trip per instance every few seconds, whatever the request rate. */
const probe = sharedStoreProbe(() => stores('ratelimit'), now);

export default httpHandler((req: Request) => handleHealth(req, { build, searchDocuments: () => engine().documentCount, probe }), {
  ...HEALTH_EDGE,
  usage: counting('health'),
});

export const config: Config = { path: '/health' };
