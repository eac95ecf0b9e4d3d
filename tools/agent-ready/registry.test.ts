/**
 * Every check against the fixture site: the good site passes all of them; each mutation breaks one
 * thing and exactly that check fails, with a reason that names the defect and a fix.
 */
import { describe, expect, it } from 'vitest';
import {
  DIRECTORY_KEY,
  FIXTURE_ORIGIN,
  TOOL_NAME,
  directoryRoute,
  doc,
  fakeResolver,
  goodRoutes,
  json,
  memoryFetch,
  newSigningKey,
  type Routes,
} from './test/good-site.ts';
import { CHECKS, runChecks } from './registry.ts';
import { type CheckResult, fail, type WebMcpProbe } from './types.ts';

const O = FIXTURE_ORIGIN;

/** A parsed JSON document the mutations edit by path; the assertions on the results are the checks. */
// biome-ignore lint/suspicious/noExplicitAny: fixture documents edited by path in tests
type ParsedJson = any;

async function run(
  mutate?: (routes: Routes) => void | Promise<void>,
  probe: WebMcpProbe = async () => [TOOL_NAME],
): Promise<CheckResult[]> {
  const routes = goodRoutes(O);
  await mutate?.(routes);
  return runChecks({ baseUrl: O, fetch: memoryFetch(routes), probeWebMcp: probe, resolveDns: fakeResolver('fixture.example') });
}

const OTHER_KEY = await newSigningKey();
const WBA = '/.well-known/http-message-signatures-directory';

/** The current response of a route (to derive a mutated copy from it). */
async function current(routes: Routes, path: string, accept?: string): Promise<Response> {
  return routes.get(path)!(new Request(O + path, { headers: accept ? { accept } : {} }));
}

async function editJson(routes: Routes, path: string, edit: (doc: ParsedJson) => void): Promise<void> {
  const res = await current(routes, path);
  const body: ParsedJson = await res.json();
  edit(body);
  routes.set(path, json(body, Object.fromEntries(res.headers)));
}

async function editText(routes: Routes, path: string, edit: (text: string) => string, headers?: Record<string, string>): Promise<void> {
  const res = await current(routes, path);
  const text = edit(await res.text());
  routes.set(path, doc(text, headers ?? Object.fromEntries(res.headers)));
}

/** `/` with its HTML and markdown variants rebuilt by `edit`. */
async function editHome(routes: Routes, edit: (variant: 'html' | 'markdown', res: Response) => Response): Promise<void> {
  const home = routes.get('/')!;
  routes.set('/', async (req) => {
    const res = await home(req);
    return edit(res.headers.get('content-type')!.startsWith('text/markdown') ? 'markdown' : 'html', res);
  });
}

function withHeaders(res: Response, change: (h: Headers) => void): Response {
  const headers = new Headers(res.headers);
  change(headers);
  return new Response(res.body, { status: res.status, headers });
}

const plain = { 'content-type': 'text/plain; charset=utf-8' };

type Mutation = [check: string, what: string, mutate: (routes: Routes) => void | Promise<void>, reason: RegExp, probe?: WebMcpProbe];

const MUTATIONS: Mutation[] = [
  [
    'robotsTxt',
    'robots.txt is served as application/octet-stream',
    (r) => editText(r, '/robots.txt', (t) => t, { 'content-type': 'application/octet-stream' }),
    /expected text\/plain/,
  ],
  [
    'robotsTxtAiRules',
    'robots.txt has only the wildcard group',
    (r) => void r.set('/robots.txt', doc(`User-agent: *\nContent-Signal: search=yes\nAllow: /\n\nSitemap: ${O}/sitemap.xml\n`, plain)),
    /names none of the AI crawlers/,
  ],
  [
    'robotsTxtAiRules',
    'robots.txt names only crawlers the scanner does not look for',
    (r) => editText(r, '/robots.txt', (t) => t.replace(/User-agent: (GPTBot|CCBot|anthropic-ai)/g, 'User-agent: ClaudeBot')),
    /names none of the AI crawlers/,
  ],
  [
    'contentSignals',
    'robots.txt has no Content-Signal',
    (r) => editText(r, '/robots.txt', (t) => t.replace(/^Content-Signal:.*\n/gm, '')),
    /no Content-Signal directive/,
  ],
  [
    'contentSignals',
    'a Content-Signal value is not yes/no',
    (r) => editText(r, '/robots.txt', (t) => t.replace('ai-train=no', 'ai-train=maybe')),
    /line 8 has ai-train=maybe \(expected yes or no\)/,
  ],
  [
    'contentSignals',
    'the only Content-Signal precedes every User-agent line',
    (r) => editText(r, '/robots.txt', (t) => `Content-Signal: search=yes\n${t.replace(/^Content-Signal:.*\n/gm, '')}`),
    /outside any User-agent group/,
  ],
  [
    'sitemap',
    'the sitemap is not well-formed XML',
    (r) => editText(r, '/sitemap.xml', (t) => t.replace('</urlset>', '')),
    /not well-formed XML/,
  ],
  [
    'sitemap',
    'the sitemap robots.txt names is missing',
    (r) => void r.delete('/sitemap.xml'),
    /robots\.txt names https:\/\/fixture\.example\/sitemap\.xml, but GET \/sitemap\.xml → 404/,
  ],
  [
    'sitemap',
    'the root element is not urlset',
    (r) => editText(r, '/sitemap.xml', (t) => t.replace(/urlset/g, 'urls')),
    /root element is <urls>/,
  ],
  ['linkHeaders', '/ sends no Link header', (r) => editHome(r, (_, res) => withHeaders(res, (h) => h.delete('link'))), /no Link header/],
  [
    'linkHeaders',
    'the Link header has only rel="sitemap"',
    (r) => editHome(r, (_, res) => withHeaders(res, (h) => h.set('link', '</sitemap.xml>; rel="sitemap"'))),
    /no agent-useful relation \(found: sitemap\)/,
  ],
  [
    'linkHeaders',
    'a Link target is missing',
    (r) => editHome(r, (_, res) => withHeaders(res, (h) => h.append('link', '</docs/missing>; rel="service-doc"'))),
    /points at \/docs\/missing, but GET \/docs\/missing → 404/,
  ],
  [
    'markdownNegotiation',
    'the markdown variant lacks Vary',
    (r) => editHome(r, (v, res) => (v === 'markdown' ? withHeaders(res, (h) => h.delete('vary')) : res)),
    /markdown response of \/ has no `Vary: Accept`/,
  ],
  [
    'markdownNegotiation',
    'the HTML variant lacks Vary',
    (r) => editHome(r, (v, res) => (v === 'html' ? withHeaders(res, (h) => h.delete('vary')) : res)),
    /HTML response of \/ has no `Vary: Accept`/,
  ],
  [
    'markdownNegotiation',
    '/ ignores Accept: text/markdown',
    async (r) => {
      const html = await current(r, '/');
      const [body, headers] = [await html.text(), Object.fromEntries(html.headers)];
      r.set('/', () => new Response(body, { headers }));
    },
    /with Accept: text\/markdown, GET \/ answers text\/html/,
  ],
  ['llmsTxt', 'llms.txt has no H1', (r) => editText(r, '/llms.txt', (t) => t.replace('# Fixture', 'Fixture')), /does not start with an H1/],
  [
    'apiCatalog',
    'the catalog is served as application/json',
    (r) => editText(r, '/.well-known/api-catalog', (t) => t, { 'content-type': 'application/json' }),
    /expected application\/linkset\+json/,
  ],
  ['apiCatalog', 'the linkset is empty', (r) => editJson(r, '/.well-known/api-catalog', (d) => (d.linkset = [])), /"linkset" is empty/],
  [
    'apiCatalog',
    'a link context has no anchor',
    (r) => editJson(r, '/.well-known/api-catalog', (d) => delete d.linkset[0].anchor),
    /linkset\[0\] has no "anchor"/,
  ],
  [
    'oauthDiscovery',
    'the issuer has a trailing slash',
    (r) => editJson(r, '/.well-known/oauth-authorization-server', (d) => (d.issuer = `${O}/`)),
    /not the origin https:\/\/fixture\.example \(RFC 8414 §3\.3\)/,
  ],
  [
    'oauthDiscovery',
    'response_types_supported is missing',
    (r) => editJson(r, '/.well-known/oauth-authorization-server', (d) => delete d.response_types_supported),
    /no "response_types_supported"/,
  ],
  [
    'oauthProtectedResource',
    'the root PRM describes /mcp',
    (r) => editJson(r, '/.well-known/oauth-protected-resource', (d) => (d.resource = `${O}/mcp`)),
    /resource mismatch/,
  ],
  [
    'authMd',
    'auth.md has an H2 instead of the H1',
    (r) => editText(r, '/auth.md', (t) => t.replace('# auth.md', '## auth.md')),
    /missing the expected Auth\.md heading/,
  ],
  [
    'authMd',
    "auth.md's only auth.md H1 is inside a code fence",
    (r) => editText(r, '/auth.md', (t) => t.replace('# auth.md', '# Agents').replace('# not this one', '# auth.md')),
    /missing the expected Auth\.md heading/,
  ],
  [
    'authMd',
    'the PRM has empty authorization_servers',
    (r) => editJson(r, '/.well-known/oauth-protected-resource', (d) => (d.authorization_servers = [])),
    /lists no authorization_servers/,
  ],
  [
    'authMd',
    'agent_auth has no claim_uri',
    (r) => editJson(r, '/.well-known/oauth-authorization-server', (d) => delete d.agent_auth.claim_uri),
    /agent_auth\.claim_uri is missing/,
  ],
  [
    'authMd',
    'the identity type has no credential types',
    (r) => editJson(r, '/.well-known/oauth-authorization-server', (d) => delete d.agent_auth.anonymous.credential_types_supported),
    /agent_auth\.anonymous\.credential_types_supported is missing/,
  ],
  [
    'authMd',
    '/auth.md is an HTML soft 404',
    (r) => void r.set('/auth.md', doc('<!doctype html><title>Not found</title>', { 'content-type': 'text/html' })),
    /soft 404/,
  ],
  [
    'mcpServerCard',
    'the card has no serverInfo',
    (r) => editJson(r, '/.well-known/mcp/server-card.json', (d) => delete d.serverInfo),
    /server-card\.json: no "serverInfo"/,
  ],
  [
    'agentSkills',
    'SKILL.md changed after its digest was published',
    (r) => editText(r, '/.well-known/agent-skills/register-agent/SKILL.md', (t) => `${t}\nOne more line.\n`),
    /skill "register-agent": digest mismatch/,
  ],
  [
    'agentSkills',
    'a referenced file of an RFC-style skill changed',
    (r) => editText(r, '/.well-known/agent-skills/query-api/references/api.md', (t) => t.toUpperCase()),
    /skill "query-api": digest mismatch for references\/api\.md/,
  ],
  [
    'agentSkills',
    'the skill-level digest matches nothing served',
    (r) => editJson(r, '/.well-known/agent-skills/index.json', (d) => (d.skills[1].digest = `sha256:${'0'.repeat(64)}`)),
    /skill "query-api": digest mismatch \(index sha256:000000000000/,
  ],
  [
    'agentSkills',
    'the index lists a skill without a digest',
    (r) => editJson(r, '/.well-known/agent-skills/index.json', (d) => delete d.skills[0].digest),
    /has no "digest"/,
  ],
  [
    'ard',
    'an entry has one representative query',
    (r) => editJson(r, '/.well-known/ai-catalog.json', (d) => (d.entries[0].representativeQueries = ['only one'])),
    /needs 2-5 "representativeQueries"/,
  ],
  [
    'ard',
    'the catalog has no Access-Control-Allow-Origin',
    (r) => editText(r, '/.well-known/ai-catalog.json', (t) => t, { 'content-type': 'application/json' }),
    /lacks Access-Control-Allow-Origin: \*/,
  ],
  [
    'a2aAgentCard',
    'a v0.3 card (top-level url, no supportedInterfaces)',
    (r) =>
      editJson(r, '/.well-known/agent-card.json', (d) => {
        d.url = d.supportedInterfaces[0].url;
        d.preferredTransport = 'JSONRPC';
        delete d.supportedInterfaces;
      }),
    /a v0\.3 card .*supportedInterfaces/,
  ],
  [
    'a2aAgentCard',
    'an interface has no protocolVersion',
    (r) => editJson(r, '/.well-known/agent-card.json', (d) => delete d.supportedInterfaces[0].protocolVersion),
    /supportedInterfaces\[0\] has no "protocolVersion"/,
  ],
  [
    'a2aAgentCard',
    'a skill has no tags',
    (r) => editJson(r, '/.well-known/agent-card.json', (d) => delete d.skills[0].tags),
    /skill "search_docs" has no "tags"/,
  ],
  [
    'a2aAgentCard',
    'defaultOutputModes is empty',
    (r) => editJson(r, '/.well-known/agent-card.json', (d) => (d.defaultOutputModes = [])),
    /"defaultOutputModes" is missing or empty/,
  ],
  [
    'a2aAgentCard',
    'the card is an HTML soft 404',
    (r) => void r.set('/.well-known/agent-card.json', doc('<!doctype html><title>Not found</title>', { 'content-type': 'text/html' })),
    /soft 404/,
  ],
  [
    'webBotAuth',
    'the directory is served as application/json',
    (r) => void r.set(WBA, directoryRoute({ contentType: 'application/json' })),
    /expected application\/http-message-signatures-directory\+json/,
  ],
  [
    'webBotAuth',
    'a key carries its private part',
    (r) => void r.set(WBA, directoryRoute({ publish: () => [DIRECTORY_KEY.privateJwk] })),
    /keys\[0\] publishes private key material/,
  ],
  [
    'webBotAuth',
    'kid is not the JWK thumbprint',
    (r) => void r.set(WBA, directoryRoute({ publish: (keys) => keys.map((k) => ({ ...k, kid: 'key-1' })) })),
    /keys\[0\]\.kid is "key-1", not its JWK thumbprint/,
  ],
  [
    'webBotAuth',
    'a key is not an Ed25519 point',
    (r) => void r.set(WBA, directoryRoute({ signers: [], publish: (keys) => keys.map((k) => ({ ...k, x: 'AAAA' })) })),
    /keys\[0\] \(OKP Ed25519\) is not a key Web Bot Auth verifiers can use/,
  ],
  [
    'webBotAuth',
    'the body changed after it was digested and signed',
    (r) => void r.set(WBA, directoryRoute({ tamper: (body) => body.replace('"keys"', '"keys" ') })),
    /covers content-digest, but Content-Digest is missing or does not match/,
  ],
  [
    'webBotAuth',
    'signed by a key the directory does not publish',
    (r) => void r.set(WBA, directoryRoute({ signers: [OTHER_KEY] })),
    /names keyid ".+", which is no published key's thumbprint/,
  ],
  [
    'webBotAuth',
    'the signature has expired',
    (r) => void r.set(WBA, directoryRoute({ createdIn: -600, expiresIn: -300 })),
    /does not verify: Signature expired/,
  ],
  [
    'webBotAuth',
    'the signature carries the request tag',
    (r) => void r.set(WBA, directoryRoute({ tag: 'web-bot-auth' })),
    /tag "web-bot-auth", not "http-message-signatures-directory"/,
  ],
  [
    'webBotAuth',
    'the signature bytes were altered',
    (r) =>
      void r.set(WBA, async (req) => {
        const res = await directoryRoute()(req);
        const headers = new Headers(res.headers);
        headers.set(
          'signature',
          headers.get('signature')!.replace(/=:(.)/, (_m, c: string) => `=:${c === 'A' ? 'B' : 'A'}`),
        );
        return new Response(res.body, { headers });
      }),
    /does not verify: invalid signature/,
  ],
  ['webMcp', 'the page registers no tool', () => {}, /no WebMCP tool was registered/, async () => []],
];

describe('the good fixture site', () => {
  it('passes every check, in registry order', async () => {
    const results = await run();
    expect(results.map((r) => r.id)).toEqual(CHECKS.map((c) => c.id));
    expect(results.filter((r) => r.status !== 'pass')).toEqual([]);
    expect(results.every((r) => r.fix === undefined)).toBe(true);
  });

  it('verifies the signed key directory and the v1.0 agent card, and says what it saw', async () => {
    const results = await run();
    const reason = (id: string) => results.find((r) => r.id === id)!.reason;
    expect(reason('webBotAuth')).toBe(`${WBA}: 1 Ed25519 key(s), signed by 1 of 1 key(s), with content-digest`);
    expect(reason('a2aAgentCard')).toBe('/.well-known/agent-card.json: Fixture agent 1.0.0, 1 skill(s), JSONRPC 1.0');
    expect(reason('dnsAid')).toBe('1 DNSSEC-validated DNS-AID record(s) at _index._agents.fixture.example');
  });
});

describe('Web Bot Auth directories that pass', () => {
  const verdictFor = async (route: ReturnType<typeof directoryRoute>) =>
    (await run((r) => void r.set(WBA, route))).find((r) => r.id === 'webBotAuth')!;

  it('unsigned (signing is only RECOMMENDED)', async () => {
    expect(await verdictFor(directoryRoute({ signers: [] }))).toMatchObject({
      status: 'pass',
      reason: `${WBA}: 1 Ed25519 key(s), unsigned (signing the directory is RECOMMENDED)`,
    });
  });

  it("signed as web-bot-auth's directoryResponseHeaders signs (no content-digest), with a note", async () => {
    expect(await verdictFor(directoryRoute({ profile: 'library' }))).toMatchObject({
      status: 'pass',
      reason: `${WBA}: 1 Ed25519 key(s), signed by 1 of 1 key(s), without content-digest (the -02 draft asks for it)`,
    });
  });

  it('the draft\'s "Signed Directory Response" test vector (httpsig-protocol, appendix)', async () => {
    const body =
      '{"keys":[{"kty":"OKP","crv":"Ed25519","kid":"poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U","x":"JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs","use":"sig"}]}';
    const headers = {
      'content-type': 'application/http-message-signatures-directory+json',
      'content-digest': 'sha-256=:CADMT2aBdV/rqQr/NIru64ERQkCobVvllA4V0fLFDu0=:',
      'signature-input':
        'binding=("@authority";req "content-digest");created=1735689600;expires=4889289600;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";tag="http-message-signatures-directory"',
      signature: 'binding=:l6P8R67tm3kujAxbHWio7ll01qrEZ0dKD/WWlGhNYEmTnFZM8Wt0VQ9zqGfvo7T/UMkBxsigzChM1Gpz7gOVBg==:',
    };
    const site = (origin: string) =>
      runChecks(
        { baseUrl: origin, fetch: memoryFetch(new Map([[WBA, doc(body, headers)]])) },
        CHECKS.filter((c) => c.id === 'webBotAuth'),
      );
    expect(await site('https://signature-agent.test')).toMatchObject([
      { status: 'pass', reason: `${WBA}: 1 Ed25519 key(s), signed by 1 of 1 key(s), with content-digest` },
    ]);
    // The signature binds the authority it was made for.
    expect(await site('https://elsewhere.test')).toMatchObject([
      { status: 'fail', reason: `${WBA}: signature "binding" does not verify: invalid signature` },
    ]);
  });

  it('two keys during a rotation, each signing (two signatures in one field)', async () => {
    for (const profile of ['draft-02', 'library'] as const) {
      expect(await verdictFor(directoryRoute({ keys: [DIRECTORY_KEY, OTHER_KEY], profile }))).toMatchObject({
        status: 'pass',
        reason: expect.stringMatching(/2 Ed25519 key\(s\), signed by 2 of 2 key\(s\)/),
      });
    }
  });
});

describe('one defect fails exactly its check', () => {
  it.each(MUTATIONS)('%s: %s', async (id, _what, mutate, reason, probe) => {
    const results = await run(mutate, probe);
    const notPassing = results.filter((r) => r.status !== 'pass');
    expect(notPassing.map((r) => `${r.id}: ${r.reason}`)).toEqual([expect.stringMatching(new RegExp(`^${id}: `))]);
    expect(notPassing[0]!.status).toBe('fail');
    expect(notPassing[0]!.reason).toMatch(reason);
    expect(notPassing[0]!.reason).not.toMatch(/\n/);
    expect(notPassing[0]!.fix).toMatch(/\S{10}/);
  });

  it('every check that can fail has at least one mutation', () => {
    const covered = new Set(MUTATIONS.map((m) => m[0]));
    expect(CHECKS.map((c) => c.id).filter((id) => !covered.has(id))).toEqual(['dnsAid']);
  });
});

describe('checks that never fail', () => {
  it('webBotAuth is neutral, not failed, without a key directory or with no keys in it', async () => {
    for (const mutate of [(r: Routes) => void r.delete(WBA), (r: Routes) => void r.set(WBA, directoryRoute({ keys: [] }))]) {
      const results = await run(mutate);
      const notPassing = results.filter((r) => r.status !== 'pass');
      expect(notPassing.map((r) => [r.id, r.status])).toEqual([['webBotAuth', 'neutral']]);
      expect(notPassing[0]!.fix).toMatch(/^Only if your own bots sign their requests/);
    }
  });

  it('a2aAgentCard is neutral without a card', async () => {
    const results = await run((r) => void r.delete('/.well-known/agent-card.json'));
    expect(results.filter((r) => r.status !== 'pass').map((r) => [r.id, r.status, r.reason])).toEqual([
      [
        'a2aAgentCard',
        'neutral',
        'no A2A agent card (GET /.well-known/agent-card.json → 404 text/plain); only sites that offer an A2A endpoint need one',
      ],
    ]);
  });

  it('dnsAid never fails: without a resolver it lists the records to add, and unvalidated or missing records stay neutral', async () => {
    const ctx = { baseUrl: O, fetch: memoryFetch(goodRoutes(O)) };
    const dnsAid = async (extra: object) => (await runChecks({ ...ctx, ...extra })).find((r) => r.id === 'dnsAid')!;
    const none = await dnsAid({});
    expect(none).toMatchObject({
      status: 'neutral',
      scored: false,
      reason: 'not checked: needs a DNSSEC-validating resolver (--doh <url>); records to add for fixture.example are listed in the fix',
    });
    expect(none.fix).toBe(
      'Publish in your DNSSEC-signed zone (DNS-AID, draft-mozleywilliams-dnsop-dnsaid-02): _index._agents.fixture.example. 3600 IN HTTPS 1 fixture.example. alpn="h2,h3" port=443; _mcp._agents.fixture.example. 3600 IN HTTPS 1 fixture.example. alpn="h2,h3" port=443; _a2a._agents.fixture.example. 3600 IN HTTPS 1 fixture.example. alpn="h2,h3" port=443',
    );
    expect(await dnsAid({ resolveDns: fakeResolver('fixture.example', { dnssecValidated: false }) })).toMatchObject({
      status: 'neutral',
      reason: expect.stringMatching(/not DNSSEC-validated/),
    });
    expect(await dnsAid({ resolveDns: fakeResolver('fixture.example', { records: false }) })).toMatchObject({
      status: 'neutral',
      reason: expect.stringMatching(/^no DNS-AID record under _agents\.fixture\.example/),
    });
    const failing = await dnsAid({ resolveDns: async () => Promise.reject(new Error('SERVFAIL')) });
    expect(failing).toMatchObject({
      status: 'neutral',
      reason: 'not checked: the DNS lookup of _index._agents.fixture.example HTTPS failed (SERVFAIL)',
    });
    const local = await runChecks({ baseUrl: 'http://127.0.0.1:8899', fetch: memoryFetch(new Map()) });
    expect(local.find((r) => r.id === 'dnsAid')).toMatchObject({
      status: 'neutral',
      reason: 'not checked: 127.0.0.1 is not a public DNS name (DNS-AID records live in public, DNSSEC-signed DNS)',
      fix: expect.stringContaining('_index._agents.example.com. 3600 IN HTTPS 1 example.com. alpn="h2,h3" port=443'),
    });
  });

  it('the resolver is asked for HTTPS and SVCB records of each _agents name of the audited host', async () => {
    const resolver = fakeResolver('fixture.example');
    await runChecks({ baseUrl: O, fetch: memoryFetch(goodRoutes(O)), resolveDns: resolver });
    expect(resolver.asked).toEqual(
      ['_index._agents', '_mcp._agents', '_a2a._agents'].flatMap((l) => [`${l}.fixture.example HTTPS`, `${l}.fixture.example SVCB`]),
    );
  });

  it('webMcp is neutral without a browser, and fails when the page cannot be loaded', async () => {
    const none = await runChecks({ baseUrl: O, fetch: memoryFetch(goodRoutes(O)) });
    expect(none.find((r) => r.id === 'webMcp')).toMatchObject({ status: 'neutral', reason: 'not checked: no browser available' });
    const noBrowser = await run(undefined, async () => null);
    expect(noBrowser.find((r) => r.id === 'webMcp')).toMatchObject({
      status: 'neutral',
      reason: 'not checked: the browser could not be started',
    });
    const broken = await run(undefined, async () => {
      throw new Error('net::ERR_CONNECTION_REFUSED at http://x/\nstack');
    });
    expect(broken.find((r) => r.id === 'webMcp')).toMatchObject({
      status: 'fail',
      reason: 'the page could not be loaded in the browser: net::ERR_CONNECTION_REFUSED at http://x/',
    });
  });

  it('a check that throws is a neutral checker error with a fix, and the run goes on', async () => {
    const boom = { id: 'boom', title: 'Boom', scored: true, run: async () => Promise.reject(new Error('bad input')) };
    const results = await runChecks({ baseUrl: O, fetch: memoryFetch(goodRoutes(O)) }, [boom, CHECKS[0]!]);
    expect(results.map((r) => [r.id, r.status, r.reason])).toEqual([
      ['boom', 'neutral', 'not checked: checker error (bad input)'],
      ['robotsTxt', 'pass', 'robots.txt with 2 group(s) and 1 Sitemap line(s)'],
    ]);
    expect(results[0]!.fix).toMatch(/bug in the checker/);
  });

  it("bounds a reason, fix and evidence built from the site's own text (a 200,000-character URL)", async () => {
    const long = `https://fixture.example/${'('.repeat(200_000)}`;
    const echo = {
      id: 'echo',
      title: 'Echo',
      scored: true,
      run: async () => fail(`broken: ${long}`, `Fix ${long}`, { evidence: [`> GET ${long}`] }),
    };
    const [result] = await runChecks({ baseUrl: O, fetch: memoryFetch(goodRoutes(O)) }, [echo]);
    for (const text of [result!.reason, result!.fix!, result!.evidence![0]!]) {
      expect(text.length).toBeLessThan(1_100);
      expect(text).toMatch(/… \(\d+ more characters\)$/);
    }
  });

  it('the probe is asked about the home page of the audited origin', async () => {
    const asked: string[] = [];
    await run(undefined, async (url) => {
      asked.push(url);
      return [TOOL_NAME];
    });
    expect(asked).toEqual([`${O}/`]);
  });
});

describe('sites that are not agent-ready', () => {
  it('an empty site fails every check except the ones that cannot fail', async () => {
    const results = await runChecks({ baseUrl: O, fetch: memoryFetch(new Map()), probeWebMcp: async () => [] });
    expect(results.filter((r) => r.status !== 'fail').map((r) => [r.id, r.status])).toEqual([
      ['a2aAgentCard', 'neutral'],
      ['webBotAuth', 'neutral'],
      ['dnsAid', 'neutral'],
    ]);
    expect(results.find((r) => r.id === 'robotsTxt')!.reason).toBe('GET /robots.txt → 404 text/plain');
  });

  it('a soft-404 site (every unknown path 200 text/html) fails the JSON checks as soft 404s', async () => {
    const routes = goodRoutes(O);
    for (const path of ['/.well-known/ai-catalog.json', '/.well-known/mcp/server-card.json', '/.well-known/oauth-protected-resource']) {
      routes.set(path, doc('<!doctype html><html><body>App shell</body></html>', { 'content-type': 'text/html; charset=utf-8' }));
    }
    const results = await runChecks({ baseUrl: O, fetch: memoryFetch(routes), probeWebMcp: async () => [TOOL_NAME] });
    const failed = Object.fromEntries(results.filter((r) => r.status === 'fail').map((r) => [r.id, r.reason]));
    expect(Object.keys(failed).sort()).toEqual(['ard', 'authMd', 'mcpServerCard', 'oauthProtectedResource']);
    expect(failed.ard).toMatch(/soft 404/);
    expect(failed.oauthProtectedResource).toMatch(/soft 404/);
  });

  it('robots.txt is read once however many checks use it', async () => {
    const log: Request[] = [];
    await runChecks({ baseUrl: O, fetch: memoryFetch(goodRoutes(O), log) });
    const count = (path: string, accept: string | null = null) =>
      log.filter((r) => new URL(r.url).pathname === path && r.headers.get('accept') === accept).length;
    expect(count('/robots.txt')).toBe(1);
    expect(count('/')).toBe(1);
    expect(count('/', 'text/markdown')).toBe(1);
    expect(count('/.well-known/oauth-protected-resource', 'application/json')).toBe(1);
  });
});
