/**
 * The authorization server and the protected MCP tool end to end, through the real runtime, with
 * real clients: oauth4webapi (strict, standards-checking) and the MCP SDK v1 client with its
 * client-credentials provider; raw HTTP for the negative cases.
 */
import { createHash, createHmac } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ClientCredentialsProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { decodeProtectedHeader, importJWK, SignJWT } from 'jose';
import * as oauth from 'oauth4webapi';
import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_ORIGIN } from '../support/origin.ts';
import { useRuntime } from '../support/runtime.ts';

const site = useRuntime();
const ISSUER = new URL(TEST_ORIGIN);
const MCP = `${TEST_ORIGIN}/mcp`;
let ip = 0;
/** Every request of one logical client comes from its own IP (registration is rate limited per IP). */
const fetchFrom =
  (address: string) =>
  (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    request.headers.set('x-forwarded-for', address);
    return site.runtime.handle(request);
  };
const options = (address = `203.0.113.${++ip}`) => ({ [oauth.customFetch]: fetchFrom(address), [oauth.allowInsecureRequests]: true });

let as: oauth.AuthorizationServer;

async function register(
  metadata: Parameters<typeof oauth.dynamicClientRegistrationRequest>[1],
): Promise<{ client: oauth.Client; secret: string; raw: Record<string, unknown> }> {
  const res = await oauth.dynamicClientRegistrationRequest(as, metadata, options());
  const raw = (await res.clone().json()) as Record<string, unknown>;
  const client = await oauth.processDynamicClientRegistrationResponse(res);
  return { client, secret: String(client.client_secret ?? ''), raw };
}

async function token(client: oauth.Client, secret: string, params: Record<string, string>): Promise<oauth.TokenEndpointResponse> {
  const res = await oauth.clientCredentialsGrantRequest(as, client, oauth.ClientSecretBasic(secret), params, options());
  return oauth.processClientCredentialsResponse(as, client, res);
}

async function mcpCall(name: string, args: Record<string, unknown>, authorization?: string): Promise<Response> {
  return site.fetchPath('/mcp', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(authorization ? { authorization } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, arguments: args } }),
  });
}

beforeAll(async () => {
  as = await oauth.processDiscoveryResponse(ISSUER, await oauth.discoveryRequest(ISSUER, options()));
});

describe('discovery', () => {
  it('AS metadata passes the strict issuer check and advertises what the server does', () => {
    expect(as.issuer).toBe(TEST_ORIGIN);
    expect(as.token_endpoint).toBe(`${TEST_ORIGIN}/oauth/token`);
    expect(as.registration_endpoint).toBe(`${TEST_ORIGIN}/oauth/register`);
    expect(as.code_challenge_methods_supported).toEqual(['S256']);
    expect(as.grant_types_supported).toContain('client_credentials');
    const agentAuth = (as as unknown as { agent_auth: Record<string, unknown> }).agent_auth;
    expect(agentAuth).toMatchObject({
      skill: `${TEST_ORIGIN}/auth.md`,
      identity_types_supported: ['anonymous'],
      claim_uri: `${TEST_ORIGIN}/oauth/claim`,
    });
  });

  it('protected resource metadata matches the resource exactly, at the path-inserted and the root URL', async () => {
    const mcp = await oauth.processResourceDiscoveryResponse(new URL(MCP), await oauth.resourceDiscoveryRequest(new URL(MCP), options()));
    expect(mcp.resource).toBe(MCP);
    expect(mcp.authorization_servers).toEqual([TEST_ORIGIN]);
    const root = await (await site.fetchPath('/.well-known/oauth-protected-resource')).json();
    expect(root.resource).toBe(TEST_ORIGIN);
    const res = await site.fetchPath('/.well-known/oauth-protected-resource/mcp');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(
      (await site.fetchPath('/.well-known/oauth-protected-resource/mcp', { headers: { 'if-none-match': res.headers.get('etag')! } }))
        .status,
    ).toBe(304);
  });

  it('JWKS publishes public keys only', async () => {
    const jwks = await (await site.fetchPath('/oauth/jwks.json')).json();
    expect(jwks.keys.length).toBeGreaterThanOrEqual(1);
    for (const key of jwks.keys) {
      expect(key).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
      expect(key.kid).toBeTruthy();
      for (const secret of ['d', 'p', 'q', 'dp', 'dq', 'qi']) expect(key).not.toHaveProperty(secret);
    }
  });
});

describe('anonymous registration and client_credentials (oauth4webapi)', () => {
  it('registers (201, secret once, claim token), mints an RFC 9068 token that validates, and the export tool accepts it', async () => {
    const { client, secret, raw } = await register({
      client_name: 'test agent',
      grant_types: ['client_credentials'],
      token_endpoint_auth_method: 'client_secret_basic',
    });
    expect(client.client_id).toMatch(/^agt_[A-Za-z0-9_-]+$/);
    expect(secret.length).toBeGreaterThanOrEqual(40);
    expect(raw).toMatchObject({ client_secret_expires_at: 0, registration_type: 'anonymous', scope: 'articles:read content:export' });
    expect(String(raw.claim_token)).toMatch(/^clm_/);

    const tokens = await token(client, secret, { scope: 'content:export', resource: MCP });
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.expires_in).toBe(3600);
    expect(decodeProtectedHeader(tokens.access_token)).toMatchObject({ alg: 'RS256', typ: 'at+jwt' });
    const claims = await oauth.validateJwtAccessToken(
      as,
      new Request(MCP, { headers: { authorization: `Bearer ${tokens.access_token}` } }),
      MCP,
      options(),
    );
    expect(claims).toMatchObject({
      iss: TEST_ORIGIN,
      aud: MCP,
      sub: client.client_id,
      client_id: client.client_id,
      scope: 'content:export',
    });
    expect(claims.exp - claims.iat).toBe(3600);

    const exported = await mcpCall('export_article_index', { limit: 5 }, `Bearer ${tokens.access_token}`);
    expect(exported.status).toBe(200);
    const body = await exported.json();
    expect(body.result.isError).toBeFalsy();
    expect(body.result.structuredContent.items).toHaveLength(5);
  });

  it('the MCP SDK v1 client with its client-credentials provider follows the 401 to a token and succeeds', async () => {
    const { client, secret } = await register({
      client_name: 'sdk agent',
      grant_types: ['client_credentials'],
      token_endpoint_auth_method: 'client_secret_basic',
    });
    const seen: string[] = [];
    const fetchLogged = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
      const res = await fetchFrom('203.0.113.250')(input, init);
      seen.push(`${init?.method ?? 'GET'} ${new URL(String(input instanceof Request ? input.url : input)).pathname} ${res.status}`);
      return res;
    };
    const provider = new ClientCredentialsProvider({ clientId: client.client_id, clientSecret: secret, expectedIssuer: TEST_ORIGIN });
    const sdk = new Client({ name: 'cc-test', version: '1.0.0' });
    await sdk.connect(new StreamableHTTPClientTransport(new URL(MCP), { authProvider: provider, fetch: fetchLogged }));
    const result = await sdk.callTool({ name: 'export_article_index', arguments: { limit: 3 } });
    expect(result.isError).toBeFalsy();
    expect((result.structuredContent as { items: unknown[] }).items).toHaveLength(3);
    expect(seen).toContain('POST /mcp 401');
    expect(seen.some((s) => s.startsWith('POST /oauth/token 200'))).toBe(true);
    await sdk.close();
  });
});

describe('the protected tool refuses what it must', () => {
  let readOnly = '';
  let full = '';
  let fullClient: { client: oauth.Client; secret: string };

  beforeAll(async () => {
    fullClient = await register({ grant_types: ['client_credentials'], token_endpoint_auth_method: 'client_secret_basic' });
    full = (await token(fullClient.client, fullClient.secret, {})).access_token;
    readOnly = (await token(fullClient.client, fullClient.secret, { scope: 'articles:read' })).access_token;
  });

  it('401 with the challenge and a tool error without a token', async () => {
    const res = await mcpCall('export_article_index', {});
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${TEST_ORIGIN}/.well-known/oauth-protected-resource/mcp", scope="content:export"`,
    );
    const body = await res.json();
    expect(body.id).toBe(7);
    expect(body.result.isError).toBe(true);
    expect(body.result.content[0].text).toContain('content:export');
  });

  it('403 insufficient_scope for a token without content:export', async () => {
    const res = await mcpCall('export_article_index', {}, `Bearer ${readOnly}`);
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer error="insufficient_scope", scope="content:export"/);
  });

  it('401 invalid_token for garbage, tampered, alg none, wrong audience, expired and foreign-key tokens, on public calls too', async () => {
    const [header, payload, signature] = full.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const tampered = `${header}.${Buffer.from(JSON.stringify({ ...claims, scope: 'content:export articles:read x' })).toString('base64url')}.${signature}`;
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'at+jwt', kid: decodeProtectedHeader(full).kid })).toString('base64url')}.${payload}.`;
    const { privateKey } = await import('jose').then((j) => j.generateKeyPair('RS256'));
    const foreign = await new SignJWT({ ...claims })
      .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: decodeProtectedHeader(full).kid })
      .sign(privateKey);
    const ownKey = await signingKeyFromLocalBlobs();
    const now = Math.floor(Date.now() / 1000);
    const wrongAudience = await new SignJWT({ ...claims, aud: 'https://other.example/mcp' })
      .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: ownKey.kid })
      .sign(ownKey.key);
    const expired = await new SignJWT({ ...claims, iat: now - 7200, exp: now - 3600 })
      .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: ownKey.kid })
      .sign(ownKey.key);
    const wrongType = await new SignJWT({ ...claims }).setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: ownKey.kid }).sign(ownKey.key);
    for (const [name, value] of Object.entries({
      garbage: 'Bearer not.a.token',
      basic: 'Basic Zm9vOmJhcg==',
      tampered: `Bearer ${tampered}`,
      none: `Bearer ${none}`,
      foreign: `Bearer ${foreign}`,
      wrongAudience: `Bearer ${wrongAudience}`,
      expired: `Bearer ${expired}`,
      wrongType: `Bearer ${wrongType}`,
    })) {
      const res = await mcpCall('export_article_index', {}, value);
      expect(res.status, name).toBe(401);
      expect(res.headers.get('www-authenticate'), name).toMatch(/^Bearer error="invalid_token"/);
      const publicCall = await mcpCall('search_articles', { query: 'llm' }, value);
      expect(publicCall.status, `${name} on a public tool`).toBe(401);
    }
    // The untampered token still works, and public tools need no token at all.
    expect((await mcpCall('export_article_index', {}, `Bearer ${full}`)).status).toBe(200);
    expect((await mcpCall('search_articles', { query: 'llm' })).status).toBe(200);
  });

  it('revocation: 200 for the owner, the token is refused afterwards; 200 for unknown tokens; another client cannot revoke it', async () => {
    const other = await register({ grant_types: ['client_credentials'], token_endpoint_auth_method: 'client_secret_post' });
    const victim = (await token(fullClient.client, fullClient.secret, {})).access_token;
    const foreignRevoke = await oauth.revocationRequest(as, other.client, oauth.ClientSecretPost(other.secret), victim, options());
    await oauth.processRevocationResponse(foreignRevoke);
    expect((await mcpCall('export_article_index', {}, `Bearer ${victim}`)).status).toBe(200);
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, fullClient.client, oauth.ClientSecretBasic(fullClient.secret), victim, options()),
    );
    expect((await mcpCall('export_article_index', {}, `Bearer ${victim}`)).status).toBe(401);
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, fullClient.client, oauth.ClientSecretBasic(fullClient.secret), 'unknown-token', options()),
    );
  });
});

describe('token and registration endpoint errors (raw HTTP)', () => {
  const form = (body: Record<string, string>, headers: Record<string, string> = {}) =>
    site.fetchPath('/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(body).toString(),
    });
  const basic = (id: string, secret: string) => ({
    authorization: `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`,
  });
  let id = '';
  let secret = '';
  let publicId = '';
  beforeAll(async () => {
    const reg = await register({
      grant_types: ['client_credentials'],
      token_endpoint_auth_method: 'client_secret_basic',
      scope: 'articles:read',
    });
    id = reg.client.client_id;
    secret = reg.secret;
    publicId = (
      await register({
        grant_types: ['authorization_code'],
        redirect_uris: ['http://127.0.0.1:3000/cb'],
        token_endpoint_auth_method: 'none',
      })
    ).client.client_id;
  });

  it('a client that registered client_secret_basic may also post its secret (and the reverse): both carry the same secret', async () => {
    const asPost = await form({ grant_type: 'client_credentials', client_id: id, client_secret: secret });
    expect(asPost.status).toBe(200);
    const postClient = await register({ grant_types: ['client_credentials'], token_endpoint_auth_method: 'client_secret_post' });
    expect((await form({ grant_type: 'client_credentials' }, basic(postClient.client.client_id, postClient.secret))).status).toBe(200);
  });

  it.each([
    ['bad secret (Basic)', () => form({ grant_type: 'client_credentials' }, basic(id, 'wrong')), 401, 'invalid_client'],
    ['unknown client', () => form({ grant_type: 'client_credentials' }, basic('agt_nobody', 'x')), 401, 'invalid_client'],
    [
      'a public client sending a secret',
      () => form({ grant_type: 'authorization_code', client_id: publicId, client_secret: 'x', code: 'c', code_verifier: 'v'.repeat(43) }),
      401,
      'invalid_client',
    ],
    [
      'a confidential client sending only its client_id',
      () => form({ grant_type: 'client_credentials', client_id: id }),
      401,
      'invalid_client',
    ],
    ['no client authentication', () => form({ grant_type: 'client_credentials' }), 401, 'invalid_client'],
    [
      'password grant',
      () => form({ grant_type: 'password', username: 'a', password: 'b' }, basic(id, secret)),
      400,
      'unsupported_grant_type',
    ],
    ['missing grant_type', () => form({}, basic(id, secret)), 400, 'invalid_request'],
    [
      'only a scope not registered',
      () => form({ grant_type: 'client_credentials', scope: 'content:export' }, basic(id, secret)),
      400,
      'invalid_scope',
    ],
    ['only an unknown scope', () => form({ grant_type: 'client_credentials', scope: 'admin' }, basic(id, secret)), 400, 'invalid_scope'],
    [
      'refresh_token for a client_credentials client',
      () => form({ grant_type: 'refresh_token', refresh_token: 'rt_x' }, basic(id, secret)),
      400,
      'unauthorized_client',
    ],
    [
      'foreign resource',
      () => form({ grant_type: 'client_credentials', resource: 'https://other.example/mcp' }, basic(id, secret)),
      400,
      'invalid_target',
    ],
    [
      'authorization_code for a client_credentials client',
      () => form({ grant_type: 'authorization_code', code: 'x', code_verifier: 'y' }, basic(id, secret)),
      400,
      'unauthorized_client',
    ],
    [
      'JSON body',
      () =>
        site.fetchPath('/oauth/token', {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...basic(id, secret) },
          body: '{"grant_type":"client_credentials"}',
        }),
      400,
      'invalid_request',
    ],
    [
      'duplicate parameter',
      () =>
        site.fetchPath('/oauth/token', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', ...basic(id, secret) },
          body: 'grant_type=client_credentials&grant_type=client_credentials',
        }),
      400,
      'invalid_request',
    ],
  ])('%s', async (_name, send, status, code) => {
    const res = await send();
    expect(res.status).toBe(status);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('pragma')).toBe('no-cache');
    expect((await res.json()).error).toBe(code);
    if (_name.includes('Basic')) expect(res.headers.get('www-authenticate')).toMatch(/^Basic /);
  });

  it.each([
    ['unsupported grant', { grant_types: ['password'] }, 'invalid_client_metadata'],
    ['authorization_code without redirect_uris', { grant_types: ['authorization_code'] }, 'invalid_redirect_uri'],
    [
      'http redirect off loopback',
      { grant_types: ['authorization_code'], redirect_uris: ['http://evil.example/cb'] },
      'invalid_redirect_uri',
    ],
    [
      'redirect with fragment',
      { grant_types: ['authorization_code'], redirect_uris: ['https://app.example/cb#x'] },
      'invalid_redirect_uri',
    ],
    [
      'public client with client_credentials',
      { grant_types: ['client_credentials'], token_endpoint_auth_method: 'none' },
      'invalid_client_metadata',
    ],
    ['only unknown scopes', { grant_types: ['client_credentials'], scope: 'admin' }, 'invalid_client_metadata'],
    ['client_name not a string', { grant_types: ['client_credentials'], client_name: 42 }, 'invalid_client_metadata'],
    ['refresh_token without authorization_code', { grant_types: ['client_credentials', 'refresh_token'] }, 'invalid_client_metadata'],
    [
      'a right-to-left override in client_name',
      { grant_types: ['client_credentials'], client_name: 'Good App\u202E(deifirevnu)' },
      'invalid_client_metadata',
    ],
    [
      'a control character in client_name',
      { grant_types: ['client_credentials'], client_name: 'line\u0007bell' },
      'invalid_client_metadata',
    ],
    ['an isolate in client_name', { grant_types: ['client_credentials'], client_name: 'x\u2067y' }, 'invalid_client_metadata'],
    [
      'application_type other than web or native',
      { grant_types: ['client_credentials'], application_type: 'service' },
      'invalid_client_metadata',
    ],
    ['a javascript: client_uri', { grant_types: ['client_credentials'], client_uri: 'javascript:alert(1)' }, 'invalid_client_metadata'],
    [
      'loopback redirect in another spelling',
      { grant_types: ['authorization_code'], redirect_uris: ['http://0x7f.1:3000/cb'] },
      'invalid_redirect_uri',
    ],
    [
      'redirect with userinfo',
      { grant_types: ['authorization_code'], redirect_uris: ['http://user@127.0.0.1:3000/cb'] },
      'invalid_redirect_uri',
    ],
    [
      'redirect with dot-segments',
      { grant_types: ['authorization_code'], redirect_uris: ['http://127.0.0.1:3000/a/../cb'] },
      'invalid_redirect_uri',
    ],
  ])('registration: %s -> 400 %s', async (_name, body, code) => {
    const res = await site.fetchPath('/oauth/register', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.18.0.1' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect((await res.json()).error).toBe(code);
  });

  it('registration as MCP clients send it (mcp-remote, the SDKs, the Inspector) is accepted and echoed', async () => {
    const metadata = {
      client_name: 'MCP CLI Proxy',
      redirect_uris: ['http://localhost:3334/oauth/callback'],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      application_type: 'native',
      client_uri: 'https://github.com/geelen/mcp-remote',
      logo_uri: 'https://example.com/logo.png',
      software_id: '2e6dc280-f3c3-4e01-99a7-8181dbd1d23d',
      software_version: '0.15.1',
      contacts: ['ops@example.com'],
      tos_uri: 'https://example.com/tos',
      scope: 'articles:read content:export openid',
    };
    const res = await site.fetchPath('/oauth/register', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.18.0.2' },
      body: JSON.stringify(metadata),
    });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toMatchObject({
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      redirect_uris: metadata.redirect_uris,
      application_type: 'native',
      client_uri: metadata.client_uri,
      software_id: metadata.software_id,
      software_version: '0.15.1',
      scope: 'articles:read content:export',
    });
    expect(body).not.toHaveProperty('client_secret');
    expect(body).not.toHaveProperty('contacts');
  });

  it('revocation ignores an unknown token_type_hint (RFC 7009 §2.1)', async () => {
    const access = (await form({ grant_type: 'client_credentials' }, basic(id, secret)).then((r) => r.json())).access_token as string;
    const revoked = await site.fetchPath('/oauth/revoke', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...basic(id, secret) },
      body: new URLSearchParams({ token: access, token_type_hint: 'id_token_of_the_future' }).toString(),
    });
    expect(revoked.status).toBe(200);
    expect(await revoked.json()).toEqual({});
    expect((await mcpCall('search_articles', { query: 'llm' }, `Bearer ${access}`)).status).toBe(401);
  });

  it('an access token dated in the future beyond the allowed skew is refused', async () => {
    const ownKey = await signingKeyFromLocalBlobs();
    const now = Math.floor(Date.now() / 1000);
    const claims = { iss: TEST_ORIGIN, aud: MCP, sub: id, client_id: id, scope: 'content:export', jti: `future-${now}` };
    const sign = (iat: number) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: ownKey.kid })
        .setIssuedAt(iat)
        .setExpirationTime(iat + 3600)
        .sign(ownKey.key);
    const future = await mcpCall('export_article_index', {}, `Bearer ${await sign(now + 300)}`);
    expect(future.status).toBe(401);
    expect(future.headers.get('www-authenticate')).toContain('dated in the future');
    expect((await mcpCall('export_article_index', {}, `Bearer ${await sign(now + 5)}`)).status).toBe(200);
  });

  it('registration is rate limited per IP with Retry-After', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 22; i++) {
      const res = await site.fetchPath('/oauth/register', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.18.9.9' },
        body: '{"grant_types":["client_credentials"]}',
      });
      statuses.push(res.status);
      if (res.status === 429) expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(statuses.filter((s) => s === 201)).toHaveLength(20);
    expect(statuses.slice(20)).toEqual([429, 429]);
  });

  it('preflights answer 204 with CORS', async () => {
    for (const p of ['/oauth/register', '/oauth/token', '/oauth/revoke']) {
      const res = await site.fetchPath(p, { method: 'OPTIONS' });
      expect(res.status, p).toBe(204);
      expect(res.headers.get('access-control-allow-methods'), p).toContain('POST');
    }
  });

  it('no secret, claim token or access token is stored in plaintext in Blobs', async () => {
    const { secret: s, raw } = await register({ grant_types: ['client_credentials'], token_endpoint_auth_method: 'client_secret_basic' });
    const dump = readTree(site.runtime.blobsDir);
    expect(dump).toContain(String(raw.client_id));
    expect(dump).not.toContain(s);
    expect(dump).not.toContain(String(raw.claim_token));
  });

  it('client IPs are kept only as keyed digests: no address and no plain SHA-256 of it, in keys or records', async () => {
    const address = '203.0.113.177';
    const res = await oauth.dynamicClientRegistrationRequest(
      as,
      { grant_types: ['client_credentials'] },
      { [oauth.customFetch]: fetchFrom(address), [oauth.allowInsecureRequests]: true },
    );
    expect(res.status).toBe(201);
    const root = site.runtime.blobsDir;
    const everything = `${listTree(root).join('\n')}\n${readTree(root)}`;
    expect(everything).not.toContain(address);
    expect(everything).not.toContain(createHash('sha256').update(address).digest('hex'));
    const { secret } = JSON.parse(readFileSync(path.join(root, 'entries/0/site:keys/ip-digest-secret'), 'utf8')) as { secret: string };
    expect(everything).toContain(`register/${createHmac('sha256', secret).update(address).digest('hex')}`);
  });
});

/** Every file path under `dir`, relative to it (Blobs keys are paths). */
function listTree(dir: string, prefix = ''): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? listTree(full, `${prefix}${name}/`) : [`${prefix}${name}`];
  });
}

function readTree(dir: string): string {
  return readdirSync(dir)
    .map((name) => {
      const full = path.join(dir, name);
      return statSync(full).isDirectory() ? readTree(full) : readFileSync(full, 'utf8');
    })
    .join('\n');
}

/** The active signing key as the local runtime stores it (to mint deliberately wrong tokens with the real key). */
async function signingKeyFromLocalBlobs(): Promise<{ kid: string; key: CryptoKey }> {
  const file = path.join(site.runtime.blobsDir, 'entries/0/site:keys/signing');
  const records = JSON.parse(readFileSync(file, 'utf8')) as { kid: string; private_jwk: Record<string, unknown>; retired_at?: number }[];
  const active = records.find((r) => r.retired_at === undefined)!;
  return { kid: active.kid, key: (await importJWK(active.private_jwk, 'RS256')) as CryptoKey };
}

describe('concurrency', () => {
  it('50 concurrent registrations: all stored, none lost or duplicated, each secret matching its stored digest', async () => {
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        site.runtime.handle(
          new Request(`${TEST_ORIGIN}/oauth/register`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.19.7.${i}` },
            body: JSON.stringify({ client_name: `parallel ${i}`, grant_types: ['client_credentials'] }),
          }),
        ),
      ),
    );
    const texts = await Promise.all(answers.map((a) => a.text()));
    // A failure shows what answered instead of 201 (an application error or the emulation's own).
    expect(answers.map((a, i) => (a.status === 201 ? 201 : `${a.status} ${texts[i]!.slice(0, 300)}`))).toEqual(Array(50).fill(201));
    const bodies = texts.map((t) => JSON.parse(t) as { client_id: string; client_secret: string; client_name: string });
    expect(new Set(bodies.map((b) => b.client_id)).size).toBe(50);
    for (const body of bodies) {
      const stored = JSON.parse(readFileSync(path.join(site.runtime.blobsDir, `entries/0/site:oauth/client/${body.client_id}`), 'utf8'));
      expect(stored.client_name).toBe(body.client_name);
      expect(stored.client_secret_sha256).toBe(createHash('sha256').update(body.client_secret).digest('hex'));
    }
  }, 120_000);
});
