import type { Config, Context } from '@netlify/functions';
import { httpHandler } from '../../src/core/kernel/handler.ts';
import { handleRegister } from '../../src/core/oauth/endpoints/register.ts';
import { OAUTH_ENDPOINT_EDGE } from '../../src/core/oauth/errors.ts';
import { clientNetworkDigest, stores } from './_shared/deps.ts';
import { clientsStore, nowSeconds, oauth } from './_shared/oauth.ts';
import { counting, usageOf } from './_shared/usage.ts';

export default httpHandler(
  async (req: Request, context: Context) =>
    handleRegister(req, {
      config: oauth,
      clients: clientsStore(),
      limits: stores('ratelimit'),
      clientNetworkDigest: await clientNetworkDigest(context),
      nowSeconds,
      usage: usageOf(context),
    }),
  { ...OAUTH_ENDPOINT_EDGE, usage: counting('oauth') },
);

export const config: Config = { path: '/oauth/register' };
