// RFC 8414 and RFC 9728 metadata and the JWKS: public documents, CORS open, ETag.
import type { Config } from '@netlify/functions';
import { httpHandler } from '../../src/core/kernel/handler.ts';
import { authorizationServerMetadata, metadataResponse, protectedResourceMetadata } from '../../src/core/oauth/endpoints/metadata.ts';
import { build, site } from './_shared/deps.ts';
import { oauth, signingKeys } from './_shared/oauth.ts';
import { counting } from './_shared/usage.ts';

export default httpHandler(
  async (req: Request): Promise<Response> => {
    const { pathname } = new URL(req.url);
    if (pathname === '/oauth/jwks.json') return metadataResponse(req, { keys: (await signingKeys()).publicJwks });
    if (pathname === '/.well-known/oauth-authorization-server') return metadataResponse(req, authorizationServerMetadata(oauth));
    const resource = pathname.endsWith('/mcp') ? oauth.mcpResource : build.origin;
    return metadataResponse(req, protectedResourceMetadata(oauth, resource, site.company.name));
  },
  { usage: counting('discovery') },
);

export const config: Config = {
  path: [
    '/.well-known/oauth-authorization-server',
    '/.well-known/oauth-protected-resource',
    '/.well-known/oauth-protected-resource/mcp',
    '/oauth/jwks.json',
  ],
};
