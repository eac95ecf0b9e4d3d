/**
 * apiCatalog check: RFC 9727 `/.well-known/api-catalog`, a linkset (RFC 9264 §4.2).
 * @module
 */
import { get, mediaType, parseJsonObject, problemWith, summary } from '../http.ts';
import { type CheckContext, fail, pass, type Verdict } from '../types.ts';

export const API_CATALOG_PATH = '/.well-known/api-catalog';
export const LINKSET_MEDIA_TYPE = 'application/linkset+json';

const FIX =
  'Serve /.well-known/api-catalog as application/linkset+json: {"linkset":[{"anchor":"https://…/","service-desc":[{"href":"https://…/openapi.json"}]}]} (RFC 9727, RFC 9264).';

/**
 * Validates a linkset document; returns the number of link context objects or a reason.
 * RFC 9264 §4.2.2 lets `anchor` be absent (the context is then the linkset's own URL), but an API
 * catalog describes other resources, so every context object must name its `anchor` (stricter
 * reading, as the project's own local check). Each object needs ≥ 1 relation whose value is a
 * non-empty array of target objects with an `href` (§4.2.3).
 */
export function linksetProblem(doc: Record<string, unknown>): string | number {
  const linkset = doc.linkset;
  if (!Array.isArray(linkset)) return 'no "linkset" array';
  if (linkset.length === 0) return '"linkset" is empty';
  for (const [i, context] of linkset.entries()) {
    if (!context || typeof context !== 'object' || Array.isArray(context)) return `linkset[${i}] is not an object`;
    const entry = context as Record<string, unknown>;
    if (typeof entry.anchor !== 'string' || !entry.anchor) return `linkset[${i}] has no "anchor"`;
    const relations = Object.entries(entry).filter(([key]) => key !== 'anchor');
    if (relations.length === 0) return `linkset[${i}] (${entry.anchor}) has no link relations`;
    for (const [rel, targets] of relations) {
      if (!Array.isArray(targets) || targets.length === 0) return `linkset[${i}]["${rel}"] is not a non-empty array of targets`;
      if (!targets.every((t) => t && typeof t === 'object' && typeof (t as { href?: unknown }).href === 'string'))
        return `linkset[${i}]["${rel}"] has a target without "href"`;
    }
  }
  return linkset.length;
}

/** apiCatalog: 200, `application/linkset+json`, a valid non-empty linkset. */
export async function checkApiCatalog(ctx: CheckContext): Promise<Verdict> {
  const res = await get(ctx, API_CATALOG_PATH, { accept: `${LINKSET_MEDIA_TYPE}, application/json` });
  const problem = problemWith(ctx, res, 'json');
  if (problem) return fail(problem, FIX);
  if (mediaType(res) !== LINKSET_MEDIA_TYPE) return fail(`${summary(ctx, res)}: expected ${LINKSET_MEDIA_TYPE}`, FIX);
  const doc = parseJsonObject(res);
  if (typeof doc === 'string') return fail(`${API_CATALOG_PATH}: ${doc}`, FIX);
  const verdict = linksetProblem(doc);
  if (typeof verdict === 'string') return fail(`${API_CATALOG_PATH}: ${verdict}`, FIX);
  const profile = /profile="?https:\/\/www\.rfc-editor\.org\/info\/rfc9727/.test(res.headers.get('content-type') ?? '');
  return pass(`${API_CATALOG_PATH}: linkset with ${verdict} API(s)${profile ? ', RFC 9727 profile' : ''}`);
}
