/**
 * The hardened fetch of Client ID Metadata Documents (SSRF, RFC 9700 §4.17-style): the URL is a
 * client's choice, so the server must not be made to reach its own network.
 * - https only, except http to a loopback host when the site itself runs on loopback (local runs);
 * - every address the name resolves to must be public (src/core/kernel/ip-ranges.ts), or loopback
 *   (http or https) when the site runs on loopback; the connection goes to the address that was
 *   checked (no second lookup, so no DNS rebinding);
 * - no redirects, a size limit and a time limit on the whole exchange.
 * Node's own http(s) client is used because fetch cannot pin the connection to a checked address.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { addressKind } from '../../../src/core/kernel/ip-ranges.ts';
import { SITE_USER_AGENT_PRODUCT } from '../../../src/core/kernel/user-agent.ts';
import {
  CLIENT_METADATA_FETCHER_AGENT,
  CLIENT_METADATA_MAX_BYTES,
  CLIENT_METADATA_TIMEOUT_MS,
  type ClientMetadataFetcher,
  type FetchedDocument,
} from '../../../src/core/oauth/grants/client-metadata-document.ts';

/** Every fetch goes through the resolver's admission; a direct call (the tests) admits everything. */
const ADMIT_ALL = async (): Promise<void> => {};

type Lookup = (hostname: string, callback: (error: Error | null, addresses: LookupAddress[]) => void) => void;
const systemLookup: Lookup = (hostname, callback) => dnsLookup(hostname, { all: true, verbatim: true }, callback);

export interface SafeFetchOptions {
  /** Allow http and loopback addresses (only when the site itself runs on a loopback origin). */
  allowLoopback: boolean;
  maxBytes?: number;
  timeoutMs?: number;
  /** DNS resolution; replaced in tests to simulate names that resolve to private addresses. */
  lookup?: Lookup;
  /** The Accept header (default application/json: a client metadata document). */
  accept?: string;
  /** The site's User-Agent (deps.ts `SITE_USER_AGENT`); the fetcher's own token follows it. Default: the product token alone. */
  userAgent?: string;
  /** Called with the checked address and port before connecting; throws to refuse. */
  admit?: (address: string, port: number) => Promise<void>;
}

function allowed(address: string, allowLoopback: boolean): boolean {
  const kind = addressKind(address);
  return kind === 'public' || (allowLoopback && kind === 'loopback');
}

/** Fetches `url` under the limits above; rejects with an Error whose message says what was refused. */
export function safeFetchDocument(url: string, options: SafeFetchOptions): Promise<FetchedDocument> {
  const maxBytes = options.maxBytes ?? CLIENT_METADATA_MAX_BYTES;
  const timeoutMs = options.timeoutMs ?? CLIENT_METADATA_TIMEOUT_MS;
  const resolve = options.lookup ?? systemLookup;
  const admit = options.admit ?? ADMIT_ALL;
  const target = new URL(url);
  if (target.protocol !== 'https:' && !(options.allowLoopback && target.protocol === 'http:'))
    return Promise.reject(new Error('only https URLs are fetched'));
  const hostname = target.hostname.replace(/^\[|\]$/g, '');
  const port = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
  if (isIP(hostname) && !allowed(hostname, options.allowLoopback))
    return Promise.reject(new Error(`the address ${hostname} is not public`));
  // An IP literal is connected to without a lookup: admitted here; a name is admitted once resolved.
  const admitted = isIP(hostname) ? admit(hostname, port) : Promise.resolve();
  return admitted.then(() => fetchAdmitted(target, port, options, admit, maxBytes, timeoutMs, resolve));
}

function fetchAdmitted(
  target: URL,
  port: number,
  options: SafeFetchOptions,
  admit: (address: string, port: number) => Promise<void>,
  maxBytes: number,
  timeoutMs: number,
  resolve: Lookup,
): Promise<FetchedDocument> {
  return new Promise<FetchedDocument>((settle, refuse) => {
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(target, {
      method: 'GET',
      headers: {
        accept: options.accept ?? 'application/json',
        'user-agent': `${options.userAgent ?? SITE_USER_AGENT_PRODUCT} ${CLIENT_METADATA_FETCHER_AGENT}`,
      },
      timeout: timeoutMs,
      // Resolve once, refuse if any address is not public, and connect to the checked one.
      lookup: (
        name: string,
        _opts: unknown,
        callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
      ) => {
        resolve(name, (error, addresses) => {
          if (error) return callback(error, '', 0);
          const bad = addresses.find((a) => !allowed(a.address, options.allowLoopback));
          if (bad || addresses.length === 0)
            return callback(new Error(`${name} resolves to ${bad?.address ?? 'nothing'}, which is not public`), '', 0);
          const all = (_opts as { all?: boolean } | undefined)?.all;
          admit(addresses[0]!.address, port).then(
            () => (all ? callback(null, addresses) : callback(null, addresses[0]!.address, addresses[0]!.family)),
            (refusal: Error) => callback(refusal, '', 0),
          );
        });
      },
    } as Parameters<typeof httpsRequest>[1]);
    const timer = setTimeout(() => req.destroy(new Error(`no complete answer within ${timeoutMs} ms`)), timeoutMs);
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', (error) => {
      clearTimeout(timer);
      refuse(error);
    });
    req.on('response', (res: IncomingMessage) => {
      if ((res.statusCode ?? 0) >= 300 && (res.statusCode ?? 0) < 400) {
        clearTimeout(timer);
        res.resume();
        req.destroy();
        return refuse(new Error(`it redirects (HTTP ${res.statusCode}); redirects are not followed`));
      }
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > maxBytes) {
        clearTimeout(timer);
        req.destroy();
        return refuse(new Error(`it is larger than ${maxBytes} bytes`));
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) {
          clearTimeout(timer);
          req.destroy();
          refuse(new Error(`it is larger than ${maxBytes} bytes`));
          return;
        }
        chunks.push(chunk);
      });
      res.on('end', () => {
        clearTimeout(timer);
        const header = (name: string): string | null => {
          const value = res.headers[name];
          return Array.isArray(value) ? value.join(', ') : (value ?? null);
        };
        settle({
          status: res.statusCode ?? 0,
          contentType: header('content-type'),
          cacheControl: header('cache-control'),
          body: Buffer.concat(chunks).toString('utf8'),
        });
      });
      res.on('error', (error) => {
        clearTimeout(timer);
        refuse(error);
      });
    });
    req.end();
  });
}

/**
 * The fetcher the authorization server uses, sending `userAgent` (the site's): loopback only when the resolver allows it
 * (a loopback site, a loopback client).
 */
export const clientMetadataFetcher =
  (userAgent: string): ClientMetadataFetcher =>
  (url, options) =>
    safeFetchDocument(url, { allowLoopback: options.allowLoopback, admit: options.admit, userAgent });
