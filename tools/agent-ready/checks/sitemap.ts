/**
 * sitemap check (sitemaps.org 0.9): the sitemap robots.txt names, else the first of the scanner's
 * fallback paths that answers 200.
 * @module
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { type Fetched, get, isHttpUrl, readStreamCapped, sameOrigin, summary } from '../http.ts';
import { fetchRobots } from './robots.ts';
import { type CheckContext, fail, pass, type Verdict } from '../types.ts';

/** Tried in this order when robots.txt names no same-origin sitemap (the scanner's list). */
export const SITEMAP_FALLBACK_PATHS = ['/sitemap-index.xml', '/sitemap.xml.gz', '/sitemap_index.xml', '/sitemap.xml'] as const;

/** sitemaps.org: at most 50 MB uncompressed. */
export const MAX_SITEMAP_BYTES = 50 * 1024 * 1024;

export const SITEMAP_NAMESPACE = 'http://www.sitemaps.org/schemas/sitemap/0.9';

const XML_TYPES = ['application/xml', 'text/xml'];
const GZIP_TYPES = ['application/gzip', 'application/x-gzip', 'application/octet-stream'];

const FIX =
  'Serve an XML sitemap (<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"> with absolute <loc> URLs) as application/xml and name it in robots.txt ("Sitemap: https://…/sitemap.xml").';

/** The sitemap's XML text, or a reason. Gzip (by magic bytes) is decompressed. */
export async function xmlOf(ctx: CheckContext, res: Fetched): Promise<string | { problem: string }> {
  const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  const gzip = res.bytes[0] === 0x1f && res.bytes[1] === 0x8b;
  if (gzip) {
    if (!GZIP_TYPES.includes(type) && !XML_TYPES.includes(type))
      return { problem: `${summary(ctx, res)}: gzip body with an unexpected media type` };
    const stream = new Blob([res.bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('gzip'));
    try {
      const bytes = await readStreamCapped(stream, MAX_SITEMAP_BYTES);
      if (!bytes) return { problem: `${summary(ctx, res)}: larger than ${MAX_SITEMAP_BYTES} bytes uncompressed` };
      return new TextDecoder().decode(bytes);
    } catch {
      return { problem: `${summary(ctx, res)}: the gzip body does not decompress` }; // corrupt stream: the detail is not actionable
    }
  }
  if (!XML_TYPES.includes(type) && !type.endsWith('+xml')) return { problem: `${summary(ctx, res)}: expected application/xml` };
  return res.text;
}

/**
 * Validates sitemap XML: well-formed, `urlset` or `sitemapindex` root in the sitemaps namespace, ≥ 1 absolute `<loc>`.
 * (fast-xml-parser marks XMLValidator deprecated in favour of the separate fast-xml-validator
 * package, which is not a dependency; the feeds tests use the same validator.)
 */
export function sitemapProblem(xml: string): string | { kind: string; count: number } {
  let doc: Record<string, unknown>;
  try {
    const valid = XMLValidator.validate(xml);
    if (valid !== true) return `not well-formed XML (line ${valid.err.line}: ${valid.err.msg})`;
    doc = new XMLParser({
      ignoreAttributes: false,
      removeNSPrefix: true,
      isArray: (name) => name === 'url' || name === 'sitemap',
    }).parse(xml) as Record<string, unknown>;
  } catch (error) {
    // The parser's own limits (nesting depth, entity expansion): a document no sitemap reader would take.
    return `not a sitemap XML parsers read (${error instanceof Error ? error.message : String(error)})`;
  }
  const rootName = Object.keys(doc).find((k) => !k.startsWith('?'));
  if (rootName !== 'urlset' && rootName !== 'sitemapindex')
    return `root element is <${rootName ?? 'none'}>, expected <urlset> or <sitemapindex>`;
  if (!xml.includes(SITEMAP_NAMESPACE)) return `<${rootName}> is not in the ${SITEMAP_NAMESPACE} namespace`;
  const root = doc[rootName] as Record<string, unknown> | string;
  const items = (typeof root === 'object' ? root[rootName === 'urlset' ? 'url' : 'sitemap'] : undefined) as { loc?: unknown }[] | undefined;
  if (!items?.length) return `<${rootName}> lists no entries`;
  const bad = items.find((item) => !isHttpUrl(typeof item.loc === 'string' ? item.loc.trim() : item.loc));
  if (bad) return `an entry has no absolute <loc> (${JSON.stringify(bad.loc ?? null)})`;
  return { kind: rootName, count: items.length };
}

/**
 * sitemap: robots.txt `Sitemap:` lines on this origin first (a broken declared sitemap fails: it is
 * what crawlers use), else the scanner's fallback paths; the first 200 must be a valid sitemap.
 * Off-origin sitemap URLs are not fetched.
 */
export async function checkSitemap(ctx: CheckContext): Promise<Verdict> {
  const { robots } = await fetchRobots(ctx);
  const declared = robots.sitemaps.filter((s) => isHttpUrl(s) && sameOrigin(ctx, s));
  const candidates = declared.length ? [declared[0]!] : [...SITEMAP_FALLBACK_PATHS];
  const tried: string[] = [];
  for (const candidate of candidates) {
    const res = await get(ctx, candidate, { maxBytes: MAX_SITEMAP_BYTES });
    if (res.status !== 200 || res.error) {
      tried.push(summary(ctx, res));
      if (declared.length) return fail(`robots.txt names ${candidate}, but ${summary(ctx, res)}`, FIX);
      continue;
    }
    const xml = await xmlOf(ctx, res);
    if (typeof xml !== 'string') return fail(xml.problem, FIX);
    const verdict = sitemapProblem(xml);
    if (typeof verdict === 'string') return fail(`${summary(ctx, res)}: ${verdict}`, FIX);
    const where = new URL(res.url).pathname;
    return pass(
      `${where}: <${verdict.kind}> with ${verdict.count} entr${verdict.count === 1 ? 'y' : 'ies'}${declared.length ? ' (named in robots.txt)' : ''}`,
    );
  }
  const offOrigin =
    robots.sitemaps.length > 0 && declared.length === 0 ? ' (robots.txt names only off-origin or relative sitemap URLs)' : '';
  return fail(`no sitemap found${offOrigin}: ${tried.join('; ')}`, FIX);
}
