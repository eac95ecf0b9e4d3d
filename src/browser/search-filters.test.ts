import { describe, expect, it } from 'vitest';
import { selectionFromParams } from './search-filters.ts';

const categories = { 'api-gateway': { zh: 'API 网关', en: 'API gateway' }, rag: { zh: 'RAG', en: 'RAG' } };
const selection = (query: string) => selectionFromParams(new URLSearchParams(query), categories);

describe('selectionFromParams', () => {
  it('keeps the filters the page offers', () => {
    expect(selection('q=gateway&lang=zh&category=rag')).toEqual({ lang: 'zh', category: 'rag' });
    expect(selection('q=gateway&lang=en')).toEqual({ lang: 'en', category: '' });
    expect(selection('q=gateway')).toEqual({ lang: '', category: '' });
  });

  it('ignores values it does not know, so they cannot hide every result', () => {
    for (const query of ['lang=xx', 'lang=EN', 'lang=fr', 'lang=', 'category=nope', 'category=toString', 'category=__proto__']) {
      expect(selection(`q=gateway&${query}`), query).toEqual({ lang: '', category: '' });
    }
    expect(selection('q=gateway&lang=xx&category=rag')).toEqual({ lang: '', category: 'rag' });
  });
});
