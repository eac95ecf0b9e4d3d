// GET /og/<page>.png: a page's Open Graph card, drawn on its first request and kept by the CDN until the next deploy
// (src/core/publish/og-card.ts; the build draws only the site-wide /og/index.png, a static file, which wins: preferStatic).
import type { Config } from '@netlify/functions';
import { readFileSync } from 'node:fs';
import { httpHandler } from '../../src/core/kernel/handler.ts';
import {
  OG_BRAND_FILE,
  OG_CARDS_FILE,
  OG_IMAGE_EDGE,
  type OgBrand,
  ogImageHandler,
  type OgCardText,
  parseOgBrand,
  parseOgCards,
} from '../../src/core/publish/og-card.ts';
import { renderOgImage } from '../../src/astro/og-image.ts';
import { build, site } from './_shared/deps.ts';
import { counting } from './_shared/usage.ts';

// Every page's card text, and the logo and theme colour (public/favicon.svg, site.css --accent), shipped beside the
// function (netlify.toml included_files), read on the first request.
const cardsDir = new URL('../../generated/data/og/', import.meta.url);
let cards: Map<string, OgCardText> | undefined;
let brand: OgBrand | undefined;

const handle = ogImageHandler({
  cards: () => (cards ??= parseOgCards(readFileSync(new URL(OG_CARDS_FILE, cardsDir), 'utf8'))),
  site: { origin: build.origin, company: site.company },
  draw: (card) => {
    brand ??= parseOgBrand(readFileSync(new URL(OG_BRAND_FILE, cardsDir), 'utf8'));
    return renderOgImage(card, brand);
  },
  buildId: build.commit,
});

export default httpHandler(handle, { ...OG_IMAGE_EDGE, usage: counting('og') });

export const config: Config = { path: '/og/*', preferStatic: true };
