/**
 * The consent and claim pages in a real Chromium with JavaScript off: Approve follows the 303 to
 * the client's loopback redirect URI (so the page's CSP `form-action` admits it), the consent page
 * refuses to render in a frame, both pages pass axe-core, and a person can type a user code and
 * approve a claim.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as oauth from 'oauth4webapi';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, runAxe, useServedSite } from '../support/browser.ts';

const site = useServedSite();
let browser: Browser;
let context: BrowserContext;
/** axe-core runs its script in the page, so audits use a second context with JavaScript on (the pages have no scripts of their own). */
let auditContext: BrowserContext;
/** The "client application": a loopback server that records the callbacks it receives and can frame a URL. */
let app: Server;
let appOrigin = '';
const callbacks: URL[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
  context = await browser.newContext({ javaScriptEnabled: false });
  auditContext = await browser.newContext();
  app = createServer((req, res) => {
    const url = new URL(req.url!, appOrigin);
    if (url.pathname === '/frame') {
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(`<!doctype html><title>framer</title><iframe id="f" src="${url.searchParams.get('src')!.replace(/"/g, '&quot;')}"></iframe>`);
      return;
    }
    if (url.pathname !== '/favicon.ico') callbacks.push(url);
    res.writeHead(200, { 'content-type': 'text/plain' }).end('callback received');
  });
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  appOrigin = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await browser?.close();
  app?.closeAllConnections();
  await new Promise<void>((resolve) => (app ? app.close(() => resolve()) : resolve()));
});

async function expectNoAxeViolations(url: string): Promise<void> {
  const page = await auditContext.newPage();
  await page.goto(url);
  const axe = await runAxe(page, { type: 'tag', values: ['wcag2a', 'wcag2aa', 'best-practice'] });
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes[0]?.html}`)).toEqual([]);
  await page.close();
}

async function register(body: Record<string, unknown>): Promise<Record<string, string>> {
  const res = await fetch(site.url('/oauth/register'), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': '192.0.2.200' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(201);
  return res.json();
}

async function authorizationUrl(clientId: string, redirectUri: string): Promise<{ url: string; verifier: string; state: string }> {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(site.url('/oauth/authorize'));
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  }).toString();
  return { url: url.href, verifier, state };
}

describe('consent page in Chromium (no JavaScript)', () => {
  it('Approve lands on the client redirect URI with code, state and iss, and the code redeems', { timeout: 60_000 }, async () => {
    const redirectUri = `${appOrigin}/cb`;
    const client = await register({
      client_name: 'Browser test app',
      grant_types: ['authorization_code'],
      redirect_uris: [redirectUri],
      token_endpoint_auth_method: 'none',
    });
    const request = await authorizationUrl(client.client_id!, redirectUri);
    const page = await context.newPage();
    await page.goto(request.url);
    await expect(page.locator('h1').textContent()).resolves.toContain('Browser test app');
    await expectNoAxeViolations(request.url);
    await Promise.all([page.waitForURL((u) => u.pathname === '/cb'), page.getByRole('button', { name: 'Approve' }).click()]);
    const callback = callbacks.at(-1)!;
    expect(callback.searchParams.get('state')).toBe(request.state);
    expect(callback.searchParams.get('iss')).toBe(site.origin);
    const token = await fetch(site.url('/oauth/token'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: callback.searchParams.get('code')!,
        redirect_uri: redirectUri,
        code_verifier: request.verifier,
        client_id: client.client_id!,
      }),
    });
    expect(token.status).toBe(200);
    await page.close();
  });

  it('Deny lands on the redirect URI with error=access_denied', async () => {
    const redirectUri = `${appOrigin}/deny`;
    const client = await register({
      grant_types: ['authorization_code'],
      redirect_uris: [redirectUri],
      token_endpoint_auth_method: 'none',
    });
    const page = await context.newPage();
    await page.goto((await authorizationUrl(client.client_id!, redirectUri)).url);
    await Promise.all([page.waitForURL((u) => u.pathname === '/deny'), page.getByRole('button', { name: 'Deny' }).click()]);
    expect(callbacks.at(-1)!.searchParams.get('error')).toBe('access_denied');
    await page.close();
  });

  it('refuses to render inside a frame on another origin', async () => {
    const redirectUri = `${appOrigin}/cb`;
    const client = await register({
      grant_types: ['authorization_code'],
      redirect_uris: [redirectUri],
      token_endpoint_auth_method: 'none',
    });
    const consent = (await authorizationUrl(client.client_id!, redirectUri)).url;
    const page = await context.newPage();
    const framedText = async (src: string): Promise<string> => {
      // The framing page's load waits for its frame's, whether the frame rendered or was refused.
      await page.goto(`${appOrigin}/frame?src=${encodeURIComponent(src)}`, { waitUntil: 'load' });
      const frame = page.frames().find((f) => f !== page.mainFrame());
      expect(frame).toBeDefined();
      await frame!.waitForLoadState('load');
      return (
        (await frame!
          .locator('body')
          .textContent()
          .catch(() => '')) ?? ''
      );
    };
    // Control: a frameable page does render in the same frame.
    expect(await framedText(`${appOrigin}/control`)).toContain('callback received');
    expect(await framedText(consent)).not.toContain('Approve');
    await page.close();
  });
});

describe('claim verification page in Chromium (no JavaScript)', () => {
  it('a person types the code shown by the agent and approves; the agent then sees "claimed"', { timeout: 60_000 }, async () => {
    const client = await register({ client_name: 'Claimable agent', grant_types: ['client_credentials'] });
    const start = await (
      await fetch(site.url('/oauth/claim'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '192.0.2.201' },
        body: JSON.stringify({ claim_token: client.claim_token }),
      })
    ).json();
    const page = await context.newPage();
    await page.goto(start.verification_uri);
    await page.getByLabel('Code').fill(start.user_code.toLowerCase());
    await Promise.all([page.waitForURL((u) => u.searchParams.has('user_code')), page.getByRole('button', { name: 'Continue' }).click()]);
    await expect(page.locator('.code').textContent()).resolves.toBe(start.user_code);
    await expectNoAxeViolations(page.url());
    await page.getByRole('button', { name: 'Approve' }).click();
    await expect(page.locator('h1').textContent()).resolves.toBe('Registration claimed');
    const poll = await (
      await fetch(site.url('/oauth/claim'), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ claim_attempt_id: start.claim_attempt_id }),
      })
    ).json();
    expect(poll.status).toBe('claimed');
    await page.close();
  });
});
