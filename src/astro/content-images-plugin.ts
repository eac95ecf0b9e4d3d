/**
 * A Vite plugin that marks src/astro/content-images.ts as content data for Astro's incremental build, the mark Astro's
 * own content modules carry (`astroIncremental: { kind: 'content-data' }`, astro/dist/core/build/incremental-metadata.js):
 * its images then stay out of the pages' dependency hashes, and each page's cache key says which built image URLs it
 * shows. Without it, one replaced image re-rendered every page (issue 25's second stranger test, F1).
 * @module
 */
import type { Plugin } from 'vite';

const CONTENT_IMAGES_MODULE = /\/src\/astro\/content-images\.ts$/;

/** The plugin; astro.config.mjs adds it to Vite's. */
export function contentImagesAsContentData(): Plugin {
  return {
    name: 'content-images-as-content-data',
    transform(code, id) {
      if (!CONTENT_IMAGES_MODULE.test(id.split('?')[0]!)) return null;
      return { code, map: null, meta: { astroIncremental: { kind: 'content-data' } } };
    },
  };
}
