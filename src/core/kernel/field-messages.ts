/**
 * Messages of a strict valibot object in a client's words: valibot's defaults ("Invalid key:
 * Expected never but received "extra"") name the library's internals, not what to fix.
 * @module
 */
import type { StrictObjectIssue } from 'valibot';

/**
 * For `v.strictObject(entries, strictObjectMessage)` (and `v.object`, which knows no unknown fields):
 * "unknown field extra", "page is required", "expected a JSON object".
 */
export function strictObjectMessage(issue: Pick<StrictObjectIssue, 'expected' | 'received' | 'path'>): string {
  if (issue.expected === 'never') return `unknown field ${issue.received}`;
  const key = issue.path?.[0]?.key;
  if (issue.received === 'undefined' && key !== undefined) return `${String(key)} is required`;
  return 'expected a JSON object';
}
