/**
 * What an operation's "Try it" form holds (src/components/api-reference/TryIt.astro): its query fields, filled with the
 * documented examples, and the request they send. The operation's markdown twin says the same (markdown.ts), so the
 * page and its twin carry the same text (AFDocs markdown-content-parity).
 * @module
 */
import type { ReferenceOperation } from './reference.ts';
import { requestText } from './request-text.ts';

/** One field of the form. */
export interface TryItField {
  name: string;
  required: boolean;
  /** The documented example, else the default, else empty. */
  value: string;
  type: string;
}

/** The form's fields: the operation's query parameters. */
export function tryItFields(op: ReferenceOperation): TryItField[] {
  return op.parameters
    .filter((p) => p.in === 'query')
    .map((p) => {
      const fallback = /default (\S+)/.exec(p.node.constraints.find((c) => c.startsWith('default ')) ?? '')?.[1];
      return { name: p.name, required: p.required, value: p.example ?? fallback ?? '', type: p.node.type };
    });
}

/** The request the form sends as first filled, as the page shows it (`GET /api/search?q=…`): empty optional fields left out. */
export function tryItRequest(op: ReferenceOperation, fields: readonly TryItField[] = tryItFields(op)): string {
  const sent = new URL(op.path, 'http://site.invalid');
  for (const f of fields) if (f.value !== '' || f.required) sent.searchParams.append(f.name, f.value);
  return requestText(sent);
}
