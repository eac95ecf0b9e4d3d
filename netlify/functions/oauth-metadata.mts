// RFC 8414 metadata (also at the OpenID discovery path), RFC 9728 metadata and the JWKS: public documents, CORS open, ETag
// (src/core/oauth/endpoints/metadata.ts).
import type { Config } from '@netlify/functions';
import { httpHandler } from '../../src/core/kernel/handler.ts';
import { handleOAuthMetadata, OAUTH_METADATA_EDGE } from '../../src/core/oauth/endpoints/metadata.ts';
import { build, site } from './_shared/deps.ts';
import { oauth, signingKeys } from './_shared/oauth.ts';
import { counting } from './_shared/usage.ts';

const deps = { config: oauth, origin: build.origin, siteName: site.company.name, keys: signingKeys };

export default httpHandler((req: Request): Promise<Response> => handleOAuthMetadata(req, deps), {
  ...OAUTH_METADATA_EDGE,
  usage: counting('discovery'),
});

export const config: Config = {
  path: [
    '/.well-known/oauth-authorization-server',
    '/.well-known/openid-configuration',
    '/.well-known/oauth-protected-resource',
    '/.well-known/oauth-protected-resource/mcp',
    '/oauth/jwks.json',
  ],
};
