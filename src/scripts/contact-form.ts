export {};
// Progressive enhancement of the contact form: submit with fetch and show errors inline. Without
// JavaScript the same form posts to /api/contact and gets an HTML page back.
interface InvalidParam { name: string; reason: string }

const form = document.querySelector<HTMLFormElement>('#contact-form');
const status = document.querySelector<HTMLElement>('#form-status');

function showErrors(invalid: InvalidParam[]): void {
  for (const error of form!.querySelectorAll<HTMLElement>('.field-error')) {
    error.hidden = true;
    error.textContent = '';
  }
  for (const field of form!.querySelectorAll('[aria-invalid]')) field.removeAttribute('aria-invalid');
  for (const { name, reason } of invalid) {
    const slot = form!.querySelector<HTMLElement>(`#${CSS.escape(name)}-error`);
    const input = form!.querySelector<HTMLElement>(`#${CSS.escape(name)}`);
    if (slot) {
      slot.textContent = reason;
      slot.hidden = false;
    }
    input?.setAttribute('aria-invalid', 'true');
  }
  if (invalid[0]) form!.querySelector<HTMLElement>(`#${CSS.escape(invalid[0].name)}`)?.focus();
}

function say(message: string, kind: 'error' | 'success'): void {
  status!.textContent = message;
  status!.dataset.kind = kind;
  status!.hidden = false;
}

form?.addEventListener('submit', async (event) => {
  event.preventDefault();
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]')!;
  button.disabled = true;
  try {
    const res = await fetch(form.action, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(Object.fromEntries(new FormData(form))),
    });
    const body = (await res.json().catch(() => ({}))) as { id?: string; detail?: string; invalid_params?: InvalidParam[] };
    if (res.ok) {
      showErrors([]);
      form.reset();
      say(`Thank you: your enquiry is received (reference ${body.id}). We answer within one working day.`, 'success');
    } else {
      showErrors(body.invalid_params ?? []);
      say(body.detail ?? `Sending failed (${res.status}). Please try again.`, 'error');
    }
  } catch {
    say('Sending failed: check your connection and try again.', 'error');
  } finally {
    button.disabled = false;
  }
});
