import { describe, expect, it } from 'vitest';
import { contactFormHtml, FORM_END, FORM_START, pageWithForm } from './contact-form.ts';

const products = [{ slug: 'llm-gateway', name: 'Acme LLM Gateway' }];

describe('contactFormHtml', () => {
  it('renders an empty form with its limits, the product list and hidden error slots', () => {
    const html = contactFormHtml('en', products);
    expect(html.startsWith(FORM_START) && html.endsWith(FORM_END)).toBe(true);
    expect(html).toContain(
      '<input id="name" name="name" required aria-required="true" aria-describedby="name-error" type="text" autocomplete="name" maxlength="100" value="">',
    );
    expect(html).toContain('<option value="llm-gateway">Acme LLM Gateway</option>');
    expect(html).toContain('<p class="field-error" id="email-error" hidden></p>');
    expect(html).toContain('<div class="form-status" id="form-status" role="alert" tabindex="-1" hidden></div>');
    expect(html).not.toContain('aria-invalid');
  });

  it('fills values back, escaped, and puts each error beside its field in the page language', () => {
    const html = contactFormHtml('zh', products, {
      values: { name: '<b>Li</b>', email: 'li@', product: 'llm-gateway', message: 'a </textarea> b' },
      invalid: [
        { name: 'email', reason: 'email must be a valid address, like name@example.com' },
        { name: 'name', reason: 'name must be at most 100 characters' },
      ],
    });
    expect(html).toContain('value="&lt;b&gt;Li&lt;/b&gt;"');
    expect(html).toContain('a &lt;/textarea&gt; b</textarea>');
    expect(html).toContain('<option value="llm-gateway" selected>');
    expect(html).toMatch(/id="email"[^>]*aria-invalid="true"/);
    expect(html).toContain('<p class="field-error" id="email-error">请输入有效的邮箱地址，例如 name@example.com。</p>');
    expect(html).toContain('<p class="field-error" id="name-error">姓名请缩短到 100 个字符以内。</p>');
    expect(html).toContain('data-kind="error">请修改下面标出的 2 项。</div>');
  });

  it('an unknown product is named beside the product field, in the page language', () => {
    const reason = "product must be one of the site's products: llm-gateway (or empty)";
    const en = contactFormHtml('en', products, { values: { product: 'nope' }, invalid: [{ name: 'product', reason }] });
    expect(en).toMatch(/id="product"[^>]*aria-invalid="true"/);
    expect(en).toContain('<p class="field-error" id="product-error">Choose one of the listed products, or “Not sure yet”.</p>');
    const zh = contactFormHtml('zh', products, { values: { product: 'nope' }, invalid: [{ name: 'product', reason }] });
    expect(zh).toContain('<p class="field-error" id="product-error">请从列表中选择产品，或选择“暂不确定”。</p>');
  });

  it('swaps the form into the built page and marks the title', () => {
    const page = `<html><head><title>Contact</title></head><body><h1>Contact</h1>${contactFormHtml('en', products)}<footer>f</footer></body></html>`;
    const answer = pageWithForm(page, contactFormHtml('en', products, { notice: 'Wait a minute.' }), 'en');
    expect(answer).toContain('<title>Error: Contact</title>');
    expect(answer).toContain('data-kind="error">Wait a minute.</div>');
    expect(answer).toContain('<h1>Contact</h1>');
    expect(answer).toContain('<footer>f</footer>');
    expect(answer.match(/<form/g)).toHaveLength(1);
    expect(pageWithForm('<title>x</title>no markers', 'form', 'en')).toBe('<title>x</title>no markers');
  });
});
