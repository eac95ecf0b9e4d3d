/** The read limit of one function instance (src/core/kernel/read-limit.ts): each function that calls this keeps its own buckets. */
import type { Context } from '@netlify/functions';
import { clientNetwork } from '../../../src/core/kernel/ip-ranges.ts';
import { type Admission, ReadLimiter, type RefusalFamily, readAdmission, readRules } from '../../../src/core/kernel/read-limit.ts';
import { isAllowedBrowserOrigin } from '../../../src/core/kernel/browser-origin.ts';
import { isLoopbackOrigin } from '../../../src/core/kernel/origin.ts';
import { DIRECTORY_MEDIA_TYPE } from '../../../src/core/web-bot-auth/directory.ts';
import { AGENT_DIRECTORY_MAX_BYTES, AgentVerifier } from '../../../src/core/web-bot-auth/verify.ts';
import { safeFetchDocument } from './client-metadata-fetch.ts';
import { build, clientIp, runtimeConfig, SITE_USER_AGENT } from './deps.ts';

/**
 * This instance's verifier of incoming Web Bot Auth signatures (src/core/web-bot-auth/verify.ts):
 * directories are fetched with the SSRF-hardened fetcher of client metadata documents.
 */
const allowLoopback = isLoopbackOrigin(build.origin);
export const agentVerifier = new AgentVerifier({
  fetchDirectory: (url, admit) =>
    safeFetchDocument(url, {
      allowLoopback,
      admit,
      maxBytes: AGENT_DIRECTORY_MAX_BYTES,
      accept: `${DIRECTORY_MEDIA_TYPE}, application/json`,
      userAgent: SITE_USER_AGENT,
    }),
  now: Date.now,
  allowLoopback,
  log: (line) => console.warn(line),
});

/** Where a refused client reads how to get the verified allowance. */
export const READ_LIMITS_DOC = `${build.origin}/auth.md#read-limits`;

/** A request from a browser on an origin `/mcp` and `/a2a` do not allow (kernel/browser-origin.ts). */
function refusedBrowserOrigin(req: Request): boolean {
  const origin = req.headers.get('origin');
  return origin !== null && !isAllowedBrowserOrigin(origin, build.origin, runtimeConfig().browserOrigins);
}

/**
 * The admission of a public read endpoint, refusing in `family`'s words; a JSON-RPC endpoint names its
 * body limit, within which a refused request's id is read for the answer.
 */
export function readLimited(family: RefusalFamily, maxBodyBytes?: number): Admission {
  return readAdmission({
    limiter: new ReadLimiter(),
    rules: readRules(runtimeConfig().readLimitPerSecond),
    network: (context) => clientNetwork(clientIp(context as Pick<Context, 'ip'>)),
    refuseAs: family,
    moreAt: READ_LIMITS_DOC,
    verify: (req, network) => agentVerifier.verify(req, network),
    // MCP and A2A answer a browser origin they do not allow with 403 before anything else: no allowance spent on it.
    ...(family === 'jsonrpc'
      ? {
          refusedAnyway: refusedBrowserOrigin,
          ...(maxBodyBytes ? { maxBodyBytes } : {}),
        }
      : {}),
  });
}
