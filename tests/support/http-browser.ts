/**
 * A stand-in for a person's browser, for OAuth clients that open one (mcp-remote through `open`
 * and xdg-open, which run `$BROWSER <url>`). It does what a browser without JavaScript does on the
 * consent page: GET it, keep the cookie, press Approve, and follow the 303 to the client's loopback
 * redirect URI, so the client receives the code at its own callback.
 *
 * Usage: `BROWSER="<node> tests/support/http-browser.ts"`; exits 0 once the callback answered.
 */
import { authorizeThroughConsent } from './consent.ts';

const url = process.argv[2];
if (!url) {
  console.error('usage: http-browser.ts <authorization-url>');
  process.exit(2);
}
/**
 * A person takes seconds to read the consent page; this stand-in takes milliseconds. mcp-remote
 * 0.15 opens the browser before its callback server listens, so the redirect may find nothing on
 * the port yet: like a person reloading, try again for a while before giving up.
 */
const CALLBACK_RETRY_MS = 250;
const CALLBACK_PATIENCE_MS = 15_000;

async function deliver(callback: string | URL): Promise<Response> {
  for (let waited = 0; ; waited += CALLBACK_RETRY_MS) {
    try {
      return await fetch(callback, { redirect: 'manual' });
    } catch (error) {
      if (waited >= CALLBACK_PATIENCE_MS) throw error;
      await new Promise((resolve) => setTimeout(resolve, CALLBACK_RETRY_MS));
    }
  }
}

try {
  const callback = await authorizeThroughConsent((input, init) => fetch(input, init), url);
  const delivered = await deliver(callback);
  process.exit(delivered.status < 400 ? 0 : 1);
} catch (error) {
  console.error('http-browser:', error);
  process.exit(1);
}
