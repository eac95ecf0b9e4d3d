import type { Config, Context } from '@netlify/functions';
import { httpHandler } from '../../src/core/kernel/handler.ts';
import { withOAuthCors } from '../../src/core/oauth/cors.ts';
import { withOAuthErrors } from '../../src/core/oauth/errors.ts';
import { handleToken } from '../../src/core/oauth/endpoints/token.ts';
import { oauthDeps } from './_shared/oauth.ts';

export default httpHandler(
  (req: Request, context: Context): Promise<Response> =>
    withOAuthCors(req, () => withOAuthErrors(req, () => handleToken(req, oauthDeps(req, context)))),
);

export const config: Config = { path: '/oauth/token' };
