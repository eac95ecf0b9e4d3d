/**
 * Content for agents: markdown by content negotiation on the home page, and llms.txt.
 * @module
 */
import { get, looksLikeHtml, mediaType, problemWith, summary } from '../http.ts';
import { type CheckContext, fail, pass, type Verdict } from '../types.ts';

export const LLMS_TXT_PATH = '/llms.txt';

/** True when a `Vary` header value lists `Accept` (or is `*`). */
export function variesOnAccept(vary: string | null): boolean {
  return (vary ?? '').split(',').some((v) => ['accept', '*'].includes(v.trim().toLowerCase()));
}

const NEGOTIATION_FIX =
  'Answer `Accept: text/markdown` on / with the page as markdown (Content-Type: text/markdown; charset=utf-8) and send `Vary: Accept` on both the markdown and the HTML response.';

/**
 * markdownNegotiation: `GET /` with only `Accept: text/markdown` answers 200 `text/markdown` with a
 * non-HTML body. The scanner checks only the Content-Type; RFC 9110 §12.5.5 makes `Vary: Accept`
 * part of proactive negotiation (without it a shared cache hands markdown to browsers or HTML to
 * agents), so the stricter reading requires it on both variants.
 */
export async function checkMarkdownNegotiation(ctx: CheckContext): Promise<Verdict> {
  const md = await get(ctx, '/', { accept: 'text/markdown' });
  if (md.error || md.status !== 200) return fail(`with Accept: text/markdown, ${summary(ctx, md)}`, NEGOTIATION_FIX);
  if (mediaType(md) !== 'text/markdown')
    return fail(`with Accept: text/markdown, GET / answers ${mediaType(md) || 'no Content-Type'}`, NEGOTIATION_FIX);
  if (looksLikeHtml(md.text)) return fail('GET / labels an HTML document as text/markdown', NEGOTIATION_FIX);
  if (!variesOnAccept(md.headers.get('vary'))) return fail('the markdown response of / has no `Vary: Accept`', NEGOTIATION_FIX);
  const html = await get(ctx, '/');
  if (!html.error && html.status === 200 && !variesOnAccept(html.headers.get('vary')))
    return fail('the HTML response of / has no `Vary: Accept` (caches may serve it to agents)', NEGOTIATION_FIX);
  const tokens = md.headers.get('x-markdown-tokens');
  return pass(
    `GET / with Accept: text/markdown → ${md.headers.get('content-type')}, Vary: Accept${tokens ? `, x-markdown-tokens: ${tokens}` : ''}`,
  );
}

const LLMS_FIX =
  'Serve /llms.txt (text/plain or text/markdown) starting with "# Site name", then a "> summary" and "## Section" lists of links (llmstxt.org).';

/**
 * llmsTxt (reported, not scored: the scanner treats llms.txt as guidance): 200, text/plain or
 * text/markdown, not HTML, and the first non-empty line is an H1 (the only element llmstxt.org
 * requires).
 */
export async function checkLlmsTxt(ctx: CheckContext): Promise<Verdict> {
  const res = await get(ctx, LLMS_TXT_PATH);
  const problem = problemWith(ctx, res, 'text');
  if (problem) return fail(problem, LLMS_FIX);
  const type = mediaType(res);
  if (type !== 'text/plain' && type !== 'text/markdown')
    return fail(`${summary(ctx, res)}: expected text/plain or text/markdown`, LLMS_FIX);
  if (looksLikeHtml(res.text)) return fail('/llms.txt is an HTML document', LLMS_FIX);
  const first = res.text.split(/\r?\n/).find((line) => line.trim() !== '');
  if (!first || !/^#[ \t]+\S/.test(first))
    return fail(`/llms.txt does not start with an H1 ("# Name"); first line: ${JSON.stringify((first ?? '').slice(0, 60))}`, LLMS_FIX);
  const links = [...res.text.matchAll(/\[[^\]]*\]\([^)\s]+\)/g)].length;
  return pass(`/llms.txt: "${first.replace(/^#+\s*/, '').slice(0, 60)}", ${links} link(s)`);
}
