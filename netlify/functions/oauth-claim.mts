// The claim ceremony: the agent's JSON endpoint and the page a person opens to approve.
import type { Config, Context } from '@netlify/functions';
import { httpHandler } from '../../src/core/kernel/handler.ts';
import { withPageErrors } from '../../src/core/kernel/html.ts';
import { handleClaim, handleClaimVerification } from '../../src/core/oauth/endpoints/claim.ts';
import { withOAuthCors } from '../../src/core/oauth/cors.ts';
import { withOAuthErrors } from '../../src/core/oauth/errors.ts';
import { clientNetworkDigest, site, stores } from './_shared/deps.ts';
import { oauthDeps } from './_shared/oauth.ts';

export default httpHandler((req: Request, context: Context): Promise<Response> => {
  const deps = async () => ({
    ...oauthDeps(req, context),
    limits: stores('ratelimit'),
    clientNetworkDigest: await clientNetworkDigest(context),
    siteName: site.company.name,
  });
  if (new URL(req.url).pathname === '/oauth/claim')
    return withOAuthCors(req, () => withOAuthErrors(req, async () => handleClaim(req, await deps())));
  return withPageErrors(req, async () => handleClaimVerification(req, await deps()));
});

export const config: Config = { path: ['/oauth/claim', '/oauth/claim/verify'] };
