/**
 * Opaque paging cursors: a position in a list the server builds the same way on every instance
 * (the catalogue is fixed for a deploy), so a cursor needs no state. Shared by `resources/list`
 * and the `export_article_index` tool.
 * @module
 */

const CURSOR_PREFIX = 'idx1:';

/** Encodes a position as an opaque cursor (base64url; clients must not parse it). */
export function encodeCursor(offset: number): string {
  return btoa(`${CURSOR_PREFIX}${offset}`).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Decodes a cursor into a position, or null when it is not one we issued. */
export function decodeCursor(cursor: string): number | null {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(cursor)) return null;
  let text: string;
  try {
    text = atob(cursor.replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    return null; // not base64: not ours
  }
  const match = /^idx1:([1-9]\d{0,8})$/.exec(text);
  return match ? Number(match[1]) : null;
}
