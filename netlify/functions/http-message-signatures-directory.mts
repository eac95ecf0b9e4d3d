// Web Bot Auth: the public keys that sign this site's outbound requests, with a signed response.
import type { Config, Context } from '@netlify/functions';
import { httpHandler } from '../../src/core/kernel/handler.ts';
import { handleSignaturesDirectory, SIGNATURES_DIRECTORY_EDGE } from '../../src/core/web-bot-auth/directory.ts';
import { build, now } from './_shared/deps.ts';
import { isNetlifySiteHost } from './_shared/site-hosts.ts';
import { webBotAuthKeys } from './_shared/web-bot-auth.ts';
import { counting } from './_shared/usage.ts';

export default httpHandler(
  (req: Request, context?: Pick<Context, 'site'>) =>
    handleSignaturesDirectory(req, { keys: webBotAuthKeys, now, siteOrigin: build.origin, isOwnHost: isNetlifySiteHost(context) }),
  { ...SIGNATURES_DIRECTORY_EDGE, usage: counting('discovery') },
);

// Literal path (the in-source config parser reads only literals): `paths` in src/core/kernel/paths.ts.
export const config: Config = { path: '/.well-known/http-message-signatures-directory' };
