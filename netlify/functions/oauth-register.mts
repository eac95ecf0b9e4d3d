import type { Config, Context } from '@netlify/functions';
import { httpHandler } from '../../src/core/kernel/handler.ts';
import { withOAuthCors } from '../../src/core/oauth/cors.ts';
import { withOAuthErrors } from '../../src/core/oauth/errors.ts';
import { handleRegister } from '../../src/core/oauth/endpoints/register.ts';
import { clientNetworkDigest, stores } from './_shared/deps.ts';
import { clientsStore, nowSeconds, oauth } from './_shared/oauth.ts';

export default httpHandler(
  (req: Request, context: Context): Promise<Response> =>
    withOAuthCors(req, () =>
      withOAuthErrors(req, async () =>
        handleRegister(req, {
          config: oauth,
          clients: clientsStore(),
          limits: stores('ratelimit'),
          clientNetworkDigest: await clientNetworkDigest(context),
          nowSeconds,
        }),
      ),
    ),
);

export const config: Config = { path: '/oauth/register' };
