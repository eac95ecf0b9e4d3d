import type { Config, Context } from '@netlify/functions';
import { OAUTH_CORS } from '../../src/core/kernel/cors.ts';
import { httpHandler } from '../../src/core/kernel/handler.ts';
import { handleRevoke } from '../../src/core/oauth/endpoints/revoke.ts';
import { OAUTH_ERRORS } from '../../src/core/oauth/errors.ts';
import { oauthDeps } from './_shared/oauth.ts';
import { counting } from './_shared/usage.ts';

export default httpHandler((req: Request, context: Context) => handleRevoke(req, oauthDeps(req, context)), {
  errors: OAUTH_ERRORS,
  cors: OAUTH_CORS,
  usage: counting('oauth'),
});

export const config: Config = { path: '/oauth/revoke' };
