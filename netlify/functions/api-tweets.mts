import type { Config } from '@netlify/functions';
import { PUBLIC_API_CORS } from '../../src/core/kernel/cors.ts';
import { httpHandler } from '../../src/core/kernel/handler.ts';
import { PROBLEM_ERRORS } from '../../src/core/kernel/problem.ts';
import { handleTweets } from '../../src/core/tweets/tweets.ts';
import { stores, tweetSnapshot } from './_shared/deps.ts';
import { counting } from './_shared/usage.ts';

export default httpHandler((req: Request) => handleTweets(req, { store: stores('tweets'), snapshot: tweetSnapshot }), {
  errors: PROBLEM_ERRORS,
  cors: PUBLIC_API_CORS,
  usage: counting('api'),
});

export const config: Config = { path: '/api/tweets' };
