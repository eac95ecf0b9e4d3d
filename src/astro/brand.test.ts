import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkLogo } from './brand.ts';

const square = (extra = ''): string =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32" width="32" height="32"><rect width="32" height="32" fill="#123"/>${extra}</svg>`;

describe('the logo check before an icon or a card is drawn (recheck N5)', () => {
  afterEach(() => vi.restoreAllMocks());

  it('refuses a logo that cannot be drawn, naming public/favicon.svg and the reason', async () => {
    await expect(checkLogo('<svg xmlns="http://www.w3.org/2000/svg"><rect></svg>')).rejects.toThrow(
      /^public\/favicon\.svg, the logo the icons and the Open Graph cards are drawn from, is not an SVG that can be drawn: /,
    );
  });

  it('says once that a logo that is not square is drawn cropped, and passes a square one in silence', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const wordmark =
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 40" width="200" height="40"><rect width="200" height="40"/></svg>';
    await checkLogo(wordmark);
    await checkLogo(wordmark);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![0]).toMatch(/^public\/favicon\.svg is 200×40: .* cropped to its middle/);
    await checkLogo(square());
    expect(warn).toHaveBeenCalledTimes(1);
  });
});
