/**
 * Redirect and rewrite rules from `dist/_redirects` and `netlify.toml`, parsed by Netlify's own
 * @netlify/redirect-parser and matched by its WASM matcher (netlify-redirector), as @netlify/redirects
 * does. Rules this runtime cannot honour (conditions, signing, proxies to other hosts) refuse to start
 * rather than behave differently from production. The site has no rules today: then nothing loads.
 */
import path from 'node:path';
import { parseAllRedirects } from '@netlify/redirect-parser';
import redirector from 'netlify-redirector';

export interface RedirectMatch {
  /** Where the rule points (absolute URL on this origin). */
  target: URL;
  status: number;
  force: boolean;
  /** A 3xx answer (otherwise a rewrite). */
  redirect: boolean;
}

export interface Redirects {
  match(request: Request): Promise<RedirectMatch | undefined>;
}

interface ParsedRule {
  from: string;
  to?: string;
  status?: number;
  force?: boolean;
  query?: Record<string, string>;
  conditions?: Record<string, unknown>;
  signed?: string;
  proxy?: boolean;
}

export async function loadRedirects(root: string, distDir: string): Promise<Redirects | null> {
  const { redirects, errors } = await parseAllRedirects({
    redirectsFiles: [path.join(distDir, '_redirects')],
    netlifyConfigPath: path.join(root, 'netlify.toml'),
    configRedirects: [],
    minimal: false,
  });
  if (errors.length) throw new AggregateError(errors, `netlify redirects: ${errors.map((e: Error) => e.message).join('; ')}`);
  const rules = redirects as ParsedRule[];
  if (rules.length === 0) return null;
  const unsupported = rules.filter((r) => r.signed || r.proxy || Object.keys(r.conditions ?? {}).length > 0);
  if (unsupported.length) {
    throw new Error(
      `The local runtime does not emulate redirect conditions, signing or proxying: ${unsupported.map((r) => r.from).join(', ')}`,
    );
  }
  // @netlify/redirects renames from → origin and query → params for the matcher.
  const json = JSON.stringify(rules.map(({ from, query, ...rule }) => ({ ...rule, origin: from, params: query })));
  const matcher = await redirector.parseJSON(json, { jwtSecret: '', jwtRoleClaim: '' });
  return {
    async match(request) {
      const url = new URL(request.url);
      let decodedPath: string;
      try {
        decodedPath = decodeURIComponent(url.pathname);
      } catch {
        return undefined; // @netlify/redirects would throw here; no rule can match such a path
      }
      const headers = Object.fromEntries(request.headers);
      const rule = matcher.match({
        scheme: url.protocol.replace(/:.*$/, ''),
        host: url.hostname,
        path: decodedPath,
        query: url.search.slice(1),
        headers,
        cookieValues: {},
        getHeader: (name: string) => headers[name.toLowerCase()] ?? '',
        getCookie: () => '',
      });
      if (!rule) return undefined;
      const status = rule.force404 ? 404 : (rule.status ?? 301);
      const target = new URL(rule.to ?? url.pathname, request.url);
      if (target.searchParams.size === 0) for (const [key, value] of url.searchParams) target.searchParams.append(key, value);
      return { target, status, force: Boolean(rule.force || rule.force404), redirect: status >= 300 && status < 400 };
    },
  };
}
