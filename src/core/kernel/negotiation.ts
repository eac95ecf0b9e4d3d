/**
 * Proactive content negotiation over `Accept` (RFC 9110 §12.5.1) for pages that exist as HTML
 * and as a markdown twin.
 * @module
 */

/** One media range of an Accept header. */
export interface MediaRange {
  type: string;
  subtype: string;
  q: number;
  /** 3 = type/subtype, 2 = type/*, 1 = *\/*: the most specific matching range decides a type's q. */
  specificity: number;
}

/** The representations a page URL can answer with, in server preference order. */
export const PAGE_VARIANTS = ['text/html', 'text/markdown', 'text/plain'] as const;
export type PageVariant = (typeof PAGE_VARIANTS)[number];

/** Parses an Accept header; malformed members are skipped, never fatal. */
export function parseAccept(header: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const member of header.split(',')) {
    const [range, ...params] = member.split(';').map((part) => part.trim());
    if (!range) continue;
    const match = /^([a-z0-9!#$%&'*+.^_`|~-]+)\/([a-z0-9!#$%&'*+.^_`|~-]+)$/i.exec(range);
    if (!match) continue;
    const type = match[1]!.toLowerCase();
    const subtype = match[2]!.toLowerCase();
    if (type === '*' && subtype !== '*') continue;
    let q = 1;
    for (const param of params) {
      const [name, value] = param.split('=').map((s) => s.trim());
      if (name?.toLowerCase() === 'q') {
        const parsed = Number(value);
        q = /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(value ?? '') ? parsed : 1;
      }
    }
    const specificity = type === '*' ? 1 : subtype === '*' ? 2 : 3;
    ranges.push({ type, subtype, q, specificity });
  }
  return ranges;
}

/** The q-value the client gives `mediaType`, from the most specific range matching it (0 when none). */
export function qualityOf(mediaType: string, ranges: readonly MediaRange[]): { q: number; specificity: number } {
  const [type, subtype] = mediaType.split('/');
  let best: MediaRange | undefined;
  for (const range of ranges) {
    const matches =
      (range.type === type && range.subtype === subtype) || (range.type === type && range.subtype === '*') || range.type === '*';
    if (matches && (!best || range.specificity > best.specificity)) best = range;
  }
  return best ? { q: best.q, specificity: best.specificity } : { q: 0, specificity: 0 };
}

/**
 * Chooses the page representation for an Accept header, or `null` when none is acceptable (406).
 * No or empty Accept means HTML. Highest q wins; on a tie a type the client named explicitly beats
 * one reached through a wildcard, and otherwise markdown beats HTML only when both were named
 * (browsers never name markdown), so `*\/*` and `text/*` stay HTML.
 */
export function choosePageVariant(acceptHeader: string | null | undefined): PageVariant | null {
  if (!acceptHeader?.trim()) return 'text/html';
  const ranges = parseAccept(acceptHeader);
  if (ranges.length === 0) return 'text/html';
  let chosen: { variant: PageVariant; q: number; specificity: number } | null = null;
  for (const variant of PAGE_VARIANTS) {
    const { q, specificity } = qualityOf(variant, ranges);
    if (q <= 0) continue;
    if (
      !chosen ||
      q > chosen.q ||
      (q === chosen.q && specificity > chosen.specificity) ||
      (q === chosen.q && specificity === 3 && chosen.specificity === 3 && variant === 'text/markdown')
    ) {
      chosen = { variant, q, specificity };
    }
  }
  return chosen?.variant ?? null;
}
