// The authorization endpoint and its consent page (HTML, works without JavaScript).
import type { Config, Context } from '@netlify/functions';
import { httpHandler } from '../../src/core/kernel/handler.ts';
import { AUTHORIZE_EDGE, handleAuthorize } from '../../src/core/oauth/endpoints/authorize.ts';
import { clientNetworkDigest, site, stores } from './_shared/deps.ts';
import { oauthDeps } from './_shared/oauth.ts';
import { counting } from './_shared/usage.ts';

export default httpHandler(
  (req: Request, context: Context) =>
    handleAuthorize(req, {
      ...oauthDeps(req, context),
      siteName: site.company.name,
      limits: stores('ratelimit'),
      clientNetworkDigest: () => clientNetworkDigest(context),
    }),
  { ...AUTHORIZE_EDGE, usage: counting('oauth') },
);

export const config: Config = { path: '/oauth/authorize' };
