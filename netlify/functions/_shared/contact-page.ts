/** The no-JavaScript contact answers: the built /contact page (or /zh/contact) with the form rendered again. */
import contactPage from '../../../generated/data/contact-page.json' with { type: 'json' };
import type { ContactPages } from '../../../src/core/contact/contact.ts';
import { contactFormHtml, pageWithForm } from '../../../src/core/contact/contact-form.ts';
import { paths } from '../../../src/core/kernel/paths.ts';

/** The site's product slugs, the only values POST /api/contact takes for `product` (besides empty). */
export const productSlugs: readonly string[] = contactPage.products.map((p) => p.slug);

export const contactPages: ContactPages = {
  thanksPath: (lang) => (lang === 'zh' ? paths.langContactThanks('zh') : paths.contactThanks),
  formWithErrors: (lang, values, invalid, status, notice) =>
    new Response(
      pageWithForm(
        contactPage[lang],
        contactFormHtml(lang, contactPage.products, { values, invalid, ...(notice ? { notice } : {}) }),
        lang,
      ),
      {
        status,
        headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
      },
    ),
};
