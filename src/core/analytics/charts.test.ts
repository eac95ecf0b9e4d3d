/** The server-side charts and the range parser: gridlines, bar geometry, escaping, and the ranges an operator may ask for. */
import { describe, expect, it } from 'vitest';
import { barSvg, niceTicks, stackedBarsSvg } from './charts.ts';
import { addDays, daysInRange, parseDay, parseRange } from './range.ts';

describe('niceTicks', () => {
  it.each([
    [0, [0, 1]],
    [1, [0, 1]],
    [7, [0, 2, 4, 6, 8]],
    [40, [0, 10, 20, 30, 40]],
    [311, [0, 100, 200, 300, 400]],
    [12_345, [0, 5000, 10_000, 15_000]],
  ])('%d → %j (whole numbers, the last at or above the maximum)', (max, ticks) => {
    expect(niceTicks(max)).toEqual(ticks);
  });
});

describe('stackedBarsSvg', () => {
  const svg = stackedBarsSvg({
    id: 'c',
    title: 'Requests <per day>',
    description: 'd',
    series: [
      { day: '2027-03-09', values: { a: 30, b: 10 } },
      { day: '2027-03-10', values: { a: 0, b: 20 } },
    ],
    keys: ['a', 'b'],
    label: (key) => key.toUpperCase(),
    classOf: (key) => `k-${key}`,
    formatNumber: String,
  });

  it('one group per day; parts stacked bottom up in key order, heights in proportion; zero parts drawn not at all', () => {
    expect(svg.match(/<g>/g)).toHaveLength(2);
    const rects = [...svg.matchAll(/<rect class="(k-\w)" x="[\d.]+" y="([\d.]+)" width="[\d.]+" height="([\d.]+)"\/>/g)].map((m) => ({
      key: m[1],
      y: Number(m[2]),
      height: Number(m[3]),
    }));
    expect(rects.map((r) => r.key)).toEqual(['k-a', 'k-b', 'k-b']);
    const [a, b, b2] = rects as [(typeof rects)[0], (typeof rects)[0], (typeof rects)[0]];
    expect(a.height / b.height).toBeCloseTo(3); // 30 against 10
    expect(b.y + b.height).toBeCloseTo(a.y); // b sits on a
    expect(b2.height / b.height).toBeCloseTo(2);
  });

  it('titles are escaped, the chart is a labelled image, each day has a tooltip with its parts', () => {
    expect(svg).toContain('<title id="c-title">Requests &lt;per day&gt;</title>');
    expect(svg).toContain('role="img" aria-labelledby="c-title c-desc"');
    expect(svg).toContain('<title>2027-03-09: 40\nA 30\nB 10</title>');
  });

  it('barSvg: a share of 100, a sliver for a small non-zero value, nothing for zero', () => {
    expect(barSvg(25, 100)).toContain('width="25"');
    expect(barSvg(1, 1_000_000)).toContain('width="0.5"');
    expect(barSvg(0, 10)).toContain('width="0"');
    expect(barSvg(0, 0)).toContain('width="0"');
  });
});

describe('range', () => {
  it('days are real calendar days', () => {
    expect(parseDay('2028-02-29')).toBe('2028-02-29');
    expect(parseDay('2027-02-29')).toBeNull();
    expect(parseDay('2027-3-1')).toBeNull();
    expect(addDays('2027-03-01', -1)).toBe('2027-02-28');
    expect(daysInRange('2027-01-01', '2027-12-31')).toBe(365);
  });

  it('366 days is the longest range; an empty field counts as not given', () => {
    expect(parseRange({ from: '2027-01-01', to: '2028-01-01' }, '2030-01-01')).toMatchObject({ ok: true, days: 366 });
    expect(parseRange({ from: '2027-01-01', to: '2028-01-02' }, '2030-01-01')).toMatchObject({ ok: false, problem: { kind: 'too-long' } });
    expect(parseRange({ from: '', to: '' }, '2027-03-11')).toEqual({ ok: true, from: '2027-03-05', to: '2027-03-11', days: 7 });
  });

  it('a refused value is echoed at most 40 characters long', () => {
    expect(parseRange({ from: 'x'.repeat(1000) }, '2027-03-11')).toEqual({
      ok: false,
      problem: { kind: 'not-a-day', field: 'from', value: 'x'.repeat(40) },
    });
  });
});
