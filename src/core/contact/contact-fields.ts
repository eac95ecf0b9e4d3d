/**
 * The contact form's field rules and the human wording of its errors: shared by the API's
 * validation (src/core/contact/contact.ts), the form's markup and the browser script, which must not
 * bundle the API, so this module imports nothing but the dictionary.
 * @module
 */
import type { Messages } from '../content/i18n.ts';

/** Longest accepted value of each field, in characters; the form's maxlength attributes use the same numbers. */
export const CONTACT_FIELD_LIMITS = { name: 100, email: 254, company: 200, product: 80, message: 5000 } as const;

/** Name of the hidden field bots fill in and people never see. */
export const HONEYPOT_FIELD = 'website';

/** What went wrong with a field, from the API's reason (src/core/contact/contact.ts words them so). */
export function issueKind(reason: string): 'required' | 'email' | 'tooLong' | 'product' | 'invalid' {
  if (/\bis required\b/.test(reason)) return 'required';
  if (/^product must be (one of|empty)\b/.test(reason)) return 'product';
  if (/\bvalid address\b/.test(reason)) return 'email';
  if (/\bat most \d+ characters\b/.test(reason)) return 'tooLong';
  return 'invalid';
}

/** The human message for one field error, in the dictionary's language, naming the field where that helps. */
export function fieldMessage(t: Messages, name: string, reason: string): string {
  switch (issueKind(reason)) {
    case 'required':
      return t.errRequiredField(name);
    case 'email':
      return t.errEmail;
    case 'tooLong':
      return t.errTooLongField(
        name,
        CONTACT_FIELD_LIMITS[name as keyof typeof CONTACT_FIELD_LIMITS] ?? Number(/at most (\d+)/.exec(reason)?.[1] ?? 0),
      );
    case 'product':
      return t.errProduct;
    default:
      return t.errInvalid;
  }
}
