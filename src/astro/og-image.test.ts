import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { OG_LOGO_BOX, type OgCard } from '../core/publish/og-card.ts';
import { renderOgImage } from './og-image.ts';

const CARD: OgCard = {
  title: 'Column lineage from SQL',
  kicker: 'Data lineage',
  lang: 'en',
  brand: 'Borealis Data',
  host: 'borealis.test',
};
const square = (fill: string): string =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="${fill}"/></svg>`;

/** The RGB of the card's pixel at (x, y). */
async function pixel(png: Buffer, x: number, y: number): Promise<number[]> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return [data[at]!, data[at + 1]!, data[at + 2]!];
}

describe('renderOgImage', () => {
  it('draws the site’s logo (public/favicon.svg) in the corner and ends its gradient in the theme colour', async () => {
    const centre = [OG_LOGO_BOX.left + OG_LOGO_BOX.size / 2, OG_LOGO_BOX.top + OG_LOGO_BOX.size / 2] as const;
    const teal = await renderOgImage(CARD, { logoSvg: square('#0d9488'), accent: '#0d9488' });
    const red = await renderOgImage(CARD, { logoSvg: square('#dc2626'), accent: '#dc2626' });
    expect(await pixel(teal, ...centre)).toEqual([0x0d, 0x94, 0x88]);
    expect(await pixel(red, ...centre)).toEqual([0xdc, 0x26, 0x26]);
    // The bottom-right corner is where the 135° gradient comes nearest its last stop, the theme colour.
    const [tr, tg, tb] = await pixel(teal, 1199, 629);
    const [rr, , rb] = await pixel(red, 1199, 629);
    expect(tg).toBeGreaterThan(tr!);
    expect(rr).toBeGreaterThan(rb!);
    expect(tg).toBeGreaterThan(tb!);
  });
});
