// Hourly: refresh the AI-industry feed from the configured upstream; failures keep the last good feed.
import type { Config } from '@netlify/functions';
import { refreshTweetFeed } from '../../src/core/api/tweets.ts';
import { now, runtimeConfig, stores } from './_shared/deps.ts';

export default async (): Promise<void> => {
  const outcome = await refreshTweetFeed({ store: stores('tweets'), upstream: runtimeConfig().tweets, fetch, now });
  console.log(`tweets refresh: ${JSON.stringify(outcome)}`);
};

export const config: Config = { schedule: '@hourly' };
