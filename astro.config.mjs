// @ts-check
import { defineConfig } from 'astro/config';
import { fileURLToPath } from 'node:url';
import mdx from '@astrojs/mdx';
import { satteri } from '@astrojs/markdown-satteri';
import { CODE_THEMES, codeFrame, headingAnchors, scrollableTables } from './src/astro/markdown-plugins.ts';
import { parseBuildConfig } from './src/core/config.ts';
import { siteData } from './src/astro/integrations/site-data.ts';
import { buildCache } from './src/astro/integrations/build-cache.ts';
import { devCsp } from './src/astro/integrations/dev-csp.ts';
import { withoutAstroDirectiveWarning } from './src/astro/astro-mdx-directive-warning.ts';
import { devWatchIgnored } from './src/astro/dev-watch.ts';
import { contentImagesAsContentData } from './src/astro/content-images-plugin.ts';
import { seedDeployStore } from './scripts/runtime/deploy-blobs.ts';
import { loadDotEnv } from './scripts/dot-env.ts';
import { stopDevServerWithNpm } from './scripts/runtime/npm-parent.ts';

// `.env` as `npm start` reads it (the environment wins): a PORT or SITE_URL set there gives `npm run build` and
// `npm run dev` the origin the server serves (stranger s10b, finding 1).
const dotEnv = loadDotEnv(fileURLToPath(new URL('.env', import.meta.url)));
if (dotEnv)
  console.log(
    `Read .env: ${dotEnv.loaded.join(', ') || 'no variable'} set${dotEnv.kept.length ? `; ${dotEnv.kept.join(', ')} kept from the environment` : ''}.`,
  );
/** The build's variables, through the one environment schema (src/core/config.ts; README, "Configuration"). */
const build = parseBuildConfig(process.env);
/** Every absolute URL in the build derives from this one origin. */
const origin = build.origin;
/**
 * `npm run dev` only: edge functions, redirects, headers and Blobs inside the dev server, and
 * devCsp, which relaxes there the production CSP the Netlify plugin sets. The functions (API, MCP,
 * A2A, OAuth, contact) only with `npm run dev:functions` (`astro dev --functions`): @netlify/dev
 * bundles every function as the server starts, which more than doubles the CPU-seconds to the
 * first page (docs/authoring.md, "The dev loop"). The plugin is a devDependency: a production
 * install (Netlify's build, NPM_FLAGS=--omit=dev) never loads it.
 */
const dev = process.argv[2] === 'dev';
const devFunctions = dev && process.argv.includes('--functions');
// A SIGTERM to npm's pid stops `npm run dev` as it stops `npm start` (npm's `sh -c` does not pass it on).
if (dev) stopDevServerWithNpm();
const devPlugins = dev
  ? [
      devCsp(),
      (await import('@netlify/vite-plugin')).default({
        database: { enabled: false },
        aiGateway: { enabled: false },
        images: { enabled: false },
        functions: { enabled: devFunctions },
      }),
    ]
  : [];

export default defineConfig({
  site: origin,
  // Benchmarks and tests build other corpora side by side without touching the main build.
  outDir: build.outDir,
  cacheDir: build.cacheDir,
  trailingSlash: 'ignore',
  // `npm run dev` listens where the origin says (PORT, default 8888), so absolute links work there too. Only there:
  // Astro's content layer hashes the whole config, and a build's port changing with PORT (`PORT=8935 npm start` after
  // `npm run build`) emptied its content store (issue 25's second stranger test, F2).
  ...(dev ? { server: { port: build.port } } : {}),
  build: { format: 'directory', inlineStylesheets: 'never' },
  markdown: {
    // Code frames, heading anchors and scrollable tables are built into the HTML (src/astro/markdown-plugins.ts).
    processor: satteri({ hastPlugins: [headingAnchors(), scrollableTables()] }),
    shikiConfig: { themes: CODE_THEMES, transformers: [codeFrame] },
  },
  // Pages whose cacheKey (src/astro/page-cache.ts) and code are unchanged are copied from cacheDir
  // instead of rendered again; build-cache empties the cache when code Astro cannot see changes.
  experimental: { incrementalBuild: true },
  integrations: [
    buildCache({
      root: fileURLToPath(new URL('.', import.meta.url)),
      cacheDir: fileURLToPath(new URL(build.cacheDir, `${new URL('.', import.meta.url)}`)),
      settings: { origin, contentDir: build.contentDir, ogImages: build.ogImages, showDrafts: build.showDrafts },
    }),
    mdx(),
    siteData({
      origin,
      generatedDir: build.generatedDir,
      deployBlobsDir: build.deployBlobsDir,
      contentDir: build.contentDir,
      commitRef: build.commitRef,
      ogImages: build.ogImages,
      devFunctions,
      seedLocalBlobs: seedDeployStore,
    }),
  ],
  vite: {
    // No inlined scripts or styles: the Content-Security-Policy allows only same-origin files.
    // Without the bundler's warning about Astro's own MDX directive (src/astro/astro-mdx-directive-warning.ts).
    build: { assetsInlineLimit: 0, rolldownOptions: { onLog: withoutAstroDirectiveWarning } },
    // MDX content imports components by alias, so a content folder works wherever it lives.
    resolve: { alias: { '@components': fileURLToPath(new URL('./src/components', import.meta.url)) } },
    // Images beside the content are content data to the incremental build, not every page's code (src/astro/content-images-plugin.ts).
    plugins: [contentImagesAsContentData(), ...devPlugins],
    // The dev server watches what an author edits, not the build's and the benchmarks' output (src/astro/dev-watch.ts).
    server: { watch: { ignored: devWatchIgnored(fileURLToPath(new URL('.', import.meta.url)), build.contentDir) } },
  },
});
