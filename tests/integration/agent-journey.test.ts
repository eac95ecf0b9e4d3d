/**
 * The agent journey, end to end over real HTTP (the production build served by Netlify's emulation
 * on the test origin). The test knows only the base URL: every other URL comes from a document it
 * fetched on the way (robots.txt and llms.txt sit at their conventional root paths; the AS metadata
 * URL is built from the issuer as RFC 8414 prescribes). Clients are the ones agents use: the MCP
 * TypeScript SDK, oauth4webapi and the A2A JavaScript SDK.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Role, SendMessageRequest, type Message } from '@a2a-js/sdk';
import { ClientFactory } from '@a2a-js/sdk/client';
import * as oauth from 'oauth4webapi';
import { describe, expect, it } from 'vitest';
import { useServedSite } from '../support/browser.ts';

const site = useServedSite();
const AGENT_UA = 'journey-agent/1.0 (+https://example.org/agent)';

/** The base URL is all the agent starts with. */
const BASE = site.origin;

/** A fetch that records the last response of each URL (the SDK hides 401 headers in an error). */
interface Seen {
  status: number;
  headers: Headers;
}

function recordingFetch(): { fetch: typeof fetch; last: () => Seen | undefined } {
  let last: Seen | undefined;
  return {
    fetch: async (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set('user-agent', AGENT_UA);
      const res = await fetch(input, { ...init, headers });
      last = { status: res.status, headers: res.headers };
      return res;
    },
    last: () => last,
  };
}

async function get(url: string, accept = '*/*'): Promise<Response> {
  const res = await fetch(url, { headers: { accept, 'user-agent': AGENT_UA } });
  expect(res.status, url).toBe(200);
  return res;
}

/** `- [title](url)` links of a markdown document, and llms.txt's `- Title: \`url\`` entries. */
function markdownLinks(markdown: string): { title: string; url: string }[] {
  const linked = [...markdown.matchAll(/\[([^\]]+)\]\((https?:\/\/[^)\s]+)\)/g)].map((m) => ({ title: m[1]!, url: m[2]! }));
  // llms.txt names what is not a markdown document (endpoints, JSON files) as "- Title: `URL`": an agent reads those too.
  const named = [...markdown.matchAll(/^- ([^:\n]+): `(https?:\/\/[^`\s]+)`/gm)].map((m) => ({ title: m[1]!, url: m[2]! }));
  return [...linked, ...named];
}

/** RFC 9110 auth-param of a `WWW-Authenticate: Bearer …` challenge. */
function challengeParam(header: string, name: string): string | undefined {
  return new RegExp(`${name}="([^"]*)"`).exec(header)?.[1];
}

/** A tool call's result with its structured content typed as the tool's output schema says. */
async function callTool<T>(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<{ isError?: boolean; structuredContent: T }> {
  return (await client.callTool({ name, arguments: args })) as unknown as { isError?: boolean; structuredContent: T };
}

async function connect(mcpUrl: string, headers: Record<string, string> = {}): Promise<{ client: Client; last: () => Seen | undefined }> {
  const recorder = recordingFetch();
  const client = new Client({ name: 'journey-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { fetch: recorder.fetch, requestInit: { headers } }));
  return { client, last: recorder.last };
}

describe('an agent that knows only the base URL', () => {
  it('discovers the site, uses the public tools, earns a token for the protected one, and loses access on revocation', async () => {
    // 1. robots.txt: may this agent read the site? It must not be disallowed, and AI use is signalled.
    const robots = await (await get(new URL('/robots.txt', BASE).href)).text();
    const wildcard = robots.split(/\n\s*\n/).find((group) => /^User-agent: \*$/m.test(group))!;
    expect(wildcard).not.toMatch(/^Disallow: \/\s*$/m);
    expect(wildcard).toMatch(/^Content-Signal: .*ai-input=yes/m);

    // 2. llms.txt (its conventional path), cross-checked with the home page's describedby link.
    const home = await fetch(BASE, { method: 'HEAD', headers: { 'user-agent': AGENT_UA } });
    const describedBy = /<([^>]+)>;\s*rel="describedby"/.exec(home.headers.get('link') ?? '')![1]!;
    const llmsUrl = new URL(describedBy, BASE).href;
    expect(llmsUrl).toBe(new URL('/llms.txt', BASE).href);
    const llms = await (await get(llmsUrl, 'text/plain, text/markdown')).text();
    const links = markdownLinks(llms);

    // 3. The API catalog, found in llms.txt; the MCP server is the linkset context that describes itself with a server card.
    const catalogUrl = links.find((l) => l.title === 'API catalog')!.url;
    const catalogRes = await get(catalogUrl, 'application/linkset+json');
    expect(catalogRes.headers.get('content-type')).toMatch(/^application\/linkset\+json/);
    const linkset = ((await catalogRes.json()) as { linkset: { anchor: string; 'service-desc': { href: string; type: string }[] }[] })
      .linkset;
    const mcpContext = linkset.find((c) => c['service-desc'].some((t) => t.type === 'application/mcp-server-card+json'))!;
    const cardUrl = mcpContext['service-desc'].find((t) => t.type === 'application/mcp-server-card+json')!.href;

    // 4. The server card names the endpoint.
    const card = (await (await get(cardUrl, 'application/mcp-server-card+json')).json()) as {
      name: string;
      remotes: { type: string; url: string }[];
    };
    const remote = card.remotes.find((r) => r.type === 'streamable-http')!;
    expect(remote.url).toBe(mcpContext.anchor);

    // 5. MCP: list the tools and call the public ones without any credential.
    const anonymous = await connect(remote.url);
    expect(anonymous.client.getServerVersion()?.name).toBe(card.name);
    const tools = (await anonymous.client.listTools()).tools;
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['search_articles', 'get_article', 'export_article_index']));
    // Search for an article llms.txt lists, by its title; the hit is that article.
    const listed = links.find((l) => /\/blog\/[^/]+\.md$/.test(new URL(l.url).pathname))!;
    const found = await callTool<{ results: { slug: string; url: string }[] }>(anonymous.client, 'search_articles', {
      query: listed.title,
      limit: 3,
    });
    expect(found.isError ?? false).toBe(false);
    const first = found.structuredContent.results[0]!;
    expect(`${first.url}.md`).toBe(listed.url);
    const article = await callTool<{ markdown: string; url: string; title: string }>(anonymous.client, 'get_article', { slug: first.slug });
    expect(article.isError ?? false).toBe(false);
    expect(article.structuredContent.title).toBe(listed.title);
    expect(article.structuredContent.markdown.length).toBeGreaterThan(100);

    // 6. The protected tool answers 401 and says where to look.
    const denied = (await anonymous.client
      .callTool({ name: 'export_article_index', arguments: {} })
      .catch((error: unknown) => error)) as unknown;
    const challengeRes = anonymous.last()!;
    expect(challengeRes.status).toBe(401);
    const challenge = challengeRes.headers.get('www-authenticate')!;
    expect(challenge).toMatch(/^Bearer /);
    expect(denied).toBeInstanceOf(Error); // the SDK surfaces the 401 as an error
    const prmUrl = challengeParam(challenge, 'resource_metadata')!;
    const scope = challengeParam(challenge, 'scope')!;
    await anonymous.client.close();

    // 7. Protected resource metadata (RFC 9728) -> the authorization server (RFC 8414).
    const prm = (await (await get(prmUrl, 'application/json')).json()) as {
      resource: string;
      authorization_servers: string[];
      scopes_supported: string[];
    };
    expect(prm.resource).toBe(remote.url);
    expect(prm.scopes_supported).toContain(scope);
    const issuer = new URL(prm.authorization_servers[0]!);
    const options = { [oauth.allowInsecureRequests]: issuer.protocol === 'http:' };
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, options));
    expect(as.registration_endpoint).toBeTruthy();

    // 8. Register anonymously (RFC 7591), then get a token with the scope the challenge named.
    const registration = await oauth.dynamicClientRegistrationRequest(
      as,
      { client_name: 'journey-agent', grant_types: ['client_credentials'], scope, token_endpoint_auth_method: 'client_secret_basic' },
      options,
    );
    const client = await oauth.processDynamicClientRegistrationResponse(registration);
    const secret = client.client_secret as string;
    const tokens = await oauth.processClientCredentialsResponse(
      as,
      client,
      await oauth.clientCredentialsGrantRequest(as, client, oauth.ClientSecretBasic(secret), { scope, resource: prm.resource }, options),
    );
    expect(tokens.scope).toContain(scope);

    // 9. The export succeeds with the token.
    const authorized = await connect(remote.url, { authorization: `Bearer ${tokens.access_token}` });
    const exported = await callTool<{ items: { url: string }[]; total: number }>(authorized.client, 'export_article_index', { limit: 5 });
    expect(exported.isError ?? false).toBe(false);
    expect(exported.structuredContent.items).toHaveLength(Math.min(5, exported.structuredContent.total));
    for (const item of exported.structuredContent.items) expect(item.url.startsWith(`${BASE}/`), item.url).toBe(true);
    // The index covers every article and solution llms.txt lists.
    expect(exported.structuredContent.total).toBe(
      // Documents are /blog/<slug>.md and /solutions/<slug>.md; /zh/blog/all.md is a listing.
      links.filter((l) => /^\/(blog|solutions)\/[^/]+\.md$/.test(new URL(l.url).pathname)).length,
    );
    await authorized.client.close();

    // 10. Revoke (RFC 7009); the same token is refused from then on.
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, client, oauth.ClientSecretBasic(secret), tokens.access_token, options),
    );
    // The token is now refused on any request, the handshake included.
    const recorder = recordingFetch();
    const revoked = new Client({ name: 'journey-agent', version: '1.0.0' });
    const failure = await revoked
      .connect(
        new StreamableHTTPClientTransport(new URL(remote.url), {
          fetch: recorder.fetch,
          requestInit: { headers: { authorization: `Bearer ${tokens.access_token}` } },
        }),
      )
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(failure).toBeInstanceOf(Error);
    expect(recorder.last()!.status).toBe(401);
    expect(recorder.last()!.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
  }, 180_000); // ~40 requests; the emulation starts a worker per function call (~0.5 s each, more on a busy machine)

  it('takes the A2A route: finds the agent card from the origin, asks the agent, and follows a returned link to a markdown twin', async () => {
    // 1. llms.txt names the card and the API catalog describes the A2A endpoint with it.
    const llms = await (await get(new URL('/llms.txt', BASE).href, 'text/plain')).text();
    const links = markdownLinks(llms);
    const cardLink = links.find((l) => l.title === 'A2A agent card')!;
    const catalogUrl = links.find((l) => l.title === 'API catalog')!.url;
    const linkset = (
      (await (await get(catalogUrl, 'application/linkset+json')).json()) as {
        linkset: { anchor: string; 'service-desc': { href: string }[] }[];
      }
    ).linkset;
    const a2aContext = linkset.find((c) => c['service-desc'].some((t) => t.href === cardLink.url))!;

    // 2. The A2A SDK client at its defaults resolves the card at the origin's well-known URI (A2A §8.2).
    expect(new URL(cardLink.url).pathname).toBe('/.well-known/agent-card.json');
    const a2a = await new ClientFactory().createFromUrl(BASE);
    const card = await a2a.getAgentCard();
    expect(card.supportedInterfaces[0]!.url).toBe(a2aContext.anchor);

    // 3. SendMessage with the title of an article llms.txt lists: the answer is a Message, not a task.
    const listed = links.find((l) => /\/blog\/[^/]+\.md$/.test(new URL(l.url).pathname))!;
    const reply = (await a2a.sendMessage(
      SendMessageRequest.fromJSON({ message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: listed.title }] } }),
    )) as Message;
    expect(reply.role).toBe(Role.ROLE_AGENT);
    const data = reply.parts.find((p) => p.content?.$case === 'data')!.content!.value as {
      links: { title: string; url: string; markdown_url: string }[];
    };
    const text = reply.parts.find((p) => p.content?.$case === 'text')!.content!.value as string;
    const first = data.links[0]!;
    expect(first.markdown_url).toBe(listed.url);
    expect(text).toContain(first.markdown_url);

    // 4. Follow the link: the markdown twin of that article.
    const twin = await get(first.markdown_url, 'text/markdown');
    expect(twin.headers.get('content-type')).toMatch(/^text\/markdown/);
    expect(await twin.text()).toContain(listed.title);
  });
});
