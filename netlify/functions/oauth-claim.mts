// The claim ceremony: the agent's JSON endpoint and the page a person opens to approve (routed in src/core/oauth/endpoints/claim.ts).
import type { Config, Context } from '@netlify/functions';
import { httpHandler } from '../../src/core/kernel/handler.ts';
import { type ClaimDeps, claimRoutes } from '../../src/core/oauth/endpoints/claim.ts';
import { clientNetworkDigest, site, stores } from './_shared/deps.ts';
import { oauthDeps } from './_shared/oauth.ts';
import { counting } from './_shared/usage.ts';

const deps = async (req: Request, context: Context): Promise<ClaimDeps> => ({
  ...oauthDeps(req, context),
  limits: stores('ratelimit'),
  clientNetworkDigest: await clientNetworkDigest(context),
  siteName: site.company.name,
});

export default httpHandler(claimRoutes(deps), { usage: counting('oauth') });

export const config: Config = { path: ['/oauth/claim', '/oauth/claim/verify'] };
