import { describe, expect, it } from 'vitest';
import { feedbackIntentOf, intentOf } from './intent.ts';

const NAMES = ['Acme AI', '艾克米智能'];

describe('which skill a text message asks for', () => {
  it.each([
    ['Which products does Acme AI offer?', 'list_products'],
    ['What products do you have', 'list_products'],
    ['list your products', 'list_products'],
    ['Show me the product line', 'list_products'],
    ['What do you sell?', 'list_products'],
    ['艾克米智能有哪些产品？', 'list_products'],
    ['你们提供什么？', 'list_products'],
    ['产品列表', 'list_products'],
    ['How do I contact Acme AI sales?', 'get_company_info'],
    ['get in touch with the sales team', 'get_company_info'],
    ["What's your phone number?", 'get_company_info'],
    ['Where is the headquarters?', 'get_company_info'],
    ['company profile', 'get_company_info'],
    ['Who is Acme AI?', 'get_company_info'],
    ['Tell me about Acme AI', 'get_company_info'],
    ['怎么联系艾克米智能的销售？', 'get_company_info'],
    ['商务合作', 'get_company_info'],
    ['公司介绍', 'get_company_info'],
    ['艾克米智能是做什么的', 'get_company_info'],
  ])('%s -> %s', (text, skill) => {
    expect(intentOf(text, NAMES).skill).toBe(skill);
  });

  it.each([
    ['agent orchestration', 'agent orchestration'],
    ['私有化部署', '私有化部署'],
    ['vLLM on Kubernetes', 'vLLM on Kubernetes'],
    ['contact center AI', 'contact center AI'],
    ['AI 销售助手', 'AI 销售助手'],
    ['Acme AI gateway rate limiting', 'Acme AI gateway rate limiting'],
    ['search for articles about product analytics', 'product analytics'],
    ['Find articles about RAG', 'RAG'],
    ['find the company profile template', 'company profile template'],
    ['show me articles on agent memory', 'agent memory'],
    ['搜索关于检索增强的文章', '检索增强'],
    ['帮我查找智能体相关的内容', '智能体'],
  ])('%s is a search for %s', (text, query) => {
    expect(intentOf(text, NAMES)).toEqual({ skill: 'search_articles', query });
  });
});

describe('feedback in words', () => {
  it.each([
    ['Feedback on https://acme.example/blog/x: the install steps are outdated', 'outdated'],
    ['feedback: /blog/x is missing the price list', 'missing'],
    ['Report a problem with /blog/x: the port is 8443, not 443', 'wrong'],
    ['Correction: /blog/x says H100 has 40 GB', 'wrong'],
    ['Feedback about /blog/x: very helpful, thanks', 'helpful'],
    ['feedback for /blog/x - not helpful at all', 'not_helpful'],
    ['反馈：https://acme.example/blog/x 缺少价格信息', 'missing'],
    ['纠错：/blog/x 的内容已经过时', 'outdated'],
    ['反馈 /blog/x 很有用', 'helpful'],
    ['反馈：/blog/x 没有帮助', 'not_helpful'],
    ['Feedback on /blog/x: this did not help me at all', 'not_helpful'],
    ['Feedback on /blog/x: nothing here is wrong or outdated, but it is missing a pricing section', 'missing'],
    ['Feedback on /blog/x: it is not outdated, the port number is wrong', 'wrong'],
    ['反馈：/blog/x 内容不是过时，而是缺少示例', 'missing'],
  ])('%s -> %s', (text, kind) => {
    expect(feedbackIntentOf(text)?.kind).toBe(kind);
  });

  it.each([
    'feedback loops in agent design',
    'Feedback control for RLHF',
    'report on LLM adoption in banks',
    '反馈循环',
    '反馈机制设计',
    'human feedback: /blog/x',
  ])('%s is not feedback (it stays a search)', (text) => {
    expect(feedbackIntentOf(text)).toBeUndefined();
  });
});
