// The claim ceremony: the agent's JSON endpoint and the page a person opens to approve.
import type { Config, Context } from '@netlify/functions';
import { OAUTH_CORS } from '../../src/core/kernel/cors.ts';
import { edge, httpHandler } from '../../src/core/kernel/handler.ts';
import { PAGE_ERRORS } from '../../src/core/kernel/html.ts';
import { type ClaimDeps, handleClaim, handleClaimVerification } from '../../src/core/oauth/endpoints/claim.ts';
import { OAUTH_ERRORS } from '../../src/core/oauth/errors.ts';
import { clientNetworkDigest, site, stores } from './_shared/deps.ts';
import { oauthDeps } from './_shared/oauth.ts';
import { counting } from './_shared/usage.ts';

const deps = async (req: Request, context: Context): Promise<ClaimDeps> => ({
  ...oauthDeps(req, context),
  limits: stores('ratelimit'),
  clientNetworkDigest: await clientNetworkDigest(context),
  siteName: site.company.name,
});
const claim = edge(async (req: Request, context: Context) => handleClaim(req, await deps(req, context)), {
  errors: OAUTH_ERRORS,
  cors: OAUTH_CORS,
});
const verify = edge(async (req: Request, context: Context) => handleClaimVerification(req, await deps(req, context)), {
  errors: PAGE_ERRORS,
});

export default httpHandler(
  (req: Request, context: Context) => (new URL(req.url).pathname === '/oauth/claim' ? claim(req, context) : verify(req, context)),
  { usage: counting('oauth') },
);

export const config: Config = { path: ['/oauth/claim', '/oauth/claim/verify'] };
