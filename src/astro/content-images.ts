/**
 * Images beside the content (./content only: a glob pattern must be literal, so a CONTENT_DIR elsewhere keeps its
 * relative image links in the twins), for the catalogue's twins (src/astro/collection-catalog.ts). Raster images go
 * through getImage, as the rendered page's do; SVGs are served as they are.
 *
 * This module is content data for Astro's incremental build (src/astro/content-images-plugin.ts): every page imports
 * the catalogue, so as code these images were in every page's dependency hash and replacing one re-rendered the whole
 * site. A page that shows an image names its built URL in its cache key instead (src/astro/page-cache.ts: an article's
 * markdown, a card's cover), as Astro does for the images of its own content modules.
 * @module
 */

/** Raster images by root-relative path (`/content/articles/figure.png`). */
export const RASTER_IMAGES = import.meta.glob<{ default: ImageMetadata }>('/content/**/*.{png,jpg,jpeg,gif,webp,avif}', { eager: true });
/** SVG images' built URLs by root-relative path. */
export const SVG_IMAGES = import.meta.glob<string>('/content/**/*.svg', { eager: true, query: '?url', import: 'default' });
