// The thank-you page is static: the enquiry's reference arrives in its URL (?ref=) and is shown here.
export {};
const reference = new URLSearchParams(location.search).get('ref');
const line = document.querySelector<HTMLElement>('[data-reference-line]');
const slot = document.querySelector<HTMLElement>('[data-reference]');
if (reference && /^[0-9A-F]{4}-[0-9A-F]{4}$/.test(reference) && line && slot) {
  slot.textContent = reference;
  line.hidden = false;
}
