/** The pages a person sees during OAuth speak the browser's language (Accept-Language), English by default. */
import { describe, expect, it } from 'vitest';
import { useRuntime } from '../support/runtime.ts';

const site = useRuntime();

describe('OAuth pages and Accept-Language', () => {
  it.each([
    [undefined, 'en', 'Claim an agent registration', 'Continue'],
    ['en-US,en;q=0.9', 'en', 'Claim an agent registration', 'Continue'],
    ['zh-CN,zh;q=0.9,en;q=0.8', 'zh-CN', '认领智能体注册', '继续'],
    ['fr, zh;q=0.5', 'zh-CN', '认领智能体注册', '继续'],
  ])('claim page, Accept-Language %j -> %s', async (acceptLanguage, lang, heading, button) => {
    const res = await site.fetchPath('/oauth/claim/verify', { headers: acceptLanguage ? { 'accept-language': acceptLanguage } : {} });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(`<html lang="${lang}">`);
    expect(html).toContain(`<h1>${heading}</h1>`);
    expect(html).toContain(`<button type="submit">${button}</button>`);
  });

  it('the claim page says a malformed code is wrong in Chinese', async () => {
    const res = await site.fetchPath('/oauth/claim/verify?user_code=12', { headers: { 'accept-language': 'zh-CN' } });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('代码无效');
  });

  it('the authorization error page is framed in the browser language', async () => {
    const zh = await site.fetchPath('/oauth/authorize?response_type=code', { headers: { 'accept-language': 'zh-CN' } });
    expect(zh.status).toBe(400);
    const html = await zh.text();
    expect(html).toContain('<html lang="zh-CN">');
    expect(html).toContain('<h1>授权失败</h1>');
    expect(html).toContain('没有向应用发送任何内容');
    const en = await (await site.fetchPath('/oauth/authorize?response_type=code')).text();
    expect(en).toContain('<h1>Authorization failed</h1>');
  });
});
