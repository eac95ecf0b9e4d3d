import type { Config } from '@netlify/functions';
import { handleTweets } from '../../src/core/tweets/tweets.ts';
import { httpHandler } from '../../src/core/kernel/handler.ts';
import { withProblems } from '../../src/core/kernel/problem.ts';
import { stores, tweetSnapshot } from './_shared/deps.ts';

export default httpHandler(
  (req: Request): Promise<Response> => withProblems(req, () => handleTweets(req, { store: stores('tweets'), snapshot: tweetSnapshot })),
);

export const config: Config = { path: '/api/tweets' };
