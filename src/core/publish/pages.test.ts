import { describe, expect, it } from 'vitest';
import { FIXTURE_CATALOG } from '../../../tests/support/core-fixtures.ts';
import { withNeighbours } from './pages.ts';

describe('withNeighbours', () => {
  it('pairs each article with the next newer and next older one, none past the ends', () => {
    const articles = FIXTURE_CATALOG.articles;
    const pages = withNeighbours(articles);
    expect(pages.map((p) => p.doc.slug)).toEqual(articles.map((a) => a.slug));
    expect(pages.map((p) => [p.newer?.slug ?? null, p.older?.slug ?? null])).toEqual([
      [null, articles[1]!.slug],
      [articles[0]!.slug, articles[2]!.slug],
      [articles[1]!.slug, null],
    ]);
  });
});
