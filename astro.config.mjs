// @ts-check
import { defineConfig } from 'astro/config';
import { fileURLToPath } from 'node:url';
import mdx from '@astrojs/mdx';
import { satteri } from '@astrojs/markdown-satteri';
import { codeFrame, headingAnchors, scrollableTables } from './src/lib/markdown-plugins.ts';
import netlify from '@netlify/vite-plugin';
import { DEFAULT_LOCAL_PORT, resolveOrigin } from './src/core/kernel/origin.ts';
import { siteData } from './src/integrations/site-data.ts';
import { devCsp } from './src/integrations/dev-csp.ts';

/** Every absolute URL in the build derives from this one origin (see README, "Configuration"). */
const origin = resolveOrigin(process.env);

export default defineConfig({
  site: origin,
  // Benchmarks and tests build other corpora side by side without touching the main build.
  outDir: process.env.ASTRO_OUT_DIR ?? './dist',
  cacheDir: process.env.ASTRO_CACHE_DIR ?? './node_modules/.astro',
  trailingSlash: 'ignore',
  // `npm run dev` listens where the origin says (PORT, default DEFAULT_LOCAL_PORT), so absolute links work there too.
  server: { port: Number(process.env.PORT || DEFAULT_LOCAL_PORT) },
  build: { format: 'directory', inlineStylesheets: 'never' },
  markdown: {
    // Code frames, heading anchors and scrollable tables are built into the HTML (src/lib/markdown-plugins.ts).
    processor: satteri({ hastPlugins: [headingAnchors(), scrollableTables()] }),
    shikiConfig: { themes: { light: 'github-light', dark: 'github-dark' }, transformers: [codeFrame] },
  },
  integrations: [mdx(), siteData({ origin, generatedDir: process.env.GENERATED_DIR ?? './generated' })],
  vite: {
    // No inlined scripts or styles: the Content-Security-Policy allows only same-origin files.
    build: { assetsInlineLimit: 0 },
    // MDX content imports components by alias, so a content folder works wherever it lives.
    resolve: { alias: { '@components': fileURLToPath(new URL('./src/components', import.meta.url)) } },
    // Only `npm run dev` uses this: functions, edge functions and Blobs inside the dev server.
    // devCsp first: it relaxes, in `npm run dev` only, the production CSP the Netlify plugin sets.
    plugins: [devCsp(), netlify({ database: { enabled: false }, aiGateway: { enabled: false }, images: { enabled: false } })],
  },
});
