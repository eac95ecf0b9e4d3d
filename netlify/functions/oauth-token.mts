import type { Config, Context } from '@netlify/functions';
import { httpHandler } from '../../src/core/kernel/handler.ts';
import { handleToken } from '../../src/core/oauth/endpoints/token.ts';
import { OAUTH_ENDPOINT_EDGE } from '../../src/core/oauth/errors.ts';
import { oauthDeps } from './_shared/oauth.ts';
import { counting } from './_shared/usage.ts';

export default httpHandler((req: Request, context: Context) => handleToken(req, oauthDeps(req, context)), {
  ...OAUTH_ENDPOINT_EDGE,
  usage: counting('oauth'),
});

export const config: Config = { path: '/oauth/token' };
