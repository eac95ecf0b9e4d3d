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
try {
  const callback = await authorizeThroughConsent((input, init) => fetch(input, init), url);
  const delivered = await fetch(callback, { redirect: 'manual' });
  process.exit(delivered.status < 400 ? 0 : 1);
} catch (error) {
  console.error('http-browser:', error);
  process.exit(1);
}
