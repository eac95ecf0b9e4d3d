import type { Config, Context } from '@netlify/functions';
import { httpHandler } from '../../src/core/kernel/handler.ts';
import { withOAuthCors } from '../../src/core/oauth/cors.ts';
import { withOAuthErrors } from '../../src/core/oauth/errors.ts';
import { handleRevoke } from '../../src/core/oauth/endpoints/revoke.ts';
import { oauthDeps } from './_shared/oauth.ts';

export default httpHandler(
  (req: Request, context: Context): Promise<Response> =>
    withOAuthCors(req, () => withOAuthErrors(req, () => handleRevoke(req, oauthDeps(req, context)))),
);

export const config: Config = { path: '/oauth/revoke' };
