/**
 * Which browser origins may call the JSON-RPC endpoints (`/mcp`, `/a2a`): one rule for both, so a
 * page that may use one may use the other.
 * @module
 */
import { isLoopbackOrigin } from './origin.ts';

/**
 * The configured origins (default: the site origin); a build for a loopback origin (dev, tests)
 * also accepts any loopback origin on any port, as `http://localhost:*` in dev. Public deploys never
 * have a loopback origin, so this adds nothing there. Requests without `Origin` are not browsers'
 * cross-origin calls and are not checked here.
 */
export function isAllowedBrowserOrigin(origin: string, siteOrigin: string, allowedOrigins?: readonly string[]): boolean {
  if ((allowedOrigins ?? [siteOrigin]).includes(origin)) return true;
  return isLoopbackOrigin(siteOrigin) && isLoopbackOrigin(origin);
}
