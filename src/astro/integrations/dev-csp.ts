/**
 * `npm run dev` only: relax the Content-Security-Policy that @netlify/vite-plugin copies from
 * netlify.toml onto every dev response. Vite injects inline `<style>` and `<script>` tags (CSS
 * hot reload, the Astro dev toolbar) and talks to its HMR server over a WebSocket; production's
 * `script-src 'self'` and `style-src 'self'` block all of that, and pages rendered unstyled.
 * Production headers are untouched: this plugin applies to the dev server alone (`apply: 'serve'`).
 */
import type { Plugin } from 'vite';

/** The production policy with what Vite's dev server needs added. */
export function devPolicy(policy: string): string {
  const directives = new Map(
    policy
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => {
        const [name, ...values] = d.split(/\s+/);
        return [name!, values] as const;
      }),
  );
  const add = (name: string, ...values: string[]): void => {
    const current = directives.get(name) ?? directives.get('default-src') ?? [];
    directives.set(name, [...new Set([...current, ...values])]);
  };
  add('script-src', "'unsafe-inline'");
  add('style-src', "'unsafe-inline'");
  add('connect-src', 'ws:', 'wss:');
  return [...directives].map(([name, values]) => [name, ...values].join(' ')).join('; ');
}

export function devCsp(): Plugin {
  return {
    name: 'site:dev-csp',
    apply: 'serve',
    configureServer(server) {
      // Registered before @netlify/vite-plugin's middleware, so its setHeader calls pass through here.
      server.middlewares.use((_req, res, next) => {
        const setHeader = res.setHeader.bind(res);
        res.setHeader = (name: string, value: number | string | readonly string[]) =>
          setHeader(name, name.toLowerCase() === 'content-security-policy' && typeof value === 'string' ? devPolicy(value) : value);
        next();
      });
    },
  };
}
