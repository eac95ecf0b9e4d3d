/**
 * The A2A version a request asks for (A2A §3.6), read without the SDK so that the discovery
 * function (which serves the agent card by version) need not bundle it.
 * @module
 */

/** The service-parameter names of A2A §3.2.6, sent as HTTP headers (§9.2). */
export const A2A_VERSION_HEADER = 'A2A-Version';
export const A2A_EXTENSIONS_HEADER = 'A2A-Extensions';
/** A2A §3.6.2: "Agents MUST interpret empty value as 0.3 version." */
export const ABSENT_VERSION = '0.3';

/**
 * The `Major.Minor` the request asks for: the `A2A-Version` header, else the query parameter of
 * that name, else {@link ABSENT_VERSION}. A malformed value is returned as sent, to be refused.
 */
export function requestedVersion(req: Request): string {
  const raw = (req.headers.get(A2A_VERSION_HEADER) ?? new URL(req.url).searchParams.get(A2A_VERSION_HEADER) ?? '').trim();
  if (raw === '') return ABSENT_VERSION;
  const numbered = /^(\d+)\.(\d+)(?:\.\d+)?$/.exec(raw);
  return numbered ? `${Number(numbered[1])}.${Number(numbered[2])}` : raw;
}
