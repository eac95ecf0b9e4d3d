import { describe, expect, it } from 'vitest';
import { curlSnippet, fetchSnippet, type HttpSample, pythonSnippet } from './snippets.ts';

const search: HttpSample = {
  method: 'GET',
  url: 'https://x.example/api/search',
  query: [
    ['q', '私有化部署 LLM'],
    ['limit', '3'],
  ],
  headers: [],
  answer: 'json',
};
const contact: HttpSample = {
  method: 'POST',
  url: 'https://x.example/api/contact',
  query: [],
  headers: [],
  body: { kind: 'json', value: { name: "O'Brien 李伟", subscribed: true, company: null } },
  answer: 'json',
};
const token: HttpSample = {
  method: 'POST',
  url: 'https://x.example/oauth/token',
  query: [],
  headers: [['Accept', 'application/json']],
  body: {
    kind: 'form',
    value: [
      ['grant_type', 'client_credentials'],
      ['scope', 'content:export'],
    ],
  },
  answer: 'json',
};
const consent: HttpSample = {
  method: 'POST',
  url: 'https://x.example/oauth/authorize',
  query: [],
  headers: [],
  body: { kind: 'form', value: [['decision', 'approve']] },
  answer: 'status',
};

describe('curl', () => {
  it('lets curl encode the query, so the text stays readable', () => {
    expect(curlSnippet(search)).toBe(
      "curl -sS -G 'https://x.example/api/search' \\\n  --data-urlencode 'q=私有化部署 LLM' \\\n  --data-urlencode 'limit=3'",
    );
  });

  it('quotes single quotes for the shell and sends JSON as typed', () => {
    const snippet = curlSnippet(contact);
    expect(snippet).toContain("-H 'Content-Type: application/json'");
    expect(snippet).toContain(`"name": "O'\\''Brien 李伟"`);
    expect(snippet.startsWith("curl -sS 'https://x.example/api/contact'")).toBe(true);
  });

  it('sends forms field by field and prints only the status of a redirect', () => {
    expect(curlSnippet(token)).toBe(
      "curl -sS 'https://x.example/oauth/token' \\\n  -H 'Accept: application/json' \\\n  --data-urlencode 'grant_type=client_credentials' \\\n  --data-urlencode 'scope=content:export'",
    );
    expect(curlSnippet(consent)).toMatch(/^curl -sS -o \/dev\/null -w '%\{http_code\} %\{redirect_url\}\\n' /);
  });
});

describe('fetch', () => {
  it('builds the query with URLSearchParams and reads JSON', () => {
    expect(fetchSnippet(search)).toBe(
      "const response = await fetch('https://x.example/api/search?' + new URLSearchParams({ q: '私有化部署 LLM', limit: '3' }));\nconsole.log(response.status, await response.json());",
    );
  });

  it('sends JSON with its content type, forms as URLSearchParams, and keeps redirects for status-only answers', () => {
    const json = fetchSnippet(contact);
    expect(json).toContain("method: 'POST'");
    expect(json).toContain("headers: { 'Content-Type': 'application/json' }");
    expect(json).toContain('"name": "O\'Brien 李伟"');
    expect(fetchSnippet(token)).toContain("body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'content:export' })");
    expect(fetchSnippet(consent)).toContain("redirect: 'manual'");
  });
});

describe('Python requests', () => {
  it('passes the query as params and JSON as Python literals', () => {
    const get = pythonSnippet(search);
    expect(get).toContain('requests.get(');
    expect(get).toContain('"q": "私有化部署 LLM"');
    const post = pythonSnippet(contact);
    expect(post).toContain('json={');
    expect(post).toContain('"subscribed": True');
    expect(post).toContain('"company": None');
    expect(post).not.toMatch(/\btrue\b|\bnull\b/);
  });

  it('sends forms as data and does not follow a redirect it means to show', () => {
    expect(pythonSnippet(token)).toContain('data={');
    expect(pythonSnippet(consent)).toContain('allow_redirects=False');
  });
});
