import type { Config, Context } from '@netlify/functions';
import { httpHandler } from '../../src/core/http/handler.ts';
import { withOAuthCors } from '../../src/core/oauth/cors.ts';
import { withOAuthErrors } from '../../src/core/oauth/errors.ts';
import { handleRegister } from '../../src/core/oauth/register.ts';
import { clientIp, stores } from './_shared/deps.ts';
import { clientsStore, nowSeconds, oauth } from './_shared/oauth.ts';

export default httpHandler((req: Request, context: Context): Promise<Response> =>
  withOAuthCors(req, () => withOAuthErrors(req, () => handleRegister(req, { config: oauth, clients: clientsStore(), limits: stores('ratelimit'), clientIp: clientIp(context), nowSeconds }))));

export const config: Config = { path: '/oauth/register' };
