/**
 * The contact form's markup, in one place for both its renderings: the /contact pages at build
 * time, and the no-JavaScript answer of POST /api/contact (the form again, with the values kept and
 * each error beside its field), which swaps this form into the built page between its markers.
 * Runtime-neutral: the Astro page and the function both call it.
 * @module
 */
import { CONTACT_FIELD_LIMITS, fieldMessage, HONEYPOT_FIELD } from './contact-fields.ts';
import { escapeHtml } from '../kernel/html.ts';
import type { InvalidParam } from '../kernel/problem.ts';
import { messages, type Lang } from '../content/i18n.ts';

/** Markers around the form in the built page: the no-JavaScript answer replaces what lies between. */
export const FORM_START = '<!--contact-form:start-->';
export const FORM_END = '<!--contact-form:end-->';

export interface ContactFormProduct {
  slug: string;
  name: string;
}

export interface ContactFormState {
  /** Submitted values, shown again. */
  values?: Record<string, string>;
  /** Field errors as the API reports them. */
  invalid?: readonly InvalidParam[];
  /** A message for the status box above the form (rate limit, server error). */
  notice?: string;
}

type FieldName = 'name' | 'email' | 'company' | 'product' | 'message';

/** The form's HTML (between its markers), empty or filled from a previous post. */
export function contactFormHtml(lang: Lang, products: readonly ContactFormProduct[], state: ContactFormState = {}): string {
  const t = messages(lang);
  const values = state.values ?? {};
  const invalid = state.invalid ?? [];
  const errorOf = (name: string): string | undefined => {
    const issue = invalid.find((i) => i.name === name);
    return issue ? fieldMessage(t, name, issue.reason) : undefined;
  };
  const status = state.notice ?? (invalid.length ? t.errSummary(invalid.length) : undefined);

  const field = (name: FieldName, label: string, control: (attrs: string) => string, required: boolean): string => {
    const error = errorOf(name);
    const describedBy = `${name}-error`;
    const attrs = [
      `id="${name}"`,
      `name="${name}"`,
      required ? 'required aria-required="true"' : '',
      `aria-describedby="${describedBy}"`,
      error ? 'aria-invalid="true"' : '',
    ]
      .filter(Boolean)
      .join(' ');
    return [
      `<div class="field">`,
      `<label for="${name}">${escapeHtml(label)}${required ? '' : ` <span class="hint">${escapeHtml(t.optional)}</span>`}</label>`,
      control(attrs),
      `<p class="field-error" id="${name}-error"${error ? '' : ' hidden'}>${error ? escapeHtml(error) : ''}</p>`,
      `</div>`,
    ].join('');
  };
  const input =
    (name: 'name' | 'email' | 'company', type: string, autocomplete: string) =>
    (attrs: string): string =>
      `<input ${attrs} type="${type}" autocomplete="${autocomplete}" maxlength="${CONTACT_FIELD_LIMITS[name]}" value="${escapeHtml(values[name] ?? '')}">`;
  const chosen = values.product ?? '';
  const select = (attrs: string): string =>
    `<select ${attrs}><option value="">${escapeHtml(t.productNone)}</option>${products
      .map((p) => `<option value="${escapeHtml(p.slug)}"${p.slug === chosen ? ' selected' : ''}>${escapeHtml(p.name)}</option>`)
      .join('')}</select>`;
  const textarea = (attrs: string): string =>
    `<textarea ${attrs} rows="6" maxlength="${CONTACT_FIELD_LIMITS.message}">${escapeHtml(values.message ?? '')}</textarea>`;

  return [
    FORM_START,
    `<form class="stack" method="post" action="/api/contact" id="contact-form" novalidate data-lang="${lang}">`,
    `<div class="form-status" id="form-status" role="alert" tabindex="-1"${status ? ' data-kind="error"' : ' hidden'}>${status ? escapeHtml(status) : ''}</div>`,
    `<input type="hidden" name="lang" value="${lang}">`,
    field('name', t.fieldName, input('name', 'text', 'name'), true),
    field('email', t.fieldEmail, input('email', 'email', 'email'), true),
    field('company', t.fieldCompany, input('company', 'text', 'organization'), false),
    field('product', t.fieldProduct, select, false),
    field('message', t.fieldMessage, textarea, false),
    `<div class="visually-hidden" aria-hidden="true"><label for="${HONEYPOT_FIELD}">${escapeHtml(t.honeypot)}</label><input id="${HONEYPOT_FIELD}" name="${HONEYPOT_FIELD}" type="text" tabindex="-1" autocomplete="off"></div>`,
    `<div><button class="button" type="submit"><span class="spinner" aria-hidden="true"></span><span class="button-label" data-busy-label="${escapeHtml(t.sending)}">${escapeHtml(t.send)}</span></button></div>`,
    `<p class="form-note" id="limit-note">${escapeHtml(t.limitNote)}</p>`,
    `</form>`,
    FORM_END,
  ].join('\n');
}

/**
 * The built contact page with the form replaced by `form` and "Error:" before the title: the
 * no-JavaScript answer. Returns the template unchanged when it has no markers (a build without them).
 */
export function pageWithForm(template: string, form: string, lang: Lang): string {
  const start = template.indexOf(FORM_START);
  const end = template.indexOf(FORM_END);
  if (start < 0 || end < start) return template;
  return (template.slice(0, start) + form + template.slice(end + FORM_END.length)).replace(
    '<title>',
    `<title>${escapeHtml(messages(lang).errorTitlePrefix)}`,
  );
}
