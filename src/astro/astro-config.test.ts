import { describe, expect, it, vi } from 'vitest';

describe('astro.config.mjs for a build', () => {
  it('does not depend on PORT, which Astro would hash into its content store key (the origin comes from SITE_URL)', async () => {
    const load = async (port: string): Promise<unknown> => {
      const saved = { PORT: process.env.PORT, SITE_URL: process.env.SITE_URL };
      process.env.PORT = port;
      process.env.SITE_URL = 'http://localhost:8935';
      try {
        // A fresh module instance each time: the config reads the environment when it is evaluated.
        vi.resetModules();
        const { default: config } = await import('../../astro.config.mjs');
        return config;
      } finally {
        for (const [name, value] of Object.entries(saved)) {
          if (value === undefined) delete process.env[name];
          else process.env[name] = value;
        }
      }
    };
    const a = (await load('8935')) as { server?: unknown; site?: string };
    const b = (await load('8936')) as { server?: unknown; site?: string };
    expect(a?.site).toBe('http://localhost:8935');
    expect(a?.server).toEqual(b?.server);
    expect(JSON.stringify(a?.server ?? {})).not.toContain('8935');
  });
});
