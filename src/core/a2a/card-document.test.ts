/** The agent card's four representations (card-document.ts): chosen by A2A-Version and Accept, each with its own ETag. */
import { describe, expect, it } from 'vitest';
import { A2A_AGENT_CARD_TYPE, agentCardDocuments, agentCardFor, serveAgentCard } from './card-document.ts';
import { A2A_PROTOCOL_VERSION } from './card.ts';

const SOURCE = {
  origin: 'https://acme-ai.example',
  version: '9.9.9',
  siteName: 'Acme AI',
  categorySlugs: ['rag'],
  exampleSlug: 'rag-chunking',
  exampleQuery: 'RAG',
};
const URL_ = 'https://acme-ai.example/.well-known/agent-card.json';
const request = (headers: Record<string, string> = {}, method = 'GET') => new Request(URL_, { method, headers });
const refuse = () => new Response(null, { status: 405 });

describe('agentCardFor', () => {
  it.each<[string, Record<string, string>, 'v1' | 'legacy', 'json' | 'cardType']>([
    ['no A2A-Version (A2A §3.6.2: 0.3)', {}, 'legacy', 'json'],
    ['A2A-Version 0.3', { 'a2a-version': '0.3' }, 'legacy', 'json'],
    ['A2A-Version 1.0', { 'a2a-version': A2A_PROTOCOL_VERSION }, 'v1', 'json'],
    ['A2A-Version 1.0, Accept the card type', { 'a2a-version': '1.0', accept: A2A_AGENT_CARD_TYPE }, 'v1', 'cardType'],
    ['Accept the card type at q=0', { 'a2a-version': '1.0', accept: `${A2A_AGENT_CARD_TYPE};q=0, application/json` }, 'v1', 'json'],
    ['Accept */* (no explicit card type)', { 'a2a-version': '1.0', accept: '*/*' }, 'v1', 'json'],
  ])('%s → %s as %s', async (_name, headers, version, type) => {
    const documents = await agentCardDocuments(SOURCE);
    expect(agentCardFor(request(headers), documents)).toBe(documents[version][type]);
  });

  it('each representation has its own strong ETag and varies by A2A-Version and Accept', async () => {
    const documents = await agentCardDocuments(SOURCE);
    const all = [documents.v1.json, documents.v1.cardType, documents.legacy.json, documents.legacy.cardType];
    expect(new Set(all.map((d) => d.etag)).size).toBe(4);
    for (const doc of all) expect(doc.headers?.vary).toBe('A2A-Version, Accept');
    expect(documents.v1.cardType.body).toBe(documents.v1.json.body);
    expect(documents.v1.cardType.contentType).toBe(A2A_AGENT_CARD_TYPE);
  });
});

describe('serveAgentCard', () => {
  it('GET: the chosen card, 304 for its ETag, and the caller’s 405 for another method', async () => {
    const documents = await agentCardDocuments(SOURCE);
    const options = { maxAgeSeconds: 60, methodNotAllowed: refuse };
    const res = serveAgentCard(request({ 'a2a-version': '1.0' }), documents, options);
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe(documents.v1.json.etag);
    expect(await res.text()).toBe(documents.v1.json.body);
    expect(serveAgentCard(request({ 'a2a-version': '1.0', 'if-none-match': documents.v1.json.etag }), documents, options).status).toBe(304);
    expect(serveAgentCard(request({}, 'POST'), documents, options).status).toBe(405);
  });
});
