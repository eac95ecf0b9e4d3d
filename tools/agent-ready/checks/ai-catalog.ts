/**
 * ard check: the AI Catalog (`/.well-known/ai-catalog.json`, the path the scanner reads), profiled
 * by Agentic Resource Discovery.
 * @module
 */
import { getJsonDocument } from '../http.ts';
import { type CheckContext, fail, pass, type Verdict } from '../types.ts';

export const AI_CATALOG_PATH = '/.well-known/ai-catalog.json';

/** `urn:air:<publisher-fqdn>:<namespace>:<name>` (the scanner guide's pattern; no whitespace). */
const AIR_URN = /^urn:air:[^:\s]+:[^:\s]+:\S+$/;

const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

/** Validates the catalogue (scanner guide + ARD): returns the entry count or a reason. */
export function aiCatalogProblem(doc: Record<string, unknown>): string | number {
  if (!nonEmpty(doc.specVersion)) return 'no "specVersion"';
  const host = doc.host as Record<string, unknown> | undefined;
  if (!host || typeof host !== 'object' || !nonEmpty(host.displayName) || !nonEmpty(host.identifier))
    return '"host" needs displayName and identifier';
  const entries = doc.entries;
  if (!Array.isArray(entries) || entries.length === 0) return 'no "entries"';
  const ids = new Set<string>();
  for (const [i, raw] of entries.entries()) {
    const entry = (raw ?? {}) as Record<string, unknown>;
    const label = nonEmpty(entry.identifier) ? entry.identifier : `entries[${i}]`;
    if (!nonEmpty(entry.identifier) || !AIR_URN.test(entry.identifier))
      return `${label}: "identifier" is not urn:air:<fqdn>:<namespace>:<name>`;
    if (ids.has(entry.identifier)) return `${label}: duplicate identifier`;
    ids.add(entry.identifier);
    if (!nonEmpty(entry.displayName)) return `${label}: no "displayName"`;
    if (!nonEmpty(entry.type)) return `${label}: no "type" (media type)`;
    if ((entry.url === undefined) === (entry.data === undefined)) return `${label}: needs exactly one of "url" and "data"`;
    if (entry.url !== undefined && !nonEmpty(entry.url)) return `${label}: "url" is empty`;
    const queries = entry.representativeQueries;
    if (!Array.isArray(queries) || queries.length < 2 || queries.length > 5 || !queries.every(nonEmpty))
      return `${label}: needs 2-5 "representativeQueries"`;
  }
  return entries.length;
}

const FIX =
  'Serve /.well-known/ai-catalog.json (application/json, Access-Control-Allow-Origin: *) with specVersion, host {displayName, identifier} and entries of {identifier: "urn:air:<fqdn>:<ns>:<name>", displayName, type, url|data, representativeQueries (2-5)}.';

/** ard: 200 JSON, `Access-Control-Allow-Origin: *`, a valid catalogue. */
export async function checkAiCatalog(ctx: CheckContext): Promise<Verdict> {
  const found = await getJsonDocument(ctx, AI_CATALOG_PATH);
  if (!('doc' in found)) return fail(found.problem, FIX);
  if (found.res.headers.get('access-control-allow-origin')?.trim() !== '*')
    return fail(`${AI_CATALOG_PATH} lacks Access-Control-Allow-Origin: *`, FIX);
  const verdict = aiCatalogProblem(found.doc);
  if (typeof verdict === 'string') return fail(`${AI_CATALOG_PATH}: ${verdict}`, FIX);
  return pass(
    `${AI_CATALOG_PATH}: ${verdict} entr${verdict === 1 ? 'y' : 'ies'} for ${String((found.doc.host as { displayName: string }).displayName)}`,
  );
}
