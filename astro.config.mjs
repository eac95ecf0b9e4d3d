// @ts-check
import { defineConfig } from 'astro/config';
import mdx from '@astrojs/mdx';
import netlify from '@netlify/vite-plugin';
import { resolveOrigin } from './src/core/site/origin.ts';
import { siteData } from './src/integrations/site-data.ts';

/** Every absolute URL in the build derives from this one origin (see README, "Configuration"). */
const origin = resolveOrigin(process.env);

export default defineConfig({
  site: origin,
  trailingSlash: 'ignore',
  build: { format: 'directory', inlineStylesheets: 'never' },
  markdown: { shikiConfig: { themes: { light: 'github-light', dark: 'github-dark' } } },
  integrations: [mdx(), siteData({ origin })],
  vite: {
    // No inlined scripts or styles: the Content-Security-Policy allows only same-origin files.
    build: { assetsInlineLimit: 0 },
    // Only `npm run dev` uses this: functions, edge functions and Blobs inside the dev server.
    plugins: [netlify({ database: { enabled: false }, aiGateway: { enabled: false }, images: { enabled: false } })],
  },
});
