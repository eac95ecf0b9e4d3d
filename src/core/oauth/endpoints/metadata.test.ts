/** Discovery documents in-process: what RFC 8414 and RFC 9728 metadata say, and how they are served. */
import { describe, expect, it } from 'vitest';
import { oauthConfig } from '../config.ts';
import type { ErrorLog } from '../../kernel/errors.ts';
import { edge } from '../../kernel/handler.ts';
import {
  authorizationServerMetadata,
  handleOAuthMetadata,
  METADATA_MAX_AGE_SECONDS,
  type MetadataDeps,
  metadataResponse as serveMetadata,
  OAUTH_METADATA_EDGE,
  protectedResourceMetadata,
} from './metadata.ts';

const ORIGIN = 'https://site.example';
const CONFIG = oauthConfig(ORIGIN);
/** A metadata document through its edge (OPTIONS and CORS are the edge's: kernel/handler.ts). */
const metadataResponse = (req: Request, doc: unknown): Promise<Response> =>
  edge((r: Request) => serveMetadata(r, doc), OAUTH_METADATA_EDGE)(req);

describe('authorization server metadata (RFC 8414)', () => {
  it('advertises every endpoint and exactly what the server does', () => {
    expect(authorizationServerMetadata(CONFIG)).toEqual({
      issuer: ORIGIN,
      authorization_endpoint: `${ORIGIN}/oauth/authorize`,
      token_endpoint: `${ORIGIN}/oauth/token`,
      registration_endpoint: `${ORIGIN}/oauth/register`,
      revocation_endpoint: `${ORIGIN}/oauth/revoke`,
      jwks_uri: `${ORIGIN}/oauth/jwks.json`,
      scopes_supported: ['articles:read', 'content:export'],
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'client_credentials', 'refresh_token'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
      revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
      client_id_metadata_document_supported: true,
      service_documentation: `${ORIGIN}/auth.md`,
      agent_auth: {
        skill: `${ORIGIN}/auth.md`,
        register_uri: `${ORIGIN}/oauth/register`,
        claim_uri: `${ORIGIN}/oauth/claim`,
        revocation_uri: `${ORIGIN}/oauth/revoke`,
        identity_endpoint: `${ORIGIN}/oauth/register`,
        claim_endpoint: `${ORIGIN}/oauth/claim`,
        identity_types_supported: ['anonymous'],
        anonymous: {
          credential_types_supported: ['client_secret', 'bearer_token'],
          register_uri: `${ORIGIN}/oauth/register`,
          claim_uri: `${ORIGIN}/oauth/claim`,
        },
        events_supported: [],
      },
    });
  });
});

describe('protected resource metadata (RFC 9728)', () => {
  it('names the MCP server at its resource, the site at the origin', () => {
    const common = {
      authorization_servers: [ORIGIN],
      scopes_supported: ['articles:read', 'content:export'],
      bearer_methods_supported: ['header'],
      jwks_uri: `${ORIGIN}/oauth/jwks.json`,
      resource_documentation: `${ORIGIN}/auth.md`,
    };
    expect(protectedResourceMetadata(CONFIG, `${ORIGIN}/mcp`, 'Acme AI')).toEqual({
      resource: `${ORIGIN}/mcp`,
      resource_name: 'Acme AI MCP server',
      ...common,
    });
    expect(protectedResourceMetadata(CONFIG, ORIGIN, 'Acme AI')).toEqual({ resource: ORIGIN, resource_name: 'Acme AI', ...common });
  });
});

describe('metadataResponse', () => {
  const doc = { issuer: ORIGIN, n: 1 };
  const request = (method = 'GET', headers: Record<string, string> = {}) => new Request(`${ORIGIN}/.well-known/x`, { method, headers });

  it('GET: pretty JSON, open to every origin, cached five minutes, with a strong ETag', async () => {
    const res = await metadataResponse(request(), doc);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(JSON.stringify(doc, null, 2));
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe(`public, max-age=${METADATA_MAX_AGE_SECONDS}`);
    expect(METADATA_MAX_AGE_SECONDS).toBe(300);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('etag')).toMatch(/^"[\w-]{22}"$/);
  });

  it('the ETag follows the body: If-None-Match with it is 304, another body gets another tag', async () => {
    const etag = (await metadataResponse(request(), doc)).headers.get('etag')!;
    expect((await metadataResponse(request('GET', { 'if-none-match': etag }), doc)).status).toBe(304);
    const other = (await metadataResponse(request(), { ...doc, n: 2 })).headers.get('etag');
    expect(other).not.toBe(etag);
    expect((await metadataResponse(request('GET', { 'if-none-match': etag }), { ...doc, n: 2 })).status).toBe(200);
  });

  it('many different bodies (rotations) are each served right', async () => {
    for (let n = 0; n < 40; n++) expect(await (await metadataResponse(request(), { n })).json()).toEqual({ n });
  });

  it('other methods: 405 invalid_request with Allow and CORS; OPTIONS: 204', async () => {
    const res = await metadataResponse(request('POST'), doc);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(await res.json()).toEqual({ error: 'invalid_request', error_description: 'Use GET.' });
    expect((await metadataResponse(request('OPTIONS'), doc)).status).toBe(204);
  });
});

describe('handleOAuthMetadata (the routes of oauth-metadata.mts)', () => {
  const JWK = { kty: 'RSA', kid: 'k1', n: 'AQAB', e: 'AQAB' };
  type MetadataKeys = MetadataDeps['keys'];
  const deps: MetadataDeps = { config: CONFIG, origin: ORIGIN, siteName: 'Acme AI', keys: async () => ({ publicJwks: [JWK] }) };
  const serve = (pathname: string, keys: MetadataKeys = deps.keys, log: ErrorLog = () => {}) =>
    edge((req: Request) => handleOAuthMetadata(req, { ...deps, keys }), { ...OAUTH_METADATA_EDGE, log })(
      new Request(`${ORIGIN}${pathname}`),
    );

  it.each<[string, (doc: Record<string, unknown>) => unknown, unknown]>([
    ['/oauth/jwks.json', (doc) => doc.keys, [JWK]],
    ['/.well-known/oauth-authorization-server', (doc) => doc.issuer, CONFIG.issuer],
    ['/.well-known/oauth-protected-resource', (doc) => doc.resource, ORIGIN],
    ['/.well-known/oauth-protected-resource/mcp', (doc) => doc.resource, CONFIG.mcpResource],
  ])('%s', async (pathname, pick, expected) => {
    const res = await serve(pathname);
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(pick((await res.json()) as Record<string, unknown>)).toEqual(expected);
  });

  it('OpenID discovery’s path serves the RFC 8414 document itself, which claims no OpenID provider', async () => {
    const oidc = await serve('/.well-known/openid-configuration');
    expect(oidc.status).toBe(200);
    const doc = (await oidc.json()) as { scopes_supported: string[]; response_types_supported: string[] };
    expect(doc).toEqual(await (await serve('/.well-known/oauth-authorization-server')).json());
    expect(doc.scopes_supported).not.toContain('openid');
    expect(doc.response_types_supported).toEqual(['code']);
    expect(doc).not.toHaveProperty('id_token_signing_alg_values_supported');
  });

  it('signing keys that cannot be read: a logged RFC 6749 server_error 500 naming the request id, not an escaped error', async () => {
    const logged: string[] = [];
    const res = await serve(
      '/oauth/jwks.json',
      () => Promise.reject(new Error('Blobs down')),
      (message) => logged.push(message),
    );
    expect(res.status).toBe(500);
    const body = (await res.json()) as { error: string; error_description: string };
    expect(body.error).toBe('server_error');
    const id = /request ([0-9a-f-]{36})/.exec(body.error_description)?.[1];
    expect(logged).toEqual([`[${id}] GET /oauth/jwks.json failed`]);
  });
});
