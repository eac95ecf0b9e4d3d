import { describe, expect, it } from 'vitest';
import { documentTitle, MAX_TITLE, namesSite, siteNameIn, timesNamed } from './page-title.ts';

const company = { name: 'Acme AI', name_zh: '艾克米智能' };

describe('documentTitle: the page title and the site name once, within MAX_TITLE characters', () => {
  it('adds the site name in the page language', () => {
    expect(documentTitle('Blog', siteNameIn(company, 'en'))).toBe('Blog | Acme AI');
    expect(documentTitle('技术博客', siteNameIn(company, 'zh'))).toBe('技术博客 | 艾克米智能');
  });

  it('keeps the suffix on a long title and shortens the title at a word instead (s10b: /docs/api/mcp had no suffix)', () => {
    const title = documentTitle('MCP server (JSON-RPC 2.0 over Streamable HTTP) · API reference', 'Acme AI');
    expect(title).toBe('MCP server (JSON-RPC 2.0 over Streamable HTTP) · API… | Acme AI');
    expect(title.length).toBeLessThanOrEqual(MAX_TITLE);
    const article = documentTitle('Speculative decoding: faster LLM inference without changing the output', 'Acme AI');
    expect(article).toBe('Speculative decoding: faster LLM inference without changing… | Acme AI');
    // A dangling connective goes before the ellipsis.
    expect(documentTitle(`${'word '.repeat(10)}gateway for enterprises and banks`, 'Acme AI')).toBe(
      `${'word '.repeat(10)}gateway… | Acme AI`,
    );
  });

  it('shortens a long Chinese title (no spaces) by characters', () => {
    const long = '私有化部署'.repeat(20);
    const title = documentTitle(long, '艾克米智能');
    expect(title.endsWith('… | 艾克米智能')).toBe(true);
    expect(title.length).toBe(MAX_TITLE);
  });

  it('does not name the site twice: the home page starts with it, the contact page names it', () => {
    expect(documentTitle('Acme AI: Private LLM platforms', 'Acme AI')).toBe('Acme AI: Private LLM platforms');
    expect(documentTitle('艾克米智能：私有化大模型平台', '艾克米智能')).toBe('艾克米智能：私有化大模型平台');
    expect(documentTitle('Contact Acme AI', 'Acme AI')).toBe('Contact Acme AI');
    expect(documentTitle('联系艾克米智能', '艾克米智能')).toBe('联系艾克米智能');
    const home = documentTitle('Acme AI: Private LLM platforms, AI agents and an LLM gateway for enterprises', 'Acme AI');
    expect(home).toBe('Acme AI: Private LLM platforms, AI agents and an LLM gateway…');
  });

  it('a product whose name starts with the brand is not the brand ("Acme AIGC Suite")', () => {
    expect(namesSite('Acme AIGC Suite', 'Acme AI')).toBe(false);
    expect(documentTitle('Acme AIGC Suite', 'Acme AI')).toBe('Acme AIGC Suite | Acme AI');
    expect(timesNamed('Acme AIGC Suite | Acme AI', 'Acme AI')).toBe(1);
    expect(documentTitle('Acme AIGC Suite', '艾克米智能')).toBe('Acme AIGC Suite | 艾克米智能');
  });
});
