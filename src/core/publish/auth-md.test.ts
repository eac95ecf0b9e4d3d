import { describe, expect, it } from 'vitest';
import { EXPORT_RATE_LIMIT } from '../mcp/auth.ts';
import { renderAuthMd } from './auth-md.ts';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  CLAIMED_CLIENT_TTL_SECONDS,
  oauthConfig,
  REFRESH_TOKEN_ABSOLUTE_TTL_SECONDS,
  REFRESH_TOKEN_IDLE_TTL_SECONDS,
  REGISTRATION_LIFETIME_TEXT,
  SCOPES,
} from '../oauth/config.ts';
import { openApiDocument } from './openapi.ts';
import { apiExamples } from './api-examples.ts';
import { FIXTURE_CATALOG } from '../../../tests/support/core-fixtures.ts';
import { authorizationServerMetadata } from '../oauth/endpoints/metadata.ts';
import { REGISTRATION_DAILY_LIMIT, REGISTRATION_RATE_LIMIT } from '../oauth/endpoints/register.ts';

describe('auth.md', () => {
  const config = oauthConfig('https://site.example');
  const text = renderAuthMd(config, 'Example AI');

  it('starts with an ATX H1 naming auth.md and the service', () => {
    expect(text.split('\n')[0]).toBe('# auth.md: agentic registration and authentication for Example AI');
  });

  it('names every endpoint of the metadata and the agent_auth block, for this origin only', () => {
    const metadata = authorizationServerMetadata(config) as Record<string, unknown> & { agent_auth: Record<string, unknown> };
    for (const key of ['authorization_endpoint', 'token_endpoint', 'registration_endpoint', 'revocation_endpoint', 'jwks_uri']) {
      expect(text).toContain(new URL(String(metadata[key])).pathname);
    }
    for (const key of ['skill', 'register_uri', 'claim_uri', 'revocation_uri']) expect(text).toContain(String(metadata.agent_auth[key]));
    const origins = new Set([...text.matchAll(/https?:\/\/[^\s/`"')]+/g)].map((m) => m[0]));
    expect([...origins]).toEqual(['https://site.example']);
  });

  it('states the limits and lifetimes the server enforces', () => {
    for (const scope of SCOPES) expect(text).toContain(`\`${scope}\``);
    expect(text).toContain(`"expires_in": ${ACCESS_TOKEN_TTL_SECONDS}`);
    expect(text).toContain(
      `At most ${REGISTRATION_RATE_LIMIT.limit} registrations an hour and ${REGISTRATION_DAILY_LIMIT.limit} a day per client network`,
    );
    expect(text).toContain(`At most ${EXPORT_RATE_LIMIT.limit} export calls per client per hour`);
    expect(text).toContain(`used within ${REFRESH_TOKEN_IDLE_TTL_SECONDS / 86400} days`);
    expect(text).toContain(`${REFRESH_TOKEN_ABSOLUTE_TTL_SECONDS / 86400} days after the consent`);
    expect(text).toContain(`${CLAIMED_CLIENT_TTL_SECONDS / 86400} days without use`);
  });

  it("shows the contract's token request (secret in the body) and Basic as the alternative", () => {
    expect(text).toContain('grant_type=client_credentials&client_id=agt_Xy…&client_secret=…&scope=content%3Aexport');
    expect(text).toContain('Authorization: Basic base64(client_id:client_secret)');
    expect(text).toContain('grant_type=refresh_token&refresh_token=rt_…');
  });
});

describe('registration lifetime', () => {
  it('auth.md and the OpenAPI document say the same thing: claimed registrations expire too', () => {
    const text = renderAuthMd(oauthConfig('https://site.example'), 'Example AI');
    const openapi = JSON.stringify(
      openApiDocument('https://site.example', { name: 'Example AI', operator_attribution: '' }, apiExamples(FIXTURE_CATALOG)),
    );
    expect(REGISTRATION_LIFETIME_TEXT).toContain(`${CLAIMED_CLIENT_TTL_SECONDS / 86_400} days`);
    expect(text).toContain(REGISTRATION_LIFETIME_TEXT);
    expect(openapi).toContain(REGISTRATION_LIFETIME_TEXT);
    expect(openapi).not.toMatch(/no longer expire|never expire/);
  });
});
