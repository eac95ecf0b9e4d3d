import type { Config } from '@netlify/functions';
import { handleTweets } from '../../src/core/api/tweets.ts';
import { httpHandler } from '../../src/core/http/handler.ts';
import { withProblems } from '../../src/core/http/problem.ts';
import { stores, tweetSnapshot } from './_shared/deps.ts';

export default httpHandler((req: Request): Promise<Response> => withProblems(req, () => handleTweets(req, { store: stores('tweets'), snapshot: tweetSnapshot })));

export const config: Config = { path: '/api/tweets' };
