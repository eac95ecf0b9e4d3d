import type { Config, Context } from '@netlify/functions';
import { httpHandler } from '../../src/core/kernel/handler.ts';
import { handleRevoke } from '../../src/core/oauth/endpoints/revoke.ts';
import { OAUTH_ENDPOINT_EDGE } from '../../src/core/oauth/errors.ts';
import { clientNetworkDigest, stores } from './_shared/deps.ts';
import { oauthDeps } from './_shared/oauth.ts';
import { counting } from './_shared/usage.ts';

export default httpHandler(
  (req: Request, context: Context) =>
    handleRevoke(req, {
      ...oauthDeps(req, context),
      limits: stores('ratelimit'),
      clientNetworkDigest: () => clientNetworkDigest(context),
    }),
  { ...OAUTH_ENDPOINT_EDGE, usage: counting('oauth') },
);

export const config: Config = { path: '/oauth/revoke' };
