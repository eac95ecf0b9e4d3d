/**
 * The no-JavaScript answer to a contact form post: the built /contact page again, with the
 * submitted values filled in and each error next to its field.
 * @module
 */
import { escapeHtml } from '../kernel/html.ts';
import type { InvalidParam } from '../kernel/problem.ts';

/** Fields the form shows (the honeypot is never echoed). */
export const FORM_FIELDS = ['name', 'email', 'company', 'message'] as const;

/**
 * Fills the built contact page: values into the inputs, messages into the `#<field>-error` slots,
 * `aria-invalid` on the bad fields, an optional notice into `#form-status`, "Error:" in the title.
 */
export function renderContactForm(template: string, fields: Record<string, string>, invalid: readonly InvalidParam[], notice?: string): string {
  let html = template;
  for (const name of FORM_FIELDS) {
    const value = fields[name] ?? '';
    const error = invalid.find((i) => i.name === name);
    if (name === 'message') {
      html = html.replace(/(<textarea\b[^>]*\bid="message"[^>]*)>[\s\S]*?<\/textarea>/, (_m, open: string) => `${open}${error ? ' aria-invalid="true"' : ''}>${escapeHtml(value)}</textarea>`);
    } else {
      html = html.replace(new RegExp(`<input\\b([^>]*\\bid="${name}"[^>]*?)\\s*/?>`), (_m, attrs: string) =>
        `<input${attrs.replace(/\svalue="[^"]*"/, '')} value="${escapeHtml(value)}"${error ? ' aria-invalid="true"' : ''}>`);
    }
    if (error) {
      html = html.replace(new RegExp(`<p\\b([^>]*\\bid="${name}-error"[^>]*?)\\shidden(="")?([^>]*)>\\s*</p>`), (_m, before: string, _h: string, after: string) =>
        `<p${before}${after}>${escapeHtml(error.reason)}</p>`);
    }
  }
  const message = notice ?? (invalid.length ? `Please correct ${invalid.length === 1 ? 'the field' : `the ${invalid.length} fields`} marked below.` : undefined);
  if (message) {
    html = html.replace(/<div\b([^>]*\bid="form-status"[^>]*?)\shidden(="")?([^>]*)>\s*<\/div>/, (_m, before: string, _h: string, after: string) =>
      `<div${before}${after} data-kind="error">${escapeHtml(message)}</div>`);
    html = html.replace(/<title>/, '<title>Error: ');
  }
  return html;
}
