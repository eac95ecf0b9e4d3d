import type { Config } from '@netlify/functions';
import { httpHandler } from '../../src/core/kernel/handler.ts';
import { handleTweets, TWEETS_EDGE } from '../../src/core/tweets/tweets.ts';
import { stores, tweetSnapshot } from './_shared/deps.ts';
import { counting } from './_shared/usage.ts';

export default httpHandler((req: Request) => handleTweets(req, { store: stores('tweets'), snapshot: tweetSnapshot }), {
  ...TWEETS_EDGE,
  usage: counting('api'),
});

export const config: Config = { path: '/api/tweets' };
