/**
 * Charts drawn on the server as SVG, so the `/ops/` page needs no script and its Content-Security-Policy
 * can stay `default-src 'none'`: colours come from classes the page's one stylesheet sets (light and
 * dark), sizes from attributes (an inline `style` would need `style-src-attr`). Hand-written: a
 * charting library draws in the browser (a script) or pulls a DOM into the function, for two chart
 * shapes that are a few rectangles each.
 * @module
 */
import { escapeHtml } from '../kernel/html.ts';
import type { SeriesDay } from './report.ts';

/** The drawing's coordinate space; the SVG scales to its container's width. */
const WIDTH = 720;
const HEIGHT = 240;
const MARGIN = { top: 10, right: 8, bottom: 26, left: 52 } as const;
/** At most this many day labels under the bars (a year of days would overprint). */
const MAX_X_LABELS = 10;
/** Share of a day's slot its bar fills (the rest is the gap between bars). */
const BAR_FILL = 0.72;

/** Gridline values from 0 to the first at or above `max`: steps of 1, 2 or 5 × a power of ten, whole numbers (counts). */
export function niceTicks(max: number): number[] {
  if (!(max > 0)) return [0, 1];
  const rough = max / 4;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = Math.max(1, [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough)!);
  const ticks: number[] = [];
  for (let v = 0; v < max; v += step) ticks.push(v);
  ticks.push(ticks.at(-1)! + step);
  return ticks;
}

export interface StackedBarsOptions {
  /** Prefix of the element ids the chart's title and description use (unique on the page). */
  id: string;
  title: string;
  description: string;
  series: readonly SeriesDay[];
  /** Stacked bottom to top, in this order. */
  keys: readonly string[];
  label: (key: string) => string;
  /** The CSS class that colours `key`'s part of each bar. */
  classOf: (key: string) => string;
  formatNumber: (n: number) => string;
}

/**
 * Stacked bars, one per day, with gridlines and day labels. Each bar's tooltip (its SVG `<title>`)
 * names the day and every part's number; the chart as a whole is an image labelled by its title
 * and description (the page puts the numbers in a table beside it for anyone who cannot see it).
 */
export function stackedBarsSvg(options: StackedBarsOptions): string {
  const { series, keys } = options;
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const totals = series.map((d) => keys.reduce((sum, key) => sum + (d.values[key] ?? 0), 0));
  const ticks = niceTicks(Math.max(0, ...totals));
  const top = ticks.at(-1)!;
  const y = (value: number): number => MARGIN.top + plotHeight - (value / top) * plotHeight;
  const slot = plotWidth / Math.max(1, series.length);
  const barWidth = Math.max(0.5, slot * BAR_FILL);
  const round = (n: number): string => String(Math.round(n * 100) / 100);

  const grid = ticks
    .map(
      (tick) =>
        `<line class="grid" x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${round(y(tick))}" y2="${round(y(tick))}"/>` +
        `<text class="tick" x="${MARGIN.left - 6}" y="${round(y(tick) + 4)}" text-anchor="end">${escapeHtml(options.formatNumber(tick))}</text>`,
    )
    .join('');
  const every = Math.ceil(series.length / MAX_X_LABELS);
  const bars = series
    .map((d, i) => {
      const x = MARGIN.left + i * slot + (slot - barWidth) / 2;
      let base = 0;
      const parts = keys
        .filter((key) => (d.values[key] ?? 0) > 0)
        .map((key) => {
          const value = d.values[key]!;
          const rect = `<rect class="${options.classOf(key)}" x="${round(x)}" y="${round(y(base + value))}" width="${round(barWidth)}" height="${round(y(base) - y(base + value))}"/>`;
          base += value;
          return rect;
        })
        .join('');
      const tip = [
        `${d.day}: ${options.formatNumber(totals[i]!)}`,
        ...keys.filter((k) => (d.values[k] ?? 0) > 0).map((k) => `${options.label(k)} ${options.formatNumber(d.values[k]!)}`),
      ].join('\n');
      const label =
        i % every === 0
          ? `<text class="tick" x="${round(MARGIN.left + i * slot + slot / 2)}" y="${HEIGHT - 8}" text-anchor="middle">${d.day.slice(5)}</text>`
          : '';
      return `<g><title>${escapeHtml(tip)}</title>${parts}</g>${label}`;
    })
    .join('');
  const titleId = `${options.id}-title`;
  const descId = `${options.id}-desc`;
  return (
    `<svg class="chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="${titleId} ${descId}" xmlns="http://www.w3.org/2000/svg">` +
    `<title id="${titleId}">${escapeHtml(options.title)}</title><desc id="${descId}">${escapeHtml(options.description)}</desc>` +
    `${grid}${bars}` +
    `<line class="axis" x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${round(y(0))}" y2="${round(y(0))}"/>` +
    '</svg>'
  );
}

/** A horizontal bar of `value` against `max`, to sit in a table cell beside the number (decorative: the number is the text). */
export function barSvg(value: number, max: number, className = 'bar-fill'): string {
  const width = max > 0 ? Math.max(value > 0 ? 0.5 : 0, (value / max) * 100) : 0;
  return `<svg class="bar" viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true" focusable="false"><rect class="${className}" width="${Math.round(width * 100) / 100}" height="10"/></svg>`;
}
