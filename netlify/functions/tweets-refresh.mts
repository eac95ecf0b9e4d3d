// Hourly: refresh the AI-industry feed from the configured upstream; failures keep the last good feed.
import type { Config } from '@netlify/functions';
import { refreshTweetFeed } from '../../src/core/tweets/tweets.ts';
import { now, runtimeConfig, stores } from './_shared/deps.ts';
import { signedFetch, webBotAuthKeys } from './_shared/web-bot-auth.ts';

export default async (): Promise<void> => {
  const upstream = runtimeConfig().tweets;
  // A key that cannot be loaded fails the run here, rather than passing for an upstream network error.
  if (upstream) await webBotAuthKeys();
  const outcome = await refreshTweetFeed({ store: stores('tweets'), upstream, fetch: signedFetch, now });
  console.log(`tweets refresh: ${JSON.stringify(outcome)}`);
};

export const config: Config = { schedule: '@hourly' };
