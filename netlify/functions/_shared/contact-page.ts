/** The no-JavaScript contact answers, rendered from the built /contact page. */
import contactPage from '../../../generated/data/contact-page.json' with { type: 'json' };
import type { ContactPages } from '../../../src/core/contact/contact.ts';
import { renderContactForm } from '../../../src/core/contact/contact-page.ts';
import { paths } from '../../../src/core/kernel/paths.ts';

export const contactPages: ContactPages = {
  thanksPath: paths.contactThanks,
  formWithErrors: (fields, invalid, status, notice) =>
    new Response(renderContactForm(contactPage.html, fields, invalid, notice), { status, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' } }),
};
