// Progressive enhancement of the contact form: the product from ?product=, validation as the reader
// leaves a field and on submit (messages beside each field that name it, in the page's language), a
// busy button, then a fetch post; on success a confirmation with the reference and what was sent
// takes the form's place (a form left live and empty reads as if nothing happened). Without JavaScript the same form posts to
// /api/contact and gets the page back with the same messages (src/core/contact/contact-form.ts).
import { fieldMessage } from '../core/contact/contact-fields.ts';
import { messages, type Lang } from '../core/content/i18n.ts';

interface InvalidParam {
  name: string;
  reason: string;
}

const form = document.querySelector<HTMLFormElement>('#contact-form');
if (form) enhance(form);

function enhance(form: HTMLFormElement): void {
  const lang: Lang = form.dataset.lang === 'zh' ? 'zh' : 'en';
  const t = messages(lang);
  const status = form.querySelector<HTMLElement>('#form-status')!;
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]')!;
  const label = button.querySelector<HTMLElement>('.button-label')!;
  const fields = [
    ...form.querySelectorAll<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>(
      'input[id]:not([type="hidden"]):not([tabindex="-1"]), textarea, select',
    ),
  ];

  // A product page links here with ?product=<slug>: choose it, if it is one of ours.
  const product = new URLSearchParams(location.search).get('product');
  const select = form.querySelector<HTMLSelectElement>('#product');
  if (product && select && [...select.options].some((o) => o.value === product)) select.value = product;

  /** The browser's own checks (required, type=email, maxlength), in our words. */
  function clientError(field: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement): string | null {
    const value = field.value.trim();
    if (field.required && value === '') return t.errRequiredField(field.id);
    if (field instanceof HTMLInputElement && field.type === 'email' && value !== '' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value))
      return t.errEmail;
    if ('maxLength' in field && field.maxLength > 0 && field.value.length > field.maxLength)
      return t.errTooLongField(field.id, field.maxLength);
    return null;
  }

  function setError(name: string, message: string | null): void {
    const slot = form.querySelector<HTMLElement>(`#${CSS.escape(name)}-error`);
    const field = form.querySelector<HTMLElement>(`#${CSS.escape(name)}`);
    if (slot) {
      slot.textContent = message ?? '';
      slot.hidden = !message;
    }
    if (message) field?.setAttribute('aria-invalid', 'true');
    else field?.removeAttribute('aria-invalid');
  }

  function say(message: string | null, kind: 'error' | 'success' = 'error'): void {
    status.textContent = message ?? '';
    status.dataset.kind = kind;
    status.hidden = !message;
  }

  function busy(on: boolean): void {
    button.setAttribute('aria-busy', String(on));
    button.setAttribute('aria-disabled', String(on));
    label.textContent = on ? (label.dataset.busyLabel ?? t.sending) : t.send;
  }

  // Check a field when the reader leaves it, and clear its message as soon as it is right again.
  for (const field of fields) {
    field.addEventListener('blur', () => {
      if (field.value !== '' || field.getAttribute('aria-invalid')) setError(field.id, clientError(field));
    });
    field.addEventListener('input', () => {
      if (field.getAttribute('aria-invalid') && !clientError(field)) setError(field.id, null);
    });
  }

  /**
   * Replaces the form with the confirmation: a heading, the reference, and what was sent (the
   * reader's own words, as text). "Send another enquiry" brings back the empty form.
   */
  function confirm(reference: string): void {
    const sent = [...new FormData(form)].filter(
      ([name, value]) => typeof value === 'string' && value.trim() !== '' && fields.some((f) => f.id === name),
    );
    const panel = document.createElement('section');
    panel.className = 'form-sent';
    panel.id = 'form-sent';
    panel.setAttribute('role', 'status');
    panel.tabIndex = -1;
    const heading = document.createElement('h3');
    heading.textContent = t.sentTitle;
    // The reference stays whole on one line: a phone broke "6A1E-1331" at its hyphen (stranger s10b).
    const text = document.createElement('p');
    const number = document.createElement('span');
    number.className = 'reference-inline';
    number.textContent = reference;
    const [before = '', after = ''] = t.sent('\u0000').split('\u0000');
    text.append(before, number, after);
    const summary = document.createElement('dl');
    for (const [name, value] of sent) {
      const field = fields.find((f) => f.id === name)!;
      const term = document.createElement('dt');
      term.textContent = form.querySelector(`label[for="${CSS.escape(name)}"]`)?.firstChild?.textContent?.trim() ?? name;
      const detail = document.createElement('dd');
      detail.textContent = field instanceof HTMLSelectElement ? (field.selectedOptions[0]?.textContent ?? String(value)) : String(value);
      summary.append(term, detail);
    }
    const what = document.createElement('p');
    what.className = 'form-sent-what';
    what.textContent = t.sentWhat;
    const again = document.createElement('button');
    again.type = 'button';
    again.className = 'button secondary';
    again.textContent = t.sendAnother;
    again.addEventListener('click', () => {
      panel.remove();
      form.reset();
      form.hidden = false;
      fields[0]?.focus();
    });
    panel.append(heading, text, what, summary, again);
    say(null);
    form.hidden = true;
    form.after(panel);
    panel.focus();
  }

  let sending = false;
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (sending) return;
    const problems = fields.map((f) => [f, clientError(f)] as const).filter(([, e]) => e !== null);
    for (const field of fields) setError(field.id, null);
    for (const [field, error] of problems) setError(field.id, error);
    if (problems.length) {
      say(t.errSummary(problems.length));
      problems[0]![0].focus();
      return;
    }
    sending = true;
    busy(true);
    say(null);
    try {
      const res = await fetch(form.action, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(Object.fromEntries(new FormData(form))),
      });
      const body = (await res.json().catch(() => ({}))) as { reference?: string; invalid_params?: InvalidParam[] };
      if (res.ok) {
        confirm(body.reference ?? '');
      } else if (res.status === 400 && body.invalid_params?.length) {
        for (const { name, reason } of body.invalid_params) setError(name, fieldMessage(t, name, reason));
        say(t.errSummary(body.invalid_params.length));
        form.querySelector<HTMLElement>(`#${CSS.escape(body.invalid_params[0]!.name)}`)?.focus();
      } else if (res.status === 429) {
        say(t.errLimited(Number(res.headers.get('retry-after')) || 60));
        status.focus();
      } else {
        say(t.errServer(res.status));
        status.focus();
      }
    } catch {
      say(t.errNetwork);
      status.focus();
    } finally {
      sending = false;
      busy(false);
    }
  });
}
