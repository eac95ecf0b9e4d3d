/**
 * The public origin: the one setting every absolute URL derives from.
 * @module
 */

/** Port the local runtime listens on when PORT is unset. */
export const DEFAULT_LOCAL_PORT = 8888;

/** Environment variables read to find the origin (Netlify sets URL, DEPLOY_PRIME_URL and CONTEXT at build time). */
export interface OriginEnv {
  SITE_URL?: string | undefined;
  URL?: string | undefined;
  DEPLOY_PRIME_URL?: string | undefined;
  CONTEXT?: string | undefined;
  PORT?: string | undefined;
}

/**
 * Resolves the site origin: `SITE_URL` when set; on Netlify `URL` for production and
 * `DEPLOY_PRIME_URL` for previews and branch deploys (so each deploy links to itself);
 * otherwise `http://localhost:$PORT`.
 * @throws Error when the chosen value is not an http(s) origin.
 */
export function resolveOrigin(env: OriginEnv): string {
  const candidate =
    env.SITE_URL ||
    (env.CONTEXT && env.CONTEXT !== 'production' && env.DEPLOY_PRIME_URL) ||
    env.URL ||
    `http://localhost:${env.PORT || DEFAULT_LOCAL_PORT}`;
  return normalizeOrigin(candidate);
}

/** Validates an origin string and drops any path, query or trailing slash. */
export function normalizeOrigin(value: string): string {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch (cause) {
    throw new Error(`Site origin "${value}" is not a URL`, { cause });
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new Error(`Site origin "${value}" must use http or https`);
  }
  return parsed.origin;
}

/** Host names of the loopback interface as they appear in a URL's `hostname`. */
export const LOOPBACK_HOSTNAMES: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/** Whether an http(s) origin or URL is on a loopback host (any port); false for anything that is not a URL. */
export function isLoopbackOrigin(origin: string): boolean {
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK_HOSTNAMES.includes(url.hostname);
  } catch {
    return false; // not a URL (e.g. "null"): not loopback
  }
}
